// Failure windows (experiments/fit_windows.h): a constant failure probability is one window and
// the homogeneity test rejects it about 5% of the time; an incident window of failures is found
// within one bin of its edges, its probability inside its Wilson interval. Trials are made with
// the project's generator.
#include "experiments/fit_windows.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

#include "reports/fit_report.h"
#include "sim/engine/rng.h"

namespace drainsim::experiments {
namespace fit_windows_test {
namespace {

// Attempts at rate_per_s over [0, end_s) (exponential gaps), failing with p_inside in
// [from_s, until_s) and p_outside elsewhere.
std::vector<Trial> Trials(uint64_t seed, double rate_per_s, double end_s, double from_s,
                          double until_s, double p_inside, double p_outside) {
  engine::Rng rng = engine::Rng::FromSeed(seed);
  std::vector<Trial> out;
  for (double t_s = -std::log(rng.NextOpenDouble()) / rate_per_s; t_s < end_s;
       t_s -= std::log(rng.NextOpenDouble()) / rate_per_s) {
    const double p = t_s >= from_s && t_s < until_s ? p_inside : p_outside;
    out.push_back({t_s, rng.NextDouble() < p});
  }
  return out;
}

bool Inside(double value, const Interval95& i) { return i.low <= value && value <= i.high; }

TEST_CASE("fit windows: an incident window is found within one bin", "[fit][windows]") {
  const FailureWindowsFit fit = FitFailureWindows(Trials(3, 20, 600, 200, 400, 0.2, 0), 600);
  INFO("statistic " << fit.homogeneity.statistic << " p " << fit.homogeneity.p_value);
  CHECK(fit.homogeneity.tested);
  CHECK(fit.homogeneity.rejected);
  CHECK(fit.homogeneity.p_value < 1e-12);
  REQUIRE(fit.windows.size() == 3);
  const double bin_s = fit.homogeneity.bin_s;
  CHECK(std::abs(fit.windows[1].from_s - 200) <= bin_s);
  CHECK(std::abs(fit.windows[1].until_s - 400) <= bin_s);
  CHECK(Inside(0.2, fit.windows[1].wilson));
  CHECK(fit.windows[0].failures == 0);
  CHECK(fit.windows[2].failures == 0);
  CHECK(fit.windows[2].until_s == 600);
  // A baseline outside the window: three windows, each probability in its interval.
  const FailureWindowsFit base = FitFailureWindows(Trials(4, 20, 600, 200, 400, 0.3, 0.03), 600);
  REQUIRE(base.windows.size() == 3);
  CHECK(Inside(0.03, base.windows[0].wilson));
  CHECK(Inside(0.3, base.windows[1].wilson));
  CHECK(Inside(0.03, base.windows[2].wilson));
}

TEST_CASE("fit windows: a constant probability is one window, the test rejects about 5%",
          "[fit][windows]") {
  int rejected = 0;
  int split = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const FailureWindowsFit fit = FitFailureWindows(Trials(seed, 10, 300, 0, 0, 0, 0.1), 300);
    REQUIRE(fit.homogeneity.tested);
    rejected += fit.homogeneity.rejected ? 1 : 0;
    split += fit.windows.size() > 1 ? 1 : 0;
  }
  // Binomial(200, 0.05): mean 10, sd 3.1; 2..20 is about +-2.6 sd.
  INFO("rejected " << rejected << " of 200, split " << split);
  CHECK(rejected >= 2);
  CHECK(rejected <= 20);
  CHECK(split <= 10);
  // Too few failures to test: one window, untested.
  const FailureWindowsFit few = FitFailureWindows(Trials(1, 1, 100, 0, 0, 0, 0.05), 100);
  CHECK_FALSE(few.homogeneity.tested);
  CHECK(few.windows.size() == 1);
}

TEST_CASE("fit windows: every method fits the loader's 200 bytes, even for absurd numbers",
          "[fit][windows]") {
  FitResult result;
  result.from = "a.json";
  KindFit k;
  k.kind = "job";
  ClassFit c;
  c.error_class = "transient";
  c.in_scenario = true;
  c.trials = 100;
  c.fail_after_ms = {100, 5, Interval95{4, 6}};
  c.homogeneity = {true, 10000, 123456789.125, 1.5e300, 1e-300, true};
  for (int i = 0; i < 16; ++i)
    c.windows.push_back({i * 1e9, (i + 1) * 1e9, 5, 10, 0.5, {0.2, 0.8}});
  k.classes.push_back(c);
  k.dispersion = {true, 10000, 123456789.125, 1e15, 1e19, 0, true};
  for (int i = 0; i < 16; ++i) k.arrivals.push_back({i * 1e9, (i + 1) * 1e9, 5, 1e-9, {0, 1}});
  result.kinds.push_back(k);
  const nlohmann::json fragment = nlohmann::json::parse(reports::FitFragment(result));
  REQUIRE(fragment["faults"].size() == 16);
  REQUIRE(fragment["producers"].size() == 16);
  size_t longest = 0;
  for (const auto& fault : fragment["faults"]) {
    longest = std::max(longest, fault["fitted"]["method"].get<std::string>().size());
  }
  CHECK(longest <= 200);
  CHECK(longest > 150);  // not cut: the windows' method holds absurd numbers whole
  for (const auto& producer : fragment["producers"]) {
    CHECK(producer["poisson"]["fitted"]["method"].get<std::string>().size() <= 200);
  }
}

}  // namespace
}  // namespace fit_windows_test
}  // namespace drainsim::experiments
