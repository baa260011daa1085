// The side-by-side of `drainsim live --replications N` without a broker: the prediction
// interval, the exact comparison of figures constant over the replications, the tolerance of
// wall times, "never", the verdict and exit code, the simulated side and the reports.
#include "live/side_by_side.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/results/statistics.h"
#include "live/comparison.h"
#include "live/live_series.h"
#include "live/side_by_side_html.h"
#include "live/side_by_side_report.h"
#include "live/where_time_went.h"
#include "sim/scenario/load.h"

namespace side_by_side_test {
namespace {

using drainsim::live::Compare;
using drainsim::live::Comparison;
using drainsim::live::Verdict;
using Values = std::vector<std::optional<double>>;

drainsim::config::Scenario Load(const std::string& name) {
  auto loaded =
      drainsim::scenario::LoadScenarioFile(std::string(DRAINSIM_SOURCE_DIR) + "/scenarios/" + name);
  REQUIRE(loaded.ok());
  return *loaded.scenario;
}

// The poison scenario's live counts as a clean run gives them.
drainsim::live::LiveResult PoisonLive() {
  drainsim::live::LiveResult l;
  l.published = 2000;
  l.acked = 1990;
  l.attempts = 2050;
  l.dead_lettered = 10;
  l.time_to_empty_s = 10.05;
  return l;
}

}  // namespace

TEST_CASE("side by side: the 95% prediction interval is mean +- t(0.975, n-1) sd sqrt(1+1/n)",
          "[live]") {
  // Values 1..30: mean 15.5, sd sqrt(77.5); t(0.975, 29) = 2.045229642 (standard tables).
  Values values;
  for (int i = 1; i <= 30; ++i) values.push_back(i);
  const auto s = drainsim::experiments::Describe(values, 0.95);
  const auto interval = drainsim::live::PredictionInterval(s, 0.95);
  const double half = 2.045229642 * std::sqrt(77.5) * std::sqrt(1 + 1.0 / 30);
  CHECK(interval.low == Approx(15.5 - half).epsilon(1e-8));
  CHECK(interval.high == Approx(15.5 + half).epsilon(1e-8));
  // Wider than the confidence interval of the mean by sqrt(n + 1): a new observation, not the mean.
  CHECK((interval.high - interval.low) / (s.ci_high - s.ci_low) == Approx(std::sqrt(31.0)));
}

TEST_CASE("side by side: a figure constant over the replications is compared exactly", "[live]") {
  const Values ten(30, 10.0);
  const Comparison same = Compare("human_needed", "messages", 10.0, ten, 0);
  CHECK(same.exact);
  CHECK(same.verdict == Verdict::kInside);
  const Comparison one_more = Compare("human_needed", "messages", 11.0, ten, 0);
  CHECK(one_more.exact);
  CHECK(one_more.verdict == Verdict::kOutside);
  CHECK(drainsim::live::Gap(one_more) == Approx(1.0));
  CHECK(Compare("lost", "messages", 0.0, Values(30, 0.0), 0).verdict == Verdict::kInside);
  CHECK(Compare("lost", "messages", 1.0, Values(30, 0.0), 0).verdict == Verdict::kOutside);
}

TEST_CASE("side by side: the tolerance widens a wall time's interval, and only by that much",
          "[live]") {
  const Values ten(30, 10.0);
  CHECK(Compare("main_queue_settled_s", "s", 10.09, ten, 0.1).verdict == Verdict::kInside);
  CHECK(Compare("main_queue_settled_s", "s", 9.91, ten, 0.1).verdict == Verdict::kInside);
  const Comparison late = Compare("main_queue_settled_s", "s", 10.25, ten, 0.1);
  CHECK(late.verdict == Verdict::kOutside);
  CHECK(drainsim::live::Gap(late) == Approx(0.15));
  const Comparison early = Compare("main_queue_settled_s", "s", 9.7, ten, 0.1);
  CHECK(drainsim::live::Gap(early) == Approx(-0.2));
}

TEST_CASE("side by side: a spread figure is inside iff within the prediction interval", "[live]") {
  Values values;
  for (int i = 1; i <= 30; ++i) values.push_back(i);
  const Comparison middle = Compare("duplicate_executions", "executions", 15.0, values, 0);
  REQUIRE(middle.interval);
  CHECK_FALSE(middle.exact);
  CHECK(middle.verdict == Verdict::kInside);
  // Beyond the largest replication but inside the interval: a new observation may be.
  CHECK(Compare("x", "u", 31.0, values, 0).verdict == Verdict::kInside);
  CHECK(Compare("x", "u", middle.interval->high + 0.01, values, 0).verdict == Verdict::kOutside);
  CHECK(Compare("x", "u", middle.interval->low - 0.01, values, 0).verdict == Verdict::kOutside);
}

TEST_CASE("side by side: a count's interval is the integers the continuity correction admits",
          "[live]") {
  // Values 1..30: the prediction interval is [-2.80, 33.80] (15.5 -+ 18.30).
  Values values;
  for (int i = 1; i <= 30; ++i) values.push_back(i);
  const Comparison continuous = Compare("x", "u", 34.0, values, 0);
  REQUIRE(continuous.interval);
  CHECK(continuous.interval->low == 0);  // contract (6): no negative count or time
  CHECK(continuous.interval->high == Approx(33.80).margin(0.01));
  CHECK(continuous.verdict == Verdict::kOutside);
  // 34 stands for [33.5, 34.5], which meets [-2.80, 33.80]: inside as a count; 35 is not.
  const Comparison count = drainsim::live::CompareCount("x", "messages", 34.0, values);
  REQUIRE(count.interval);
  CHECK(count.interval->low == 0);
  CHECK(count.interval->high == 34);
  CHECK(count.verdict == Verdict::kInside);
  CHECK(count.tolerance == 0);
  CHECK(drainsim::live::CompareCount("x", "messages", 35.0, values).verdict == Verdict::kOutside);
  // A replication gave 5, yet 5 is below the interval [5.19, 8.81] of these 30 (5 once, 6 seven
  // times, 7 fourteen, 8 seven, 9 once); as a count it is inside. Exact comparisons stay exact.
  Values near{5.0, 9.0};
  near.insert(near.end(), 7, 6.0);
  near.insert(near.end(), 14, 7.0);
  near.insert(near.end(), 7, 8.0);
  const Comparison edge = drainsim::live::CompareCount("x", "messages", 5.0, near);
  REQUIRE(edge.interval);
  CHECK(Compare("x", "messages", 5.0, near, 0).verdict == Verdict::kOutside);
  CHECK(edge.interval->low == 5);
  CHECK(edge.verdict == Verdict::kInside);
  CHECK(drainsim::live::CompareCount("x", "messages", 10.0, Values(30, 10.0)).exact);
  CHECK(drainsim::live::CompareCount("x", "messages", 11.0, Values(30, 10.0)).verdict ==
        Verdict::kOutside);
}

TEST_CASE("side by side: never against never agrees, never against a value does not", "[live]") {
  const Values never(30, std::nullopt);
  const Comparison both = Compare("main_queue_settled_s", "s", std::nullopt, never, 0.1);
  CHECK(both.verdict == Verdict::kInside);
  CHECK(both.note == "both never");
  CHECK(Compare("t", "s", 10.0, never, 0.1).verdict == Verdict::kOutside);
  CHECK(Compare("t", "s", std::nullopt, Values(30, 10.0), 0.1).verdict == Verdict::kOutside);
  Values mixed(30, 10.0);
  mixed[3] = std::nullopt;
  const Comparison some = Compare("t", "s", 10.0, mixed, 0.1);
  CHECK(some.verdict == Verdict::kInside);
  CHECK(some.note == "1 of 30 replications never reached it");
  CHECK_FALSE(some.exact);  // not every replication had the value
}

TEST_CASE("side by side: any figure outside is exit 1, rows not compared never fail", "[live]") {
  std::vector<Comparison> rows = {Compare("lost", "messages", 0.0, Values(5, 0.0), 0),
                                  drainsim::live::NotCompared("live_p99_ms", "ms", "why")};
  CHECK(drainsim::live::ComparisonExitCode(rows) == 0);
  rows.push_back(Compare("parked", "messages", 2.0, Values(5, 0.0), 0));
  CHECK(drainsim::live::ComparisonExitCode(rows) == 1);
}

TEST_CASE("side by side: the simulated main_queue_settled_s needs an empty main queue at the end",
          "[live]") {
  drainsim::model::Results r;
  CHECK(drainsim::live::SimulatedSettled(r, 9.5) == 9.5);
  r.not_terminal_end = 1;
  CHECK_FALSE(drainsim::live::SimulatedSettled(r, 9.5));
}

TEST_CASE("side by side: the poison scenario's simulated side, and its verdict on a clean run",
          "[live]") {
  const auto s = Load("live-poison.json");
  const auto one = drainsim::live::RunSimulatedSide(s, s.seed, 4, 1);
  const auto two = drainsim::live::RunSimulatedSide(s, s.seed, 4, 2);
  CHECK(one.values == two.values);  // identical for any --jobs
  const std::vector<std::string> names = drainsim::live::ComparedFigures(s);
  REQUIRE(one.names == names);
  auto column = [&](const std::string& name) {
    for (size_t f = 0; f < names.size(); ++f) {
      if (names[f] == name) return one.values[f];
    }
    FAIL("no figure " << name);
    return Values{};
  };
  CHECK(column("human_needed") == Values(4, 10.0));
  CHECK(column("attempts") == Values(4, 2050.0));
  // The last message is published at 9.995 s and acked 5 ms later, whatever the seed.
  CHECK(column("main_queue_settled_s") == Values(4, 10.0));

  drainsim::live::SideBySideOptions options;
  drainsim::live::LiveResult live = PoisonLive();
  auto rows = drainsim::live::CompareSides(s, live, one, options);
  CHECK(drainsim::live::ComparisonExitCode(rows) == 0);
  live.dead_lettered = 9;
  live.parked = 1;  // human_needed still 10, but dlq_end and parked differ
  rows = drainsim::live::CompareSides(s, live, one, options);
  CHECK(drainsim::live::ComparisonExitCode(rows) == 1);
  int outside = 0;
  for (const Comparison& c : rows) outside += c.verdict == Verdict::kOutside;
  CHECK(outside == 2);

  drainsim::live::SideBySideRun run;
  run.scenario_name = s.name;
  run.scenario_path = "scenarios/live-poison.json";
  run.seed = s.seed;
  run.live = &live;
  run.simulated = &one;
  run.rows = rows;
  run.exit_code = 1;
  const auto j = nlohmann::json::parse(drainsim::live::SideBySideJson(run));
  CHECK(j["live"]["dlq_end"] == 9);
  CHECK(j["simulated"]["figures"]["dlq_end"]["mean"] == 10);
  CHECK(j["simulated"]["replications"] == 4);
  CHECK(j["verdict"] == "disagree");
  CHECK(j["comparison"][3]["metric"] == "dlq_end");
  CHECK(j["comparison"][3]["verdict"] == "outside");
  CHECK(j["comparison"][3]["gap"] == -1);
  const std::string md = drainsim::live::SideBySideMarkdown(run);
  CHECK(md.find("- dlq_end: live 9, simulated mean 10 exactly 10; the live value is 1 messages "
                "below the interval") != std::string::npos);
}

TEST_CASE("side by side: where the live time went, read back from live-events.jsonl", "[live]") {
  drainsim::live::Plan plan;
  for (int id = 0; id < 3; ++id) {
    drainsim::live::PlannedMessage m;
    m.id = static_cast<uint64_t>(id);
    m.publish_at_s = 0.005 * id;
    plan.messages.push_back(m);
  }
  const std::string path = std::string(DRAINSIM_BINARY_DIR) + "/where_time_went_test.jsonl";
  {
    std::ofstream out(path);
    out << R"({"t_s":0.001,"event":"publish","id":0})"
        << "\n"
        << R"({"t_s":0.007,"event":"publish","id":1})"
        << "\n"
        << R"({"t_s":0.011,"event":"delivery","id":0,"worker":0,"attempt":1})"
        << "\n"
        << "not json\n"
        << R"({"t_s":0.040,"event":"publish","id":2})"
        << "\n"
        << R"({"t_s":0.047,"event":"delivery","id":1,"worker":1,"attempt":1})"
        << "\n"
        << R"({"t_s":0.050,"event":"delivery","id":0,"worker":0,"attempt":2})"
        << "\n"
        << R"({"t_s":0.060,"event":"delivery","id":2,"worker":0,"attempt":1})"
        << "\n";
  }
  const auto w = drainsim::live::ReadWhereTimeWent(path, plan);
  REQUIRE(w.ok);
  CHECK(w.published == 3);
  CHECK(w.bad_lines == 1);
  CHECK(w.last_publish_lag_s == Approx(0.030));  // published at 0.040, planned at 0.010
  CHECK(w.publish_lag_max_s == Approx(0.030));
  CHECK(w.delivered == 3);
  // First deliveries only: 10, 40 and 20 ms after their publishes (id 0's redelivery ignored).
  CHECK(w.first_delivery_p50_ms == Approx(20));
  CHECK(w.first_delivery_p99_ms == Approx(40));
  CHECK(w.first_delivery_max_ms == Approx(40));
  CHECK(drainsim::live::WhereTimeWentText(w).find("p50 20 ms, p99 40 ms") != std::string::npos);
  CHECK(drainsim::live::WhereTimeWentText(w).find("queue wait") == std::string::npos);
  // Beside the simulation's queue wait, which holds a backlog's wait: the live figure is not
  // called the broker's enqueue, since a backlog's wait is in it too.
  drainsim::live::SimulatedSide side;
  side.queue_wait_p50_ms = {5.0, std::nullopt, 7.0};
  side.queue_wait_p99_ms = {30.0, std::nullopt, 34.0};
  auto beside = w;
  beside.simulated = drainsim::live::SimulatedWaitOf(side);
  CHECK(beside.simulated->replications == 2);
  const std::string text = drainsim::live::WhereTimeWentText(beside);
  CHECK(text.find("p50 20 ms, p99 40 ms, max 40 ms over 3 messages, against the simulation's "
                  "queue wait") != std::string::npos);
  CHECK(text.find("p50 6 ms, p99 32 ms (mean of 2 replications)") != std::string::npos);
  beside.simulated = drainsim::live::SimulatedWaitOf(drainsim::live::SimulatedSide{});
  CHECK(drainsim::live::WhereTimeWentText(beside).find("the simulation delivered nothing") !=
        std::string::npos);
  CHECK_FALSE(drainsim::live::ReadWhereTimeWent(path + ".absent", plan).ok);
  std::remove(path.c_str());
}

TEST_CASE("side by side: the live main queue rebuilt from live-events.jsonl", "[live]") {
  const std::string path = std::string(DRAINSIM_BINARY_DIR) + "/live_series_test.jsonl";
  {
    std::ofstream out(path);
    for (const char* line : {
             R"({"t_s":0.1,"event":"publish","id":0})",
             R"({"t_s":0.2,"event":"publish","id":1})",
             R"({"t_s":0.3,"event":"publish","id":2})",
             R"({"t_s":0.4,"event":"publish","id":3})",
             R"({"t_s":0.5,"event":"ack","id":0,"worker":0,"attempt":1})",
             R"({"t_s":0.6,"event":"reject_requeue","id":1,"worker":0,"attempt":1})",
             R"({"t_s":1.2,"event":"park","id":2,"worker":0,"attempt":1})",
             R"({"t_s":1.4,"event":"reject_requeue","id":1,"worker":0,"attempt":2})",
             R"({"t_s":1.5,"event":"reject_dead_letter","id":3,"worker":0,"attempt":1})",
             R"({"t_s":2.5,"event":"dead_letter","id":1,"detail":"reason=delivery_limit"})",
             R"({"t_s":2.5,"event":"dead_letter","id":3,"detail":"reason=rejected"})",
         }) {
      out << line << "\n";
    }
  }
  const auto series = drainsim::live::LiveMainQueue(path, 1.0, 2);
  REQUIRE(series);
  // At 0 s nothing; at 1 s ids 1, 2 and 3 (0 acked); at 2 s none: 2 parked, 3 rejected to the
  // DLQ, 1 dead-lettered by the broker at its last return (1.4 s). Enough samples for 2.5 s.
  CHECK(series->main_queue == std::vector<double>{0, 3, 0, 0});
  CHECK(series->last_event_s == Approx(2.5));
  CHECK_FALSE(drainsim::live::LiveMainQueue(path + ".absent", 1.0, 2));

  const auto s = Load("live-poison.json");
  const auto sim = drainsim::live::RunSimulatedSide(s, s.seed, 3, 1);
  REQUIRE(sim.main_queue.size() == 3);
  CHECK(sim.sample_every_s == 1.0);
  CHECK(sim.main_queue[0].size() >= 11);  // 0..10 s at least: the last ack is at 10 s
  drainsim::live::LiveResult live = PoisonLive();
  drainsim::live::SideBySideRun run;
  run.scenario_name = "a <b>";
  run.live = &live;
  run.simulated = &sim;
  run.rows = drainsim::live::CompareSides(s, live, sim, run.options);
  const std::string html = drainsim::live::SideBySideHtml(run, series);
  for (const char* text : {"data-series=\"simulated min\"", "data-series=\"simulated max\"",
                           "data-series=\"simulated mean\"", "data-series=\"live\"",
                           "<td>main_queue_settled_s</td>", "drainsim live: a &lt;b&gt;"}) {
    CHECK(html.find(text) != std::string::npos);
  }
  CHECK(drainsim::live::SideBySideHtml(run, std::nullopt).find("data-series=\"live\"") ==
        std::string::npos);
  std::remove(path.c_str());
}

TEST_CASE("side by side: the chart's grid coarsens a fine sampling to at most 10,000 instants",
          "[live]") {
  auto s = Load("live-poison.json");
  s.run.sample_every = drainsim::engine::Duration::Micros(250);  // 40,000 samples to 10 s
  const auto sim = drainsim::live::RunSimulatedSide(s, s.seed, 2, 1);
  CHECK(sim.sample_every_s == Approx(0.001));  // the smallest whole multiple that fits
  for (const auto& run : sim.main_queue) CHECK(run.size() == 10'001);  // 0, 1 ms, ..., 10 s
}

// A drain's figures join the side-by-side: its replays (a count) and the simulation's
// time_to_empty_s against the live drain's start -> last settle (a wall time); without a drain
// time_to_empty_s stays a row not compared.
TEST_CASE("side by side: with a drain, replays and time_to_empty_s are compared", "[live]") {
  const auto drain = Load("live-drain.json");
  const std::vector<std::string> names = drainsim::live::ComparedFigures(drain);
  CHECK(std::count(names.begin(), names.end(), "replays") == 1);
  CHECK(std::count(names.begin(), names.end(), "time_to_empty_s") == 1);
  const auto poison = Load("live-poison.json");
  const std::vector<std::string> plain = drainsim::live::ComparedFigures(poison);
  CHECK(std::count(plain.begin(), plain.end(), "time_to_empty_s") == 0);
  const auto side = drainsim::live::RunSimulatedSide(poison, poison.seed, 2, 1);
  const auto rows = drainsim::live::CompareSides(poison, PoisonLive(), side, {});
  bool not_compared = false;
  for (const Comparison& c : rows) {
    if (c.name == "time_to_empty_s") not_compared = c.verdict == Verdict::kNotCompared;
  }
  CHECK(not_compared);
}

}  // namespace side_by_side_test
