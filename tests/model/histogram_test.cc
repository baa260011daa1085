#include "sim/model/histogram.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "sim/engine/distributions.h"
#include "sim/engine/rng.h"
#include "tests/engine/death.h"

namespace drainsim::model {
namespace histogram_test {
namespace {

using engine::testing::DiesOfFailedCheck;

// The trivially correct model: the nearest-rank quantile of the sorted values, with the rank
// computed exactly as Histogram::Quantile documents it.
int64_t ExactQuantile(const std::vector<int64_t>& sorted, double p) {
  const auto n = static_cast<int64_t>(sorted.size());
  const double rank_real = std::ceil(p * static_cast<double>(n));
  const int64_t rank = std::clamp(static_cast<int64_t>(rank_real), int64_t{1}, n);
  return sorted[static_cast<size_t>(rank - 1)];
}

// Checks every p in {0, 0.001, ..., 1} and a few tail points against the sorted vector;
// returns the largest relative error seen, so callers can check the bound is not vacuous.
double CheckQuantiles(const Histogram& histogram, std::vector<int64_t> values) {
  std::sort(values.begin(), values.end());
  std::vector<double> ps = {0.9999, 0.99999, 1e-9};
  for (int i = 0; i <= 1000; ++i) ps.push_back(i / 1000.0);
  double worst = 0;
  int64_t previous = std::numeric_limits<int64_t>::min();
  std::sort(ps.begin(), ps.end());
  for (double p : ps) {
    const int64_t exact = ExactQuantile(values, p);
    const int64_t approx = histogram.Quantile(p);
    INFO("p = " << p << ", exact " << exact << ", histogram " << approx);
    const double error = std::fabs(static_cast<double>(approx - exact));
    CHECK(error <= static_cast<double>(exact) * histogram.RelativeErrorMax());
    CHECK(approx >= previous);  // nondecreasing in p
    previous = approx;
    if (exact > 0) worst = std::max(worst, error / static_cast<double>(exact));
  }
  return worst;
}

TEST_CASE("quantiles of uniform integers are within the stated relative error",
          "[model][histogram]") {
  for (int bits : {7, 3}) {
    INFO("sub_bucket_bits " << bits);
    Histogram histogram(bits);
    std::vector<int64_t> values;
    for (int64_t v = 1; v <= 100'000; ++v) values.push_back(v);
    // Recorded in a scrambled order: the result must not depend on it.
    for (size_t i = 0; i < values.size(); ++i) histogram.Record(values[(i * 7919) % 100'000]);
    const double worst = CheckQuantiles(histogram, values);
    CHECK(histogram.RelativeErrorMax() == std::ldexp(1.0, -(bits + 1)));
    // The bound is nearly reached: the check above is not trivially satisfied.
    CHECK(worst > histogram.RelativeErrorMax() / 2);
  }
}

TEST_CASE("quantiles of an exponential sample are within the stated relative error",
          "[model][histogram]") {
  const auto exponential = engine::Distribution::Exponential(1e6);  // mean 1 s in µs
  auto rng = engine::Rng::FromSeed(20260301);
  Histogram histogram;
  std::vector<int64_t> values;
  for (int i = 0; i < 100'000; ++i) {
    values.push_back(std::llround(exponential.Sample(rng)));
    histogram.Record(values.back());
  }
  const double worst = CheckQuantiles(histogram, values);
  CHECK(worst > 0);
  CHECK(worst <= 1.0 / 256);
}

TEST_CASE("count, sum and mean are exact", "[model][histogram]") {
  Histogram histogram;
  for (int64_t v = 1; v <= 100'000; ++v) histogram.Record(v);
  CHECK(histogram.count() == 100'000);
  CHECK(histogram.sum() == __int128{5'000'050'000});
  CHECK(histogram.Mean() == 50'000.5);

  // A large value and many small ones: summed in double, the ones would vanish (the spacing of
  // doubles near 2^60 is 256), and the mean would be off in the fourth digit.
  Histogram mixed;
  mixed.Record(int64_t{1} << 60);
  double naive_sum = std::ldexp(1.0, 60);
  for (int i = 0; i < 1'000'000; ++i) {
    mixed.Record(1);
    naive_sum += 1;
  }
  CHECK(mixed.sum() == (__int128{1} << 60) + 1'000'000);
  // (2^60 + 10^6) / (10^6 + 1), correctly rounded (computed with Python's fractions).
  const double expected = 0x1.0c6f6873c77edp+40;
  CHECK(mixed.Mean() == expected);
  CHECK(naive_sum / 1'000'001 != expected);
}

TEST_CASE("Record with a count equals that many single records", "[model][histogram]") {
  Histogram single, counted;
  for (int i = 0; i < 1000; ++i) single.Record(123'456);
  for (int i = 0; i < 500; ++i) single.Record(7);
  counted.Record(123'456, 1000);
  counted.Record(7, 500);
  counted.Record(999, 0);  // a zero count changes nothing, not even min or max
  CHECK(counted.count() == single.count());
  CHECK(counted.sum() == single.sum());
  CHECK(counted.min() == 7);
  CHECK(counted.max() == 123'456);
  for (double p : {0.0, 0.2, 0.33, 0.34, 0.5, 1.0})
    CHECK(counted.Quantile(p) == single.Quantile(p));
}

TEST_CASE("merging equals recording everything in one histogram", "[model][histogram]") {
  auto rng = engine::Rng::FromSeed(7);
  Histogram all, left, right;
  for (int i = 0; i < 20'000; ++i) {
    // Spread over many octaves, so the two halves use different ranges of buckets.
    const int64_t value = static_cast<int64_t>(rng.UniformInt(1'000'000)) << (i % 30);
    all.Record(value);
    (i % 3 == 0 ? left : right).Record(value);
  }
  Histogram merged;
  merged.Merge(left);  // into an empty histogram
  merged.Merge(right);
  merged.Merge(Histogram());  // merging an empty one changes nothing
  CHECK(merged.count() == all.count());
  CHECK(merged.sum() == all.sum());
  CHECK(merged.min() == all.min());
  CHECK(merged.max() == all.max());
  CHECK(merged.Mean() == all.Mean());
  for (int i = 0; i <= 200; ++i) CHECK(merged.Quantile(i / 200.0) == all.Quantile(i / 200.0));
}

TEST_CASE("the extreme quantiles are the exact min and max", "[model][histogram]") {
  // Values in wide buckets, where a bucket's middle is neither the min nor the max.
  Histogram histogram;
  histogram.Record(1'000'003);
  histogram.Record(5'000'001);
  histogram.Record(123'999'999);
  CHECK(histogram.Quantile(0) == 1'000'003);
  CHECK(histogram.Quantile(1e-12) == 1'000'003);
  CHECK(histogram.Quantile(1) == 123'999'999);
  // The middle rank is approximate but within the bound.
  const int64_t middle = histogram.Quantile(0.5);
  CHECK(std::abs(middle - 5'000'001) <= 5'000'001 / 256);
  CHECK(middle != 5'000'001);  // and really from a bucket (the test above is not vacuous)
}

TEST_CASE("small values are exact and zero is a value", "[model][histogram]") {
  Histogram histogram;  // k = 7: values below 256 have a bucket each
  std::vector<int64_t> values;
  for (int64_t v = 0; v < 256; ++v) {
    values.push_back(v);
    histogram.Record(v);
  }
  for (int i = 0; i <= 256; ++i) {
    CHECK(histogram.Quantile(i / 256.0) == ExactQuantile(values, i / 256.0));
  }
  Histogram zeros;
  zeros.Record(0, 1000);
  CHECK(zeros.count() == 1000);
  CHECK(zeros.sum() == 0);
  CHECK(zeros.Mean() == 0);
  CHECK(zeros.min() == 0);
  CHECK(zeros.max() == 0);
  CHECK(zeros.Quantile(0.5) == 0);
  zeros.Record(1'000'000);
  CHECK(zeros.Quantile(0.999) == 0);
  CHECK(zeros.Quantile(1) == 1'000'000);
}

TEST_CASE("huge values and counts stay exact", "[model][histogram]") {
  Histogram histogram;
  const int64_t top = Histogram::kValueMax;
  const int64_t count = int64_t{1} << 61;
  histogram.Record(top, count);
  histogram.Record(top - 1);
  histogram.Record((int64_t{1} << 61) + 12'345);
  CHECK(histogram.count() == count + 2);
  // 2^62 * 2^61 + (2^62 - 1) + 2^61 + 12345: far beyond int64.
  const __int128 expected_sum =
      (__int128{1} << 123) + (__int128{1} << 62) - 1 + (__int128{1} << 61) + 12'345;
  CHECK(histogram.sum() == expected_sum);
  CHECK(histogram.Mean() == std::ldexp(1.0, 62));  // within one part in 2^61 of 2^62
  CHECK(histogram.max() == top);
  CHECK(histogram.min() == (int64_t{1} << 61) + 12'345);
  CHECK(histogram.Quantile(0.5) == top);  // clamped into [min, max]
  CHECK(histogram.Quantile(1e-30) == histogram.min());
}

TEST_CASE("Clear forgets everything and leaves a reusable histogram", "[model][histogram]") {
  Histogram histogram, fresh;
  histogram.Record(5);
  histogram.Record(Histogram::kValueMax);
  histogram.Clear();
  CHECK(histogram.empty());
  CHECK(histogram.count() == 0);
  CHECK(histogram.sum() == 0);
  for (int64_t v : {3, 300, 30'000}) {
    histogram.Record(v);
    fresh.Record(v);
  }
  CHECK(histogram.min() == 3);
  CHECK(histogram.max() == 30'000);
  for (double p : {0.0, 0.4, 0.5, 0.7, 1.0}) CHECK(histogram.Quantile(p) == fresh.Quantile(p));
}

TEST_CASE("histogram preconditions are checked", "[model][histogram]") {
  CHECK(DiesOfFailedCheck([] { Histogram h(0); }));
  CHECK(DiesOfFailedCheck([] { Histogram h(Histogram::kSubBucketBitsMax + 1); }));
  CHECK(DiesOfFailedCheck([] { Histogram().Record(-1); }));
  CHECK(DiesOfFailedCheck([] { Histogram().Record(Histogram::kValueMax + 1); }));
  CHECK(DiesOfFailedCheck([] { Histogram().Record(1, -1); }));
  CHECK(DiesOfFailedCheck([] { (void)Histogram().Quantile(0.5); }));
  CHECK(DiesOfFailedCheck([] { (void)Histogram().Mean(); }));
  CHECK(DiesOfFailedCheck([] {
    Histogram h;
    h.Record(1);
    (void)h.Quantile(std::nan(""));
  }));
  CHECK(DiesOfFailedCheck([] {
    Histogram h(7);
    h.Merge(Histogram(8));
  }));
  CHECK(DiesOfFailedCheck([] {
    Histogram h;
    h.Record(1, std::numeric_limits<int64_t>::max());
    h.Record(1);  // the count would overflow
  }));
}

}  // namespace
}  // namespace histogram_test
}  // namespace drainsim::model
