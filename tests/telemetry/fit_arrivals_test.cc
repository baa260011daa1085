// The arrival rate chosen from the data (experiments/fit_arrivals.h): a constant Poisson rate is
// kept, and the dispersion test rejects it about 5% of the time; a rate step is found as two
// segments near the step, each rate inside its Garwood interval.
#include "experiments/fit_arrivals.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "sim/engine/rng.h"

namespace drainsim::experiments {
namespace fit_arrivals_test {
namespace {

// Poisson arrivals at rate_per_s over [from_s, until_s), appended: exponential gaps.
void AddPoisson(engine::Rng& rng, double rate_per_s, double from_s, double until_s,
                std::vector<double>* out) {
  for (double t_s = from_s - std::log(rng.NextOpenDouble()) / rate_per_s; t_s < until_s;
       t_s -= std::log(rng.NextOpenDouble()) / rate_per_s) {
    out->push_back(t_s);
  }
}

bool Inside(double value, const Interval95& i) { return i.low <= value && value <= i.high; }

TEST_CASE("fit arrivals: a constant Poisson rate is one segment", "[fit][arrivals]") {
  engine::Rng rng = engine::Rng::FromSeed(1);
  std::vector<double> arrivals_s;
  AddPoisson(rng, 20, 0, 1000, &arrivals_s);
  const ArrivalRateFit fit = FitArrivalRate(arrivals_s, 1000);
  INFO("p " << fit.dispersion.p_value << " index " << fit.dispersion.index);
  CHECK(fit.dispersion.tested);
  CHECK(fit.dispersion.bins == static_cast<int64_t>(arrivals_s.size() / 5));
  CHECK_FALSE(fit.dispersion.rejected);
  CHECK(fit.dispersion.index == Approx(1).margin(0.1));
  REQUIRE(fit.segments.size() == 1);
  CHECK(fit.segments[0].from_s == 0);
  CHECK(fit.segments[0].until_s == 1000);
  CHECK(Inside(20, fit.segments[0].poisson));
}

TEST_CASE("fit arrivals: the dispersion test rejects a constant rate about 5% of the time",
          "[fit][arrivals]") {
  // 400 data sets: the rejections are Binomial(400, 0.05) for a test at its level, mean 20, sd
  // 4.4; 10..32 is about +-2.5 sd. Each data set's segments must still be one in most cases:
  // the change-point test (Bonferroni) is stricter than the dispersion test.
  int rejected = 0;
  int split = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    engine::Rng rng = engine::Rng::FromSeed(seed);
    std::vector<double> arrivals_s;
    AddPoisson(rng, 10, 0, 300, &arrivals_s);
    const ArrivalRateFit fit = FitArrivalRate(arrivals_s, 300);
    rejected += fit.dispersion.rejected ? 1 : 0;
    split += fit.segments.size() > 1 ? 1 : 0;
  }
  INFO("rejected " << rejected << " of 400, split " << split);
  CHECK(rejected >= 10);
  CHECK(rejected <= 32);
  CHECK(split <= rejected);
  CHECK(split <= 20);  // at most 5%: a constant rate is seldom cut
}

TEST_CASE("fit arrivals: evenly spaced arrivals are regular, Poisson ones almost never",
          "[fit][arrivals]") {
  // A producer at a fixed pace (drainsim's constant schedule, a cron loop): 100/s for 60 s.
  std::vector<double> even_s;
  for (int i = 0; i < 6000; ++i) even_s.push_back(i * 0.01);
  const ArrivalRateFit even = FitArrivalRate(even_s, 60);
  INFO("index " << even.dispersion.index << " lower p " << even.dispersion.p_value_low);
  CHECK(even.dispersion.regular);
  CHECK_FALSE(even.dispersion.rejected);
  CHECK(even.dispersion.index < 0.1);
  REQUIRE(even.segments.size() == 1);
  CHECK(even.segments[0].rate_per_s == Approx(100));
  // 400 Poisson data sets at the rule's level of 0.1%: Binomial(400, 0.001), mean 0.4; at most 3
  // is 99.9% likely for a test at its level.
  int regular = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    engine::Rng rng = engine::Rng::FromSeed(seed);
    std::vector<double> arrivals_s;
    AddPoisson(rng, 10, 0, 300, &arrivals_s);
    regular += FitArrivalRate(arrivals_s, 300).dispersion.regular ? 1 : 0;
  }
  INFO("Poisson data sets called regular: " << regular << " of 400");
  CHECK(regular <= 3);
  // Few arrivals: two equal bins are no evidence (10 arrivals, 5 and 5).
  const std::vector<double> few_s = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  CHECK_FALSE(FitArrivalRate(few_s, 10).dispersion.regular);
  // A series' counts are averages: however smooth, never regular (rule (5)).
  const ArrivalRateFit series = FitArrivalCounts(std::vector<int64_t>(100, 50), 1);
  CHECK(series.dispersion.p_value_low < 0.001);
  CHECK_FALSE(series.dispersion.regular);
}

TEST_CASE("fit arrivals: a rate step is two segments split near the step", "[fit][arrivals]") {
  engine::Rng rng = engine::Rng::FromSeed(5);
  std::vector<double> arrivals_s;
  AddPoisson(rng, 10, 0, 300, &arrivals_s);
  AddPoisson(rng, 40, 300, 600, &arrivals_s);
  const ArrivalRateFit fit = FitArrivalRate(arrivals_s, 600);
  INFO("p " << fit.dispersion.p_value << " index " << fit.dispersion.index);
  CHECK(fit.dispersion.rejected);
  CHECK(fit.dispersion.p_value < 1e-6);
  REQUIRE(fit.segments.size() == 2);
  // Tolerance: 2 s, eight bins of 0.24 s (15,000 arrivals, 3000 bins): a step from 10/s to
  // 40/s is placed within a few arrivals of the first rate.
  CHECK(std::abs(fit.segments[0].until_s - 300) <= 2);
  CHECK(fit.segments[1].from_s == fit.segments[0].until_s);
  CHECK(fit.segments[1].until_s == 600);
  CHECK(Inside(10, fit.segments[0].poisson));
  CHECK(Inside(40, fit.segments[1].poisson));
}

TEST_CASE("fit arrivals: three rates are three segments, each inside its interval",
          "[fit][arrivals]") {
  engine::Rng rng = engine::Rng::FromSeed(9);
  std::vector<double> arrivals_s;
  AddPoisson(rng, 20, 0, 200, &arrivals_s);
  AddPoisson(rng, 5, 200, 500, &arrivals_s);
  AddPoisson(rng, 30, 500, 700, &arrivals_s);
  const ArrivalRateFit fit = FitArrivalRate(arrivals_s, 700);
  REQUIRE(fit.segments.size() == 3);
  CHECK(std::abs(fit.segments[0].until_s - 200) <= 3);
  CHECK(std::abs(fit.segments[1].until_s - 500) <= 3);
  CHECK(Inside(20, fit.segments[0].poisson));
  CHECK(Inside(5, fit.segments[1].poisson));
  CHECK(Inside(30, fit.segments[2].poisson));
}

}  // namespace
}  // namespace fit_arrivals_test
}  // namespace drainsim::experiments
