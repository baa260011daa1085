#include "sim/model/histogram.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/base/check.h"

namespace drainsim::model {

Histogram::Histogram(int sub_bucket_bits) : sub_bucket_bits_(sub_bucket_bits) {
  DRAINSIM_CHECK(sub_bucket_bits >= kSubBucketBitsMin);
  DRAINSIM_CHECK(sub_bucket_bits <= kSubBucketBitsMax);
  // IndexOf is nondecreasing, so the largest value has the last bucket.
  counts_.assign(static_cast<size_t>(IndexOf(kValueMax)) + 1, 0);
}

// With s = max(0, msb(value) - k), the bucket is (s << k) + (value >> s). For s = 0 that is the
// value itself (the exact range [0, 2^(k+1))); for s >= 1, value >> s lies in [2^k, 2^(k+1)),
// so the indices of consecutive powers of two follow each other without gaps or overlaps.
// Inlined: Record runs it for every recorded value, three times per job in a plain run.
[[gnu::always_inline]] inline int Histogram::IndexOf(int64_t value) const {
  const int k = sub_bucket_bits_;
  if (value < (int64_t{1} << (k + 1))) return static_cast<int>(value);
  const int msb = 63 - __builtin_clzll(static_cast<uint64_t>(value));
  const int shift = msb - k;
  return (shift << k) + static_cast<int>(value >> shift);
}

int64_t Histogram::BucketLow(int index) const {
  const int k = sub_bucket_bits_;
  const int shift = std::max(0, (index >> k) - 1);
  return static_cast<int64_t>(index - (shift << k)) << shift;
}

int64_t Histogram::BucketWidth(int index) const {
  return int64_t{1} << std::max(0, (index >> sub_bucket_bits_) - 1);
}

void Histogram::Record(int64_t value, int64_t count) {
  DRAINSIM_CHECK(value >= 0);
  DRAINSIM_CHECK(value <= kValueMax);
  DRAINSIM_CHECK(count >= 0);
  if (count == 0) return;
  int64_t new_count = 0;
  DRAINSIM_CHECK(!__builtin_add_overflow(count_, count, &new_count));
  const int index = IndexOf(value);
  counts_[static_cast<size_t>(index)] += count;
  highest_used_index_ = std::max(highest_used_index_, index);
  min_ = count_ == 0 ? value : std::min(min_, value);
  max_ = count_ == 0 ? value : std::max(max_, value);
  count_ = new_count;
  sum_ += static_cast<__int128>(value) * count;
}

void Histogram::Merge(const Histogram& other) {
  DRAINSIM_CHECK(other.sub_bucket_bits_ == sub_bucket_bits_);
  if (other.empty()) return;
  int64_t new_count = 0;
  DRAINSIM_CHECK(!__builtin_add_overflow(count_, other.count_, &new_count));
  for (int i = 0; i <= other.highest_used_index_; ++i) {
    counts_[static_cast<size_t>(i)] += other.counts_[static_cast<size_t>(i)];
  }
  highest_used_index_ = std::max(highest_used_index_, other.highest_used_index_);
  min_ = empty() ? other.min_ : std::min(min_, other.min_);
  max_ = empty() ? other.max_ : std::max(max_, other.max_);
  count_ = new_count;
  sum_ += other.sum_;
}

void Histogram::Clear() {
  std::fill(counts_.begin(), counts_.begin() + (highest_used_index_ + 1), 0);
  highest_used_index_ = -1;
  count_ = 0;
  sum_ = 0;
  min_ = 0;
  max_ = 0;
}

double Histogram::Mean() const {
  DRAINSIM_CHECK(!empty());
  // The integer quotient is at most kValueMax, exact in a long double (64-bit significand on
  // x86-64); only the fraction remainder / count is rounded, before the final rounding to double.
  const __int128 quotient = sum_ / count_;
  const __int128 remainder = sum_ % count_;
  const long double mean = static_cast<long double>(quotient) +
                           static_cast<long double>(remainder) / static_cast<long double>(count_);
  return static_cast<double>(mean);
}

int64_t Histogram::min() const {
  DRAINSIM_CHECK(!empty());
  return min_;
}

int64_t Histogram::max() const {
  DRAINSIM_CHECK(!empty());
  return max_;
}

int64_t Histogram::Quantile(double p) const {
  DRAINSIM_CHECK(!empty());
  DRAINSIM_CHECK(p >= 0);  // also refuses NaN
  DRAINSIM_CHECK(p <= 1);
  // The rank is kept within [1, count] in double first: a product near 2^63 would not convert.
  const double rank_real = std::ceil(p * static_cast<double>(count_));
  if (rank_real <= 1) return min_;
  if (rank_real >= static_cast<double>(count_)) return max_;
  const auto rank = static_cast<int64_t>(rank_real);
  int64_t seen = 0;
  for (int i = 0; i <= highest_used_index_; ++i) {
    seen += counts_[static_cast<size_t>(i)];
    if (seen >= rank) {
      // The middle of [low, low + width): at most width / 2 <= low * 2^-(k+1) from any value
      // in the bucket.
      const int64_t middle = BucketLow(i) + BucketWidth(i) / 2;
      return std::clamp(middle, min_, max_);
    }
  }
  DRAINSIM_CHECK(false);  // unreachable by invariant (1): the counts sum to count_ >= rank
  return max_;
}

double Histogram::RelativeErrorMax() const { return std::ldexp(1.0, -(sub_bucket_bits_ + 1)); }

}  // namespace drainsim::model
