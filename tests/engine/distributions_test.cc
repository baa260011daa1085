#include "sim/engine/distributions.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "sim/engine/math.h"
#include "tests/engine/death.h"

namespace drainsim::engine {
namespace distributions_test {
namespace {

using testing::DiesOfFailedCheck;

// Draws per distribution. Enough that 4 standard errors are a tight check (0.4% of the SD for
// the mean), few enough that the whole file runs in well under a second in Release.
constexpr int kDraws = 400'000;
// Tolerance in standard errors. The seeds are fixed, so the outcomes are deterministic; with
// 4 SE (two-sided p ~ 6e-5 each) a correct implementation passes for essentially any seed,
// while the mistakes these tests target (a wrong formula, a wrong sigma, a missing truncation
// term) are tens of SE away.
constexpr double kSe = 4.0;

struct SampleStats {
  double mean = 0;
  double variance = 0;  // about the sample mean
  double fourth = 0;    // fourth central moment, for the standard error of the variance
  std::vector<double> samples;
};

SampleStats Draw(const Distribution& d, uint64_t seed) {
  Rng rng = Rng::ForStream(seed, StreamId("distributions_test"), 0);
  SampleStats s;
  s.samples.reserve(kDraws);
  for (int i = 0; i < kDraws; ++i) s.samples.push_back(d.Sample(rng));
  for (double x : s.samples) s.mean += x;
  s.mean /= kDraws;
  for (double x : s.samples) {
    const double d2 = (x - s.mean) * (x - s.mean);
    s.variance += d2;
    s.fourth += d2 * d2;
  }
  s.variance /= kDraws;
  s.fourth /= kDraws;
  return s;
}

double FractionAtMost(const std::vector<double>& samples, double x) {
  int count = 0;
  for (double v : samples) count += v <= x ? 1 : 0;
  return static_cast<double>(count) / static_cast<double>(samples.size());
}

// Checks the sample against Mean(), Variance() and Quantile(p) for each p in `ps`:
//  - mean within kSe * sqrt(Var / n);
//  - variance within kSe * sqrt((m4 - s^4) / n), the large-sample SE of a sample variance
//    (m4 estimated from the same sample);
//  - the fraction of samples <= Quantile(p) within kSe * sqrt(p (1 - p) / n) of p.
void CheckAgainstAnalytic(const std::string& name, const Distribution& d, uint64_t seed,
                          const std::vector<double>& ps) {
  CAPTURE(name);
  const SampleStats s = Draw(d, seed);
  const double n = kDraws;
  CHECK(std::fabs(s.mean - d.Mean()) <= kSe * std::sqrt(d.Variance() / n));
  CHECK(std::fabs(s.variance - d.Variance()) <=
        kSe * std::sqrt((s.fourth - s.variance * s.variance) / n));
  for (double p : ps) {
    CAPTURE(p);
    CHECK(std::fabs(FractionAtMost(s.samples, d.Quantile(p)) - p) <=
          kSe * std::sqrt(p * (1 - p) / n));
  }
}

const std::vector<double> kPs = {0.01, 0.1, 0.5, 0.9, 0.99};

// The worked example of the header: 3 w.p. 0.5, uniform (3, 10] w.p. 0.4, (10, 40] w.p. 0.1.
Distribution ExampleEmpirical() {
  return Distribution::Empirical({{0.5, 3.0}, {0.9, 10.0}, {1.0, 40.0}});
}

TEST_CASE("Each kind's samples match its mean, variance and quantiles", "[distributions]") {
  CheckAgainstAnalytic("uniform", Distribution::Uniform(2.0, 5.0), 1, kPs);
  CheckAgainstAnalytic("exponential", Distribution::Exponential(0.25), 2, kPs);
  CheckAgainstAnalytic("lognormal", Distribution::LogNormal(1.0, 0.5), 3, kPs);
  CheckAgainstAnalytic("lognormal median/p99", Distribution::LogNormalFromMedianP99(0.1, 1.0), 4,
                       kPs);
  CheckAgainstAnalytic("normal", Distribution::Normal(10.0, 3.0, false), 5, kPs);
  CheckAgainstAnalytic("normal truncated (mean 1 sd)", Distribution::Normal(1.0, 1.0, true), 6,
                       kPs);
  CheckAgainstAnalytic("normal truncated (mean -2 sd)", Distribution::Normal(-2.0, 1.0, true), 7,
                       kPs);
  // Above the atom, P(X <= Quantile(p)) = p; at or below it, the atom's whole mass.
  CheckAgainstAnalytic("empirical", ExampleEmpirical(), 8, {0.6, 0.9, 0.95, 0.99});
  CheckAgainstAnalytic("empirical without atom",
                       Distribution::Empirical({{0.0, 1.0}, {0.3, 2.0}, {1.0, 20.0}}), 9, kPs);
}

TEST_CASE("Constant always returns its value and still draws once", "[distributions]") {
  const Distribution d = Distribution::Constant(4.5);
  CHECK(d.Mean() == 4.5);
  CHECK(d.Variance() == 0.0);
  Rng rng = Rng::FromSeed(1);
  Rng shadow = rng;
  for (int i = 0; i < 100; ++i) {
    REQUIRE(d.Sample(rng) == 4.5);
    shadow.NextU64();
  }
  CHECK(rng == shadow);
}

TEST_CASE("Every kind uses exactly one draw per sample, by inverse transform", "[distributions]") {
  const std::vector<Distribution> all = {
      Distribution::Constant(1.0),
      Distribution::Uniform(0.0, 1.0),
      Distribution::Exponential(2.0),
      Distribution::LogNormal(0.0, 1.0),
      Distribution::LogNormalFromMedianP99(5.0, 50.0),
      Distribution::Normal(0.0, 1.0, false),
      Distribution::Normal(0.5, 1.0, true),
      ExampleEmpirical(),
  };
  for (const Distribution& d : all) {
    CAPTURE(static_cast<int>(d.kind()));
    Rng rng = Rng::FromSeed(21);
    Rng shadow = rng;
    for (int i = 0; i < 1000; ++i) {
      const double x = d.Sample(rng);
      REQUIRE(x == d.Quantile(shadow.NextOpenDouble()));
      REQUIRE(rng == shadow);
    }
  }
}

TEST_CASE("The empirical table has an atom and uniform segments", "[distributions]") {
  const Distribution d = ExampleEmpirical();
  // Mean 0.5*3 + 0.4*6.5 + 0.1*25 = 6.6. E[X^2] = 0.5*9 + 0.4*(9+30+100)/3 + 0.1*(100+400+1600)/3
  // = 93.0333..., so Var = 93.0333... - 6.6^2 = 49.4733...
  CHECK(d.Mean() == Approx(6.6).epsilon(1e-14));
  CHECK(d.Variance() == Approx(4.5 + 0.4 * 139.0 / 3.0 + 70.0 - 6.6 * 6.6).epsilon(1e-13));
  CHECK(d.Quantile(0.0) == 3.0);
  CHECK(d.Quantile(0.25) == 3.0);
  CHECK(d.Quantile(0.5) == 3.0);
  CHECK(d.Quantile(0.7) == Approx(6.5).epsilon(1e-14));
  CHECK(d.Quantile(0.9) == 10.0);
  CHECK(d.Quantile(0.95) == Approx(25.0).epsilon(1e-14));
  CHECK(d.Quantile(1.0) == 40.0);
  const SampleStats s = Draw(d, 31);
  int at_atom = 0, first_segment = 0, second_segment = 0;
  double first_segment_sum = 0;
  for (double x : s.samples) {
    if (x == 3.0) {
      at_atom++;
    } else if (x > 3.0 && x <= 10.0) {
      first_segment++;
      first_segment_sum += x;
    } else if (x > 10.0 && x <= 40.0) {
      second_segment++;
    }
  }
  CHECK(at_atom + first_segment + second_segment == kDraws);
  const double n = kDraws;
  CHECK(std::fabs(at_atom / n - 0.5) <= kSe * std::sqrt(0.25 / n));
  CHECK(std::fabs(first_segment / n - 0.4) <= kSe * std::sqrt(0.24 / n));
  CHECK(std::fabs(second_segment / n - 0.1) <= kSe * std::sqrt(0.09 / n));
  // Within the first segment the value is uniform on (3, 10]: mean 6.5, SD 7 / sqrt(12).
  CHECK(std::fabs(first_segment_sum / first_segment - 6.5) <=
        kSe * (7.0 / std::sqrt(12.0)) / std::sqrt(static_cast<double>(first_segment)));
}

TEST_CASE("A normal truncated at zero is never negative", "[distributions]") {
  for (double mean : {3.0, 0.0, -1.0, -5.0}) {
    CAPTURE(mean);
    const Distribution d = Distribution::Normal(mean, 1.0, true);
    CHECK(d.Quantile(0.0) == 0.0);
    CHECK(d.Mean() > 0.0);
    const SampleStats s = Draw(d, 41);
    double min_sample = std::numeric_limits<double>::infinity();
    for (double x : s.samples) min_sample = std::min(min_sample, x);
    CHECK(min_sample >= 0.0);
    CHECK(std::fabs(s.mean - d.Mean()) <= kSe * std::sqrt(d.Variance() / kDraws));
  }
  // Without truncation, a normal centered at 0 is negative half the time.
  const SampleStats plain = Draw(Distribution::Normal(0.0, 1.0, false), 42);
  CHECK(std::fabs(FractionAtMost(plain.samples, 0.0) - 0.5) <= kSe * std::sqrt(0.25 / kDraws));
}

// Mean and variance as integrals of the quantile function, E[g(X)] = integral_0^1 g(Q(p)) dp,
// by the midpoint rule: an independent check of the closed forms, with no sampling noise.
void CheckMomentsByIntegration(const Distribution& d, double relative_tolerance) {
  constexpr int kCells = 1'000'000;
  double sum = 0;
  double sum_squares = 0;
  for (int i = 0; i < kCells; ++i) {
    const double x = d.Quantile((i + 0.5) / kCells);
    sum += x;
    sum_squares += (x - d.Mean()) * (x - d.Mean());
  }
  CHECK(sum / kCells == Approx(d.Mean()).epsilon(relative_tolerance));
  CHECK(sum_squares / kCells == Approx(d.Variance()).epsilon(relative_tolerance));
}

TEST_CASE("Truncated normal moments match numerical integration", "[distributions]") {
  // alpha = -mean / sd from -3 (hardly truncated) to 8 (deep in the tail), where the closed
  // forms involve the inverse Mills ratio and cancel heavily. The midpoint rule misses the
  // upper tail's last cell, about 1e-6 of the mass, hence 1e-4.
  for (double mean : {3.0, 0.0, -2.0, -8.0}) {
    CAPTURE(mean);
    CheckMomentsByIntegration(Distribution::Normal(mean, 1.0, true), 1e-4);
  }
  CheckMomentsByIntegration(ExampleEmpirical(), 1e-6);
  CheckMomentsByIntegration(Distribution::LogNormal(0.0, 0.5), 1e-4);
}

TEST_CASE("LogNormalFromMedianP99 puts the median and p99 where asked", "[distributions]") {
  const Distribution d = Distribution::LogNormalFromMedianP99(0.2, 3.0);
  CHECK(d.Quantile(0.5) == Approx(0.2).epsilon(1e-14));
  CHECK(d.Quantile(0.99) == Approx(3.0).epsilon(1e-14));
  const SampleStats s = Draw(d, 51);
  CHECK(std::fabs(FractionAtMost(s.samples, 3.0) - 0.99) <= kSe * std::sqrt(0.99 * 0.01 / kDraws));
  CHECK(std::fabs(FractionAtMost(s.samples, 0.2) - 0.5) <= kSe * std::sqrt(0.25 / kDraws));
  // Same as LogNormal(ln 0.2, ln 15 / z_0.99).
  const Distribution same =
      Distribution::LogNormal(std::log(0.2), std::log(15.0) / kNormalQuantile99);
  CHECK(d.Mean() == Approx(same.Mean()).epsilon(1e-14));
  CHECK(d.Variance() == Approx(same.Variance()).epsilon(1e-13));
}

TEST_CASE("Closed-form quantiles", "[distributions]") {
  CHECK(Distribution::Exponential(2.0).Quantile(0.5) == Approx(2.0 * std::log(2.0)).epsilon(1e-15));
  CHECK(Distribution::Uniform(2.0, 6.0).Quantile(0.25) == 3.0);
  CHECK(Distribution::Normal(10.0, 2.0, false).Quantile(0.975) ==
        Approx(10.0 + 2.0 * 1.959963984540054).epsilon(1e-15));
  CHECK(Distribution::LogNormal(1.0, 0.5).Quantile(0.5) == Approx(std::exp(1.0)).epsilon(1e-15));
  // The ends of the support.
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(Distribution::Exponential(2.0).Quantile(0.0) == 0.0);
  CHECK(Distribution::Exponential(2.0).Quantile(1.0) == inf);
  CHECK(Distribution::Uniform(2.0, 6.0).Quantile(0.0) == 2.0);
  CHECK(Distribution::Uniform(2.0, 6.0).Quantile(1.0) == 6.0);
  CHECK(Distribution::LogNormal(1.0, 0.5).Quantile(0.0) == 0.0);
  CHECK(Distribution::LogNormal(1.0, 0.5).Quantile(1.0) == inf);
  CHECK(Distribution::Normal(1.0, 1.0, false).Quantile(0.0) == -inf);
  CHECK(Distribution::Normal(1.0, 1.0, true).Quantile(1.0) == inf);
}

TEST_CASE("Quantile is nondecreasing for every kind", "[distributions]") {
  const std::vector<Distribution> all = {
      Distribution::Constant(1.0),
      Distribution::Uniform(-1.0, 1.0),
      Distribution::Exponential(2.0),
      Distribution::LogNormal(0.0, 2.0),
      Distribution::Normal(0.0, 1.0, false),
      Distribution::Normal(-3.0, 1.0, true),
      ExampleEmpirical(),
      Distribution::Empirical({{0.2, 1.0}, {0.4, 1.0}, {0.6, 5.0}, {1.0, 5.0}}),
  };
  for (const Distribution& d : all) {
    CAPTURE(static_cast<int>(d.kind()));
    double previous = d.Quantile(0.0);
    for (int k = 1; k <= 100'000; ++k) {
      const double q = d.Quantile(k / 100'000.0);
      REQUIRE(q >= previous);
      previous = q;
    }
  }
}

TEST_CASE("Factories refuse invalid parameters", "[distributions][death]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(DiesOfFailedCheck([] { Distribution::Exponential(0.0); }));
  CHECK(DiesOfFailedCheck([] { Distribution::Exponential(-1.0); }));
  CHECK(DiesOfFailedCheck([nan] { Distribution::Exponential(nan); }));
  CHECK(DiesOfFailedCheck([inf] { Distribution::Constant(inf); }));
  CHECK(DiesOfFailedCheck([] { Distribution::Uniform(2.0, 1.0); }));
  CHECK(DiesOfFailedCheck([] { Distribution::LogNormal(0.0, 0.0); }));
  CHECK(DiesOfFailedCheck([] { Distribution::LogNormal(0.0, 10.5); }));
  CHECK(DiesOfFailedCheck([] { Distribution::LogNormal(101.0, 1.0); }));
  CHECK(DiesOfFailedCheck([] { Distribution::LogNormalFromMedianP99(10.0, 5.0); }));
  CHECK(DiesOfFailedCheck([] { Distribution::LogNormalFromMedianP99(0.0, 5.0); }));
  CHECK(DiesOfFailedCheck([] { Distribution::Normal(1.0, 0.0, false); }));
  CHECK(DiesOfFailedCheck([] { Distribution::Normal(-10.5, 1.0, true); }));
  CHECK(DiesOfFailedCheck([] { Distribution::Empirical({}); }));
  CHECK(DiesOfFailedCheck([] { Distribution::Empirical({{0.5, 1.0}, {0.9, 2.0}}); }));
  CHECK(DiesOfFailedCheck([] { Distribution::Empirical({{0.5, 2.0}, {1.0, 1.0}}); }));
  CHECK(DiesOfFailedCheck([] { Distribution::Empirical({{0.5, 1.0}, {0.5, 2.0}, {1.0, 3.0}}); }));
  CHECK(DiesOfFailedCheck([] { Distribution::Empirical({{-0.1, 1.0}, {1.0, 2.0}}); }));
  CHECK(DiesOfFailedCheck([] { Distribution::Uniform(0.0, 1.0).Quantile(1.5); }));
  // The boundaries themselves are accepted.
  CHECK_FALSE(DiesOfFailedCheck([] { Distribution::Normal(-10.0, 1.0, true); }));
  CHECK_FALSE(DiesOfFailedCheck([] { Distribution::LogNormal(100.0, 10.0); }));
  CHECK_FALSE(DiesOfFailedCheck([] { Distribution::Uniform(1.0, 1.0); }));
  CHECK_FALSE(DiesOfFailedCheck([] { Distribution::Empirical({{1.0, 7.0}}); }));
}

}  // namespace
}  // namespace distributions_test
}  // namespace drainsim::engine
