// A histogram of non-negative integer values (microseconds, usually) with bounded relative
// error: the log-linear bucketing of HdrHistogram, in fixed memory.
//
// Values below 2^(k+1) have a bucket each. Above, every power-of-two range [2^e, 2^(e+1)) is cut
// into 2^k equal buckets, so a bucket [low, low + width) has width <= low * 2^-k. Quantiles are
// therefore approximate, but with a stated bound; count, sum, mean, min and max are exact, which
// is what the validation suite compares against queueing theory.
//
// Invariants:
//  (1) count() is the exact number of recorded values and equals the sum of the bucket counts.
//  (2) sum() is the exact sum of the recorded values (128-bit, it cannot overflow: 2^62 values
//      times 2^63 records is below 2^125).
//  (3) If !empty(), min() <= Quantile(p) <= max() for every p, and Quantile is nondecreasing
//      in p.
//  (4) Memory is fixed at construction (about 58 KB for k = 7): it does not grow with the
//      number of recorded values.
//  (5) Every bucket above highest_used_index_ is zero, so Clear() only touches used buckets.
//
// Thread-safety: none; a histogram is a value owned by one run. Merge per-run histograms after
// the runs finish.
#pragma once

#include <cstdint>
#include <vector>

namespace drainsim::model {

class Histogram {
 public:
  // 2^7 sub-buckets per power of two: quantiles within 1/256 (0.4%) of the exact value.
  static constexpr int kSubBucketBitsDefault = 7;
  static constexpr int kSubBucketBitsMin = 1;
  // 2^14 sub-buckets: about 6.5 MB, finer than any report prints.
  static constexpr int kSubBucketBitsMax = 14;
  // The largest recordable value: 2^62 µs is about 146,000 years.
  static constexpr int64_t kValueMax = int64_t{1} << 62;

  // REQUIRES: kSubBucketBitsMin <= sub_bucket_bits <= kSubBucketBitsMax
  explicit Histogram(int sub_bucket_bits = kSubBucketBitsDefault);

  // REQUIRES: 0 <= value <= kValueMax
  void Record(int64_t value) { Record(value, 1); }
  // Records `value` `count` times; a count of zero changes nothing.
  // REQUIRES: 0 <= value <= kValueMax; count >= 0; the total count stays below 2^63
  void Record(int64_t value, int64_t count);

  // Adds every value recorded in `other`, as if recorded here (exactly: the buckets line up).
  // REQUIRES: other.sub_bucket_bits() == sub_bucket_bits()
  void Merge(const Histogram& other);

  // Forgets every value. Costs O(highest used bucket), not O(all buckets).
  void Clear();

  bool empty() const { return count_ == 0; }
  int64_t count() const { return count_; }
  // The exact sum of the recorded values.
  __int128 sum() const { return sum_; }
  // sum() / count(), to within one unit in the last place of a double (the quotient is formed
  // from the exact 128-bit sum; no floating accumulation).
  // REQUIRES: !empty()
  double Mean() const;
  // REQUIRES: !empty()
  int64_t min() const;
  // REQUIRES: !empty()
  int64_t max() const;

  // The p-quantile, by nearest rank: let rank = ceil(p * count()) computed in double and kept
  // within [1, count()], and x the rank-th smallest recorded value. Returns min() if rank is 1,
  // max() if rank is count(), and otherwise the middle of x's bucket clamped into [min, max],
  // so that |Quantile(p) - x| <= x * RelativeErrorMax(). Values below 2^(k+1) are exact.
  // REQUIRES: !empty(); 0 <= p <= 1
  int64_t Quantile(double p) const;

  // 2^-(k+1): the bound on a quantile's relative error.
  double RelativeErrorMax() const;
  int sub_bucket_bits() const { return sub_bucket_bits_; }

 private:
  int IndexOf(int64_t value) const;
  // The smallest value of bucket `index`, and its width (a power of two).
  int64_t BucketLow(int index) const;
  int64_t BucketWidth(int index) const;

  int sub_bucket_bits_;
  std::vector<int64_t> counts_;
  // -1 when empty.
  int highest_used_index_ = -1;
  int64_t count_ = 0;
  __int128 sum_ = 0;
  int64_t min_ = 0;
  int64_t max_ = 0;
};

}  // namespace drainsim::model
