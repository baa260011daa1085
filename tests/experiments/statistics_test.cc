// The statistics of replications against values computed by hand.
#include "experiments/results/statistics.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace drainsim::experiments {
namespace statistics_test {
namespace {

using Values = std::vector<std::optional<double>>;

TEST_CASE("Describe: mean, sample sd, t interval and nearest-rank percentiles",
          "[experiments][statistics]") {
  const Values values = {3, 1, 5, 2, 4};
  const Statistics s = Describe(values, 0.95);
  CHECK(s.runs == 5);
  CHECK(s.undefined == 0);
  CHECK(s.count == 5);
  CHECK(s.mean == 3);
  CHECK(s.sd == Approx(std::sqrt(2.5)).epsilon(1e-15));
  // t(0.975, 4) = 2.7764451 (tables); se = sqrt(2.5 / 5).
  CHECK(s.half_width == Approx(2.7764451 * std::sqrt(0.5)).epsilon(1e-7));
  CHECK(s.ci_low == Approx(3 - 2.7764451 * std::sqrt(0.5)).epsilon(1e-7));
  CHECK(s.ci_high == Approx(3 + 2.7764451 * std::sqrt(0.5)).epsilon(1e-7));
  CHECK(s.p50 == 3);  // rank ceil(2.5) = 3
  CHECK(s.p95 == 5);  // rank ceil(4.75) = 5
  CHECK(s.min == 1);
  CHECK(s.max == 5);
  // One-sided 95%: t(0.95, 4) = 2.1318468.
  CHECK(s.UpperBound(0.95) == Approx(3 + 2.1318468 * std::sqrt(0.5)).epsilon(1e-7));
  CHECK(s.LowerBound(0.95) == Approx(3 - 2.1318468 * std::sqrt(0.5)).epsilon(1e-7));
  CHECK(s.RelativeHalfWidth() == Approx(2.7764451 * std::sqrt(0.5) / 3).epsilon(1e-7));
}

TEST_CASE("Describe: nearest rank on 20 values, and a 90% level", "[experiments][statistics]") {
  Values values;
  for (int i = 20; i >= 1; --i) values.push_back(i);
  const Statistics s = Describe(values, 0.90);
  CHECK(s.p50 == 10);  // rank 10
  CHECK(s.p95 == 19);  // rank 19: 0.95 * 20 exactly
  // t(0.95, 19) = 1.7291328; sd of 1..20 = sqrt(35).
  CHECK(s.half_width == Approx(1.7291328 * std::sqrt(35.0 / 20)).epsilon(1e-7));
}

TEST_CASE("Describe: undefined runs are counted and left out", "[experiments][statistics]") {
  const Values values = {1, std::nullopt, 3, std::nullopt};
  const Statistics s = Describe(values, 0.95);
  CHECK(s.runs == 4);
  CHECK(s.undefined == 2);
  CHECK(s.count == 2);
  CHECK(s.mean == 2);
  CHECK(s.sd == Approx(std::sqrt(2.0)));
  CHECK(s.half_width == Approx(12.7062047).epsilon(1e-7));  // t(0.975, 1) * sqrt(2) / sqrt(2)
  CHECK(s.p50 == 1);
  CHECK(s.p95 == 3);

  const Statistics none = Describe(Values{std::nullopt, std::nullopt}, 0.95);
  CHECK(none.count == 0);
  CHECK(none.undefined == 2);
  CHECK_FALSE(none.has_interval());
  CHECK(std::isinf(none.RelativeHalfWidth()));

  const Statistics one = Describe(Values{7}, 0.95);
  CHECK(one.mean == 7);
  CHECK_FALSE(one.has_interval());
  CHECK(one.ci_low == 7);
  CHECK(one.ci_high == 7);
}

TEST_CASE("Describe: a constant sample has exactly no spread", "[experiments][statistics]") {
  const Values values = {0.1, 0.1, 0.1};
  const Statistics s = Describe(values, 0.95);
  CHECK(s.mean == 0.1);
  CHECK(s.sd == 0);
  CHECK(s.half_width == 0);
  CHECK(s.RelativeHalfWidth() == 0);
  CHECK(s.UpperBound(0.99) == 0.1);
}

TEST_CASE("DescribeDifferences: paired b - a over the pairs where both are defined",
          "[experiments][statistics]") {
  const Values a = {1, 2, 3, 4};
  const Values b = {2, 4, std::nullopt, 4};
  const Statistics d = DescribeDifferences(a, b, 0.95);
  CHECK(d.runs == 4);
  CHECK(d.undefined == 1);
  CHECK(d.count == 3);
  CHECK(d.mean == 1);  // (1 + 2 + 0) / 3
  CHECK(d.sd == 1);
  CHECK(d.half_width == Approx(4.3026527 / std::sqrt(3.0)).epsilon(1e-7));  // t(0.975, 2)

  const Values same = {0.1, 0.7, 0.3};
  const Statistics zero = DescribeDifferences(same, same, 0.95);
  CHECK(zero.mean == 0);
  CHECK(zero.sd == 0);
  CHECK(zero.half_width == 0);
  CHECK(zero.min == 0);
  CHECK(zero.max == 0);
}

TEST_CASE("UnpairedHalfWidth: Welch's interval for independent samples",
          "[experiments][statistics]") {
  const Values a = {1, 2, 3, 4, 5};
  const Values b = {11, 12, 13, 14, 15};
  const Statistics sa = Describe(a, 0.95);
  const Statistics sb = Describe(b, 0.95);
  // Each variance of the mean is 2.5 / 5 = 0.5; Welch's df = 1 / (0.25 / 4 * 2) = 8.
  CHECK(*UnpairedHalfWidth(sa, sb) == Approx(2.3060041).epsilon(1e-7));  // t(0.975, 8) * 1
  CHECK_FALSE(UnpairedHalfWidth(sa, Describe(Values{1}, 0.95)).has_value());
}

}  // namespace
}  // namespace statistics_test
}  // namespace drainsim::experiments
