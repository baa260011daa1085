// Live traffic without a broker or database (live/live_traffic.h): the generator's arrivals are
// the model's (deterministic, Poisson at the rate, query_ms drawn), the summary's window and
// counts, and the side-by-side's live_errors / live_p50_ms / live_p99_ms rows.
#include "live/live_traffic.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "live/side_by_side.h"
#include "live/side_by_side_report.h"
#include "sim/model/simulation.h"
#include "sim/scenario/load.h"

namespace live_traffic_test {
namespace {

using drainsim::live::LiveArrival;
using drainsim::live::LiveArrivals;
using drainsim::live::LiveOutcome;
using drainsim::live::Verdict;

drainsim::config::Scenario Load(const std::string& name) {
  auto loaded =
      drainsim::scenario::LoadScenarioFile(std::string(DRAINSIM_SOURCE_DIR) + "/scenarios/" + name);
  REQUIRE(loaded.ok());
  return *loaded.scenario;
}

std::vector<LiveArrival> All(const drainsim::config::Scenario& s, uint64_t seed, int64_t until_us) {
  LiveArrivals arrivals(*s.database->live_traffic, seed);
  std::vector<LiveArrival> all;
  while (auto a = arrivals.Next(until_us)) all.push_back(*a);
  return all;
}

const drainsim::live::Comparison& Row(const std::vector<drainsim::live::Comparison>& rows,
                                      const std::string& name) {
  for (const auto& c : rows) {
    if (c.name == name) return c;
  }
  FAIL("no row " << name);
  return rows.front();
}

}  // namespace

TEST_CASE("live traffic: the arrivals are deterministic, Poisson at the rate, from time 0",
          "[live]") {
  const auto s = Load("live-traffic.json");  // 100/s, query_ms exponential mean 4
  const int64_t until_us = 600'000'000;      // 600 s: 60,000 arrivals expected
  const auto a = All(s, 21, until_us);
  CHECK(a == All(s, 21, until_us));
  const auto b = All(s, 22, until_us);
  CHECK_FALSE((a.size() == b.size() && a.front().query_us == b.front().query_us &&
               a.back().at_us == b.back().at_us));
  REQUIRE(!a.empty());
  CHECK(a.front().at_us == 0);  // the model's first live query is at time 0
  // Poisson count over 600 s: mean 60,000, sd 245; 5 sd either way.
  CHECK(std::abs(static_cast<double>(a.size()) - 60'000) < 5 * 245);
  double query_sum_us = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].at_us < until_us);
    if (i > 0) CHECK(a[i].at_us >= a[i - 1].at_us);
    query_sum_us += static_cast<double>(a[i].query_us);
  }
  // Exponential 4 ms: the mean of 60,000 draws within 5 standard errors (4 ms / sqrt(60,000)).
  CHECK(std::abs(query_sum_us / static_cast<double>(a.size()) - 4000) < 5 * 4000 / 245.0);
  // A shorter horizon is a prefix: Next stops before until_us.
  const auto head = All(s, 21, 1'000'000);
  REQUIRE(head.size() < a.size());
  CHECK(std::equal(head.begin(), head.end(), a.begin()));
  CHECK(a[head.size()].at_us >= 1'000'000);
}

TEST_CASE("live traffic: the arrivals are the simulation's live queries of the same seed",
          "[live]") {
  // Without workers' messages the simulated run stops at once; with the scenario's orders it
  // runs to the last settle, and issues exactly the arrivals before its end.
  const auto s = Load("live-traffic.json");
  const auto results = drainsim::model::RunSimulation(s, 21);
  const auto end_us = static_cast<int64_t>(std::llround(results.ended_at_s * 1e6));
  const auto issued = All(s, 21, end_us + 1);
  // Every arrival up to the end is issued; the few still waiting or running at the end never
  // complete in the simulation.
  REQUIRE(issued.size() > 500);  // about 100/s for 6 s
  CHECK(results.live_queries <= static_cast<int64_t>(issued.size()));
  CHECK(results.live_queries >= static_cast<int64_t>(issued.size()) - 10);
}

TEST_CASE("live traffic: the summary keeps the queries completed by the last settle", "[live]") {
  drainsim::live::LiveTrafficRun run;
  for (int i = 0; i < 100; ++i) {  // latencies 1..100 ms, completing at 0.01 s .. 1.00 s
    run.queries.push_back({(i + 1) * 9'000, (i + 1) * 10'000, LiveOutcome::kOk});
  }
  for (auto& q : run.queries) {  // issued 1 ms late, a connection 2 ms later, 0.5 ms overhead
    q.issued_us = q.arrival_us + 1000;
    q.acquired_us = q.issued_us + 2000;
    q.query_us = q.done_us - q.acquired_us - 500;
  }
  run.queries[98].outcome = LiveOutcome::kTimeout;
  run.queries.push_back({500'000, 500'000, LiveOutcome::kShed});
  run.queries.push_back({2'000'000, 2'500'000, LiveOutcome::kRefused});  // after the window
  const auto f = drainsim::live::SummariseLiveTraffic(run, 1.0);
  CHECK(f.present);
  CHECK(f.issued == 102);
  CHECK(f.queries == 101);  // the refused one completed after 1.0 s
  CHECK(f.timeouts == 1);
  CHECK(f.shed == 1);
  CHECK(f.refusals == 0);
  CHECK(f.errors == 2);
  REQUIRE(f.p50_ms);
  REQUIRE(f.p99_ms);
  CHECK(*f.p50_ms == Approx(50).epsilon(0.01));  // latencies 1..100 ms; the shed one has none
  CHECK(*f.p99_ms == Approx(99).epsilon(0.01));
  CHECK(*f.issue_lag_p99_ms == Approx(1));
  CHECK(*f.pool_wait_p50_ms == Approx(2));
  CHECK(*f.overhead_p99_ms == Approx(0.5));
  const auto all = drainsim::live::SummariseLiveTraffic(run, std::nullopt);
  CHECK(all.queries == 102);
  CHECK(all.refusals == 1);
  CHECK(*all.max_ms == Approx(500).epsilon(0.01));
}

