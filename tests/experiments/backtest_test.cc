// `drainsim backtest`'s computation (experiments/backtest.h): the quantiles and the time to empty
// against hand-worked values, the resampling of a run's series, and the whole comparison: a
// replication of the scenario itself lies inside the band, a run of a slower system does not, and
// the result is the same for every --jobs.
#include "experiments/backtest.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "experiments/backtest_compare.h"
#include "reports/backtest_report.h"
#include "sim/model/simulation.h"
#include "sim/scenario/load.h"

namespace drainsim::experiments {
namespace backtest_test {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

config::Scenario Load(const std::string& text) {
  scenario::LoadResult loaded = scenario::LoadScenarioText(text);
  REQUIRE(loaded.scenario);
  return *loaded.scenario;
}

// Ten minutes of Poisson jobs at 40/s on `workers` workers of 25 jobs/s each: with two, a busy
// queue (utilisation 0.8) whose depth wanders; with one, a backlog that grows all the time.
std::string Backlogged(int workers) {
  return R"({"format_version": 1, "name": "busy", "seed": 5, "run": {"until_s": 600},
    "kinds": {"job": {"handler": {"cpu_ms": {"exponential": {"mean": 40}}}}},
    "producers": [{"kind": "job", "poisson": {"rate_per_s": 40}}],
    "workers": {"count": )" +
         std::to_string(workers) + "}}";
}

telemetry::ObservedSeries ObservedOf(const model::Results& results) {
  telemetry::ObservedSeries observed;
  observed.file = "observed.csv";
  for (const model::Sample& s : results.series) {
    observed.figures["depth"].push_back({s.t_s, static_cast<double>(s.depth)});
    observed.figures["oldest_age_s"].push_back({s.t_s, s.oldest_age_s});
  }
  return observed;
}

TEST_CASE("backtest: type-7 quantiles, with never as +infinity", "[backtest]") {
  CHECK(QuantileSorted({1, 2, 3, 4}, 0.5) == 2.5);
  CHECK(QuantileSorted({1, 2, 3, 4}, 0) == 1);
  CHECK(QuantileSorted({1, 2, 3, 4}, 1) == 4);
  CHECK(QuantileSorted({0, 10}, 0.025) == Approx(0.25));
  CHECK(QuantileSorted({1, 2, kInf}, 0.975) == kInf);
  CHECK(QuantileSorted({1, kInf, kInf}, 0.5) == kInf);
  CHECK(QuantileSorted({7}, 0.975) == 7);
}

TEST_CASE("backtest: time to empty after the first peak", "[backtest]") {
  const std::vector<double> t = {0, 10, 20, 30, 40};
  CHECK(TimeToEmpty(t, {0, 0, 0, 0, 0}) == 0);  // nothing to empty
  CHECK(TimeToEmpty(t, {0, 5, 9, 2, 0}) == 40);
  CHECK(TimeToEmpty(t, {0, 5, 0, 9, 1}) == kInf);  // the first peak is the largest: 9 at 30
  CHECK(TimeToEmpty(t, {3, 0, 0, 0, 0}) == 10);
}

TEST_CASE("backtest: a run's series read at other instants", "[backtest]") {
  model::Results results;
  results.reached_until = true;
  model::Sample a;
  a.t_s = 0;
  a.depth = 10;
  model::Sample b = a;
  b.t_s = 10;
  b.depth = 20;
  results.series = {a, b};
  const std::vector<double> v = ResampleRun(results, "depth", {0, 2.5, 10, 11});
  CHECK(v[0] == 10);
  CHECK(v[1] == 12.5);
  CHECK(v[2] == 20);
  CHECK(std::isnan(v[3]));        // after until_s: unknown
  results.reached_until = false;  // ended at rest: the end state holds
  CHECK(ResampleRun(results, "depth", {11})[0] == 20);
}

TEST_CASE("backtest: the scenario's own run passes, a slower system misses", "[backtest]") {
  const config::Scenario scenario = Load(Backlogged(2));
  const model::Results own = model::RunSimulation(scenario, 99);
  const auto same = RunBacktest(scenario, ObservedOf(own), 5, 30, {}, {});
  REQUIRE(same.ok());
  REQUIRE(same->series.size() == 2);
  for (const SeriesComparison& s : same->series) {
    INFO(s.name << " share " << s.share_in_band);
    CHECK(s.share_in_band >= 0.8);
    CHECK(s.points_beyond_run == 0);
  }
  CHECK(same->passed);

  // One worker for the same arrivals: the queue builds far beyond the band.
  const model::Results slow = model::RunSimulation(Load(Backlogged(1)), 99);
  const auto missed = RunBacktest(scenario, ObservedOf(slow), 5, 30, {}, {});
  REQUIRE(missed.ok());
  CHECK_FALSE(missed->passed);
  CHECK(missed->series[0].share_in_band < 0.5);
}

TEST_CASE("backtest: the same result for every --jobs", "[backtest]") {
  const config::Scenario scenario = Load(Backlogged(2));
  const auto observed = ObservedOf(model::RunSimulation(scenario, 3));
  RunnerOptions one;
  RunnerOptions two;
  two.jobs = 2;
  const auto a = RunBacktest(scenario, observed, 11, 12, {}, one);
  const auto b = RunBacktest(scenario, observed, 11, 12, {}, two);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(reports::BacktestJson(*a) == reports::BacktestJson(*b));
  CHECK(reports::BacktestMarkdown(*a) == reports::BacktestMarkdown(*b));
}

TEST_CASE("backtest: nothing to compare is bad input", "[backtest]") {
  const config::Scenario scenario = Load(Backlogged(2));
  telemetry::ObservedSeries inflow_only;
  inflow_only.file = "obs.csv";
  inflow_only.figures["inflow_per_s"] = {{0, 20}};
  const auto none = RunBacktest(scenario, inflow_only, 1, 3, {}, {});
  REQUIRE_FALSE(none.ok());
  CHECK_THAT(none.error(), Catch::Matchers::Contains("obs.csv: no figure to compare"));
  telemetry::ObservedSeries late;
  late.file = "late.csv";
  late.figures["depth"] = {{5000, 1}};
  const auto after = RunBacktest(scenario, late, 1, 3, {}, {});
  REQUIRE_FALSE(after.ok());
  CHECK_THAT(after.error(), Catch::Matchers::Contains("no observed point lies inside"));
}

}  // namespace
}  // namespace backtest_test
}  // namespace drainsim::experiments
