// One figure, one value: what two parts of a report both print agrees (docs/METRICS.md).
// The series and the end figures tell one story — the last row of the series is the state the
// report's end figures count, and an alert whose threshold a row crossed has a first time —
// over every shipped scenario and over swarm variants (random faults), so that runs ending
// between two sampling instants, at events_max or early are covered.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "chaos/variant.h"
#include "reports/expectations.h"
#include "sim/model/simulation.h"
#include "tests/chaos/chaos_support.h"

namespace drainsim::chaos {
namespace consistency_test {
namespace {

using testing::LoadShipped;
using testing::LoadTextOrFail;
using testing::PlanOrFail;
using testing::ShippedScenarioNames;

// Every alert a row crossed fired, no later than that row; one that never crossed never fired.
void CheckAlertsSeeTheSeries(const config::Alerts& alerts, const model::Results& r) {
  std::optional<double> age_crossed, depth_crossed, dlq_crossed;
  for (const model::Sample& s : r.series) {
    if (alerts.oldest_age && !age_crossed && s.oldest_age_s > alerts.oldest_age->seconds())
      age_crossed = s.t_s;
    if (alerts.depth && !depth_crossed && s.depth > *alerts.depth) depth_crossed = s.t_s;
    if (alerts.dlq_depth && !dlq_crossed && s.dlq_depth > *alerts.dlq_depth) dlq_crossed = s.t_s;
  }
  CHECK(r.age_alert_first_s == age_crossed);
  CHECK(r.depth_alert_first_s == depth_crossed);
  CHECK(r.dlq_depth_alert_first_s == dlq_crossed);
}

// Count over the run = the series' rates times their intervals, summed: a count made before the
// first row (at t = 0) lands in the first interval, none is dropped or counted twice.
void CheckRatesAddUpToTheTotals(const model::Results& r) {
  struct Column {
    const char* name;
    double model::Sample::*rate;
    int64_t total;
  };
  const Column columns[] = {
      {"first attempts", &model::Sample::first_attempts_per_s, r.first_attempts},
      {"retry attempts", &model::Sample::retry_attempts_per_s, r.attempts - r.first_attempts},
      {"downstream calls", &model::Sample::downstream_calls_per_s, r.downstream_calls},
      {"downstream 429s", &model::Sample::downstream_429s_per_s, r.downstream_429s},
      {"DLQ inflow", &model::Sample::dlq_inflow_per_s, r.dlq_inflow},
      {"DLQ outflow", &model::Sample::dlq_outflow_per_s, r.dlq_outflow},
      {"replays", &model::Sample::drain_rate_per_s, r.replays},
  };
  for (const Column& c : columns) {
    double sum = 0;
    for (size_t i = 1; i < r.series.size(); ++i) {
      sum += r.series[i].*c.rate * (r.series[i].t_s - r.series[i - 1].t_s);
    }
    INFO(c.name);
    CHECK(sum == Approx(static_cast<double>(c.total)).margin(1e-6));
  }
}

void CheckSeriesEndsWithTheRun(const config::Scenario& s, const model::Results& r) {
  REQUIRE_FALSE(r.series.empty());
  const model::Sample& last = r.series.back();
  CHECK(last.t_s == r.ended_at_s);
  CHECK(last.dlq_depth == r.dlq_end);
  CHECK(last.parked == r.parked);
  CHECK(last.depth + last.delayed_depth + last.in_flight ==
        r.not_terminal_end - r.dead_letter_waiting_end);
  for (size_t i = 1; i < r.series.size(); ++i) CHECK(r.series[i - 1].t_s < r.series[i].t_s);
  CheckAlertsSeeTheSeries(s.alerts, r);
  CheckRatesAddUpToTheTotals(r);
}

TEST_CASE("every shipped scenario's series ends with the run's end figures", "[series]") {
  // At most 2M events each (full-vocabulary.json runs 35M): a run stopped at events_max must
  // end its series where it stopped as well.
  for (const std::string& name : ShippedScenarioNames()) {
    INFO(name);
    config::Scenario s = LoadShipped(name);
    s.run.events_max = std::min<int64_t>(s.run.events_max, 2'000'000);
    CheckSeriesEndsWithTheRun(s, model::RunSimulation(s, s.seed));
  }
}

TEST_CASE("swarm variants' series end with the run's end figures", "[series]") {
  // A short safety phase and an event budget keep 50 variants to seconds; runs that stop at
  // events_max, end early or reach until_s all occur among them.
  SwarmParams params;
  params.safety = engine::Duration::Seconds(600);
  for (const char* name : {"monthly-rehearsal.json", "full-vocabulary.json"}) {
    const config::Scenario base = LoadShipped(name);
    const SwarmPlan plan = PlanOrFail(base, params);
    for (uint64_t seed = 1; seed <= 25; ++seed) {
      INFO(name << " swarm seed " << seed);
      config::Scenario variant = MakeVariant(plan, seed);
      variant.run.events_max = std::min<int64_t>(variant.run.events_max, 200000);
      CheckSeriesEndsWithTheRun(variant, model::RunSimulation(variant, variant.seed));
    }
  }
}

// Regression: retry-storm-no-jitter ends at 546.1 s with 2800 in the DLQ, between two 5 s
// samples; the series stopped at 545 s with the DLQ empty, so the DLQ alert never fired and
// `sometimes dlq_depth >= 1` failed.
TEST_CASE("a DLQ filled after the last sampling instant is seen by alerts and properties",
          "[series]") {
  std::string text = testing::ReadShippedText("retry-storm-no-jitter.json");
  testing::SetJson(text, "/alerts/dlq_depth", "0");
  testing::SetJson(text, "/expect", R"([{"sometimes": "dlq_depth", "min": 1}])");
  const config::Scenario s = LoadTextOrFail(text);
  const model::Results r = model::RunSimulation(s, s.seed);
  REQUIRE(r.dlq_end > 0);
  REQUIRE(r.ended_at_s < s.run.until.seconds());
  CHECK(r.series.back().dlq_depth == r.dlq_end);
  CHECK(r.dlq_depth_alert_first_s.has_value());
  const std::vector<reports::Verdict> verdicts = reports::EvaluateExpectations(r, s.expect);
  REQUIRE(verdicts.size() == 1);
  CHECK(verdicts[0].passed);
}

TEST_CASE("a run stopped by events_max ends its series where it stopped", "[series]") {
  std::string text = testing::ReadShippedText("monthly-rehearsal.json");
  testing::SetJson(text, "/run/events_max", "100000");
  const config::Scenario s = LoadTextOrFail(text);
  const model::Results r = model::RunSimulation(s, s.seed);
  REQUIRE(r.events_max_reached);
  CheckSeriesEndsWithTheRun(s, r);
}

// Regression: with one drain, the headline's "live traffic, during drains" and the drains
// table printed 33.4 ms and 33.3 ms for the p99 of the same queries (two histograms of
// different precision).
TEST_CASE("one drain: its live latency and the run's during-drains latency are one figure",
          "[series]") {
  const config::Scenario s = LoadShipped("monthly-rehearsal.json");
  REQUIRE(s.drains.size() == 1);
  const model::Results r = model::RunSimulation(s, s.seed);
  const model::Histogram& drain = r.drains[0].live_latency_us;
  const model::Histogram& during = r.live_latency_during_drains_us;
  REQUIRE(during.count() > 100);
  CHECK(drain.count() == during.count());
  for (double p : {0.5, 0.9, 0.99, 0.999}) {
    INFO("quantile " << p);
    CHECK(drain.Quantile(p) == during.Quantile(p));
  }
}

}  // namespace
}  // namespace consistency_test
}  // namespace drainsim::chaos