TEST_CASE("live traffic: the side-by-side compares live_errors, live_p50_ms and live_p99_ms",
          "[live]") {
  const auto s = Load("live-traffic.json");
  const auto sim = drainsim::live::RunSimulatedSide(s, s.seed, 6, 2);
  drainsim::live::LiveResult live;
  live.published = 600;
  live.acked = 600;
  live.attempts = 600;
  live.live_traffic.present = true;
  drainsim::live::SideBySideOptions options;
  CHECK(options.latency_tolerance_ms == 1.0);

  // Each row compared, the latencies with the latency tolerance.
  const auto names = drainsim::live::ComparedFigures(s);
  std::vector<double> mean(names.size());
  for (size_t f = 0; f < names.size(); ++f) {
    double sum = 0;
    for (const auto& v : sim.values[f]) sum += v.value_or(0);
    mean[f] = sum / static_cast<double>(sim.values[f].size());
    if (names[f] == "live_p50_ms") live.live_traffic.p50_ms = mean[f];
    if (names[f] == "live_p99_ms") live.live_traffic.p99_ms = mean[f];
    if (names[f] == "live_errors") live.live_traffic.errors = static_cast<int64_t>(mean[f]);
  }
  auto rows = drainsim::live::CompareSides(s, live, sim, options);
  CHECK(Row(rows, "live_p50_ms").verdict == Verdict::kInside);
  CHECK(Row(rows, "live_p99_ms").verdict == Verdict::kInside);
  CHECK(Row(rows, "live_p99_ms").tolerance == 1.0);
  CHECK(Row(rows, "live_errors").verdict == Verdict::kInside);
  CHECK(Row(rows, "live_errors").tolerance == 0);

  // A live p99 far above the interval is outside, and fails the run.
  REQUIRE(Row(rows, "live_p99_ms").interval);
  live.live_traffic.p99_ms = Row(rows, "live_p99_ms").interval->high + 1.5;
  rows = drainsim::live::CompareSides(s, live, sim, options);
  CHECK(Row(rows, "live_p99_ms").verdict == Verdict::kOutside);
  CHECK(drainsim::live::ComparisonExitCode(rows) == 1);
  live.live_traffic.pool_wait_p99_ms = 5.25;
  drainsim::live::SideBySideRun run;
  run.scenario_name = s.name;
  run.scenario_path = "scenarios/live-traffic.json";
  run.seed = s.seed;
  run.live = &live;
  run.simulated = &sim;
  run.rows = rows;
  run.exit_code = 1;
  const std::string md = drainsim::live::SideBySideMarkdown(run);
  CHECK(md.find("- live_p99_ms: live ") != std::string::npos);
  CHECK(md.find("where the live latency went: issue lag") != std::string::npos);
  CHECK(md.find("wait for a pool connection p50 - , p99 5.250 ms") == std::string::npos);
  CHECK(md.find("wait for a pool connection p50 -, p99 5.250 ms") != std::string::npos);
  // Within the tolerance of the interval's edge it is inside.
  live.live_traffic.p99_ms = Row(rows, "live_p99_ms").interval->high + 0.9;
  rows = drainsim::live::CompareSides(s, live, sim, options);
  CHECK(Row(rows, "live_p99_ms").verdict == Verdict::kInside);
  // No live query measured: "never" against replications that measured one is outside.
  live.live_traffic.p50_ms.reset();
  rows = drainsim::live::CompareSides(s, live, sim, options);
  CHECK(Row(rows, "live_p50_ms").verdict == Verdict::kOutside);

  // Without live traffic the two quantiles stay rows "not compared", with the reason.
  const auto poison = Load("live-poison.json");
  const auto poison_sim = drainsim::live::RunSimulatedSide(poison, poison.seed, 2, 1);
  rows = drainsim::live::CompareSides(poison, drainsim::live::LiveResult{}, poison_sim, options);
  CHECK(Row(rows, "live_p99_ms").verdict == Verdict::kNotCompared);
  CHECK(Row(rows, "live_p99_ms").note == "the scenario has no live traffic");
}

TEST_CASE("live traffic: only a wait of a millisecond or more lowers the statement timeout",
          "[live]") {
  using drainsim::live::LoweredTimeoutMs;
  // Regression: every query used to lower it (and pay a SET round trip before its pg_sleep,
  // inside its measured latency), since any microsecond of wait made the whole milliseconds
  // left one fewer than timeout_ms.
  CHECK_FALSE(LoweredTimeoutMs(1000, 0).has_value());
  CHECK_FALSE(LoweredTimeoutMs(1000, 135).has_value());
  CHECK_FALSE(LoweredTimeoutMs(1000, 999).has_value());
  CHECK(LoweredTimeoutMs(1000, 1000) == 999);
  CHECK(LoweredTimeoutMs(1000, 250'400) == 750);
  CHECK(LoweredTimeoutMs(1000, 999'999) == 1);
  CHECK(LoweredTimeoutMs(1000, 1'000'000) == 0);  // timed out
}

}  // namespace live_traffic_test
