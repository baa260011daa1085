// Drain plans: each strategy's pace and bounds, selection and parking, refills, retention.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace drain_test {
namespace {

using testing::CheckConserved;
using testing::LoadOrFail;
using testing::RunAudited;

// A DLQ backlog of `count` retryable and 10 poison (not_retryable) messages, one drain.
std::string DlqScenario(int count, const std::string& drain, const std::string& extra = "") {
  return R"({"format_version": 1, "name": "drain", "run": {"until_s": 20000},
    "kinds": {"job": {"handler": {"db_ops": 1, "db_op_ms": {"constant": 10}}}},
    "backlog": [{"where": "dlq", "kind": "job", "count": )" +
         std::to_string(count) + R"(, "reason": "max_attempts", "age_s": 3600},
                {"where": "dlq", "kind": "job", "count": 10, "reason": "not_retryable",
                 "error": "permanent", "age_s": 3600}],
    "database": {"connections": 10, "overload_factor": 0},
    "workers": {"count": 20},
    "drains": [)" + drain + "]" + extra + "}";
}

TEST_CASE("a drip drain replays at its rate: time to empty is backlog / rate", "[model][drain]") {
  const Results r = RunAudited(LoadOrFail(DlqScenario(
      1000, R"({"start_at_s": 100, "select": {"reasons": ["max_attempts"]}, "others": "park",
               "strategy": "drip", "rate_per_s": 20})")));
  CheckConserved(r);
  CHECK(r.replays == 1000);
  CHECK(r.acked == 1000);
  CHECK(r.parked == 10);
  CHECK(r.human_needed_by_reason.at("parked:drain") == 10);
  CHECK(r.refilled == 0);
  REQUIRE(r.time_to_empty_s);
  // 1000 messages at 20/s with a full bucket of 1: the last leaves at 999/20 s, then ~10 ms
  // of work.
  CHECK(*r.time_to_empty_s == Approx(999.0 / 20 + 0.010).margin(0.002));
  REQUIRE(r.drains.size() == 1);
  CHECK(r.drains[0].achieved_rate_per_s == Approx(20).epsilon(0.01));
}

TEST_CASE("replay_ms: the drainer's own time per replay, made up only within the bucket's burst",
          "[model][drain]") {
  auto run = [](const std::string& replay_ms, int burst) {
    return RunAudited(LoadOrFail(DlqScenario(
        1000, R"({"start_at_s": 100, "select": {"reasons": ["max_attempts"]}, "others": "park",
                 "strategy": "drip", "rate_per_s": 20, "burst": )" +
                  std::to_string(burst) + R"(, "replay_ms": )" + replay_ms + "}")));
  };
  // 30 ms per replay outlasts the 50 ms token interval never: the pace is the bucket's.
  const Results within = run(R"({"constant": 30})", 1);
  CheckConserved(within);
  REQUIRE(within.time_to_empty_s);
  CHECK(*within.time_to_empty_s == Approx(999.0 / 20 + 0.010).margin(0.002));
  // 80 ms per replay: the drainer is the bottleneck, 12.5/s; a burst-1 bucket makes nothing up.
  const Results slow = run(R"({"constant": 80})", 1);
  CheckConserved(slow);
  CHECK(slow.replays == 1000);
  REQUIRE(slow.time_to_empty_s);
  CHECK(*slow.time_to_empty_s == Approx(999 * 0.080 + 0.010).margin(0.002));
  // Stalls: 1 replay in 100 takes 200 ms, the rest 1 ms. Burst 1 loses 150 ms at each of the
  // ~10 stalls; burst 5 banks up to 250 ms of tokens meanwhile and catches up (it loses only
  // when stalls come closer together than its catch-up), and starts 4 tokens ahead.
  const std::string stalls = R"({"empirical": [[0.99, 1], [0.9900001, 200], [1.0, 200]]})";
  const Results burst1 = run(stalls, 1);
  const Results burst5 = run(stalls, 5);
  CheckConserved(burst1);
  CheckConserved(burst5);
  REQUIRE(burst1.time_to_empty_s);
  REQUIRE(burst5.time_to_empty_s);
  const double lost1_s = *burst1.time_to_empty_s - (999.0 / 20 + 0.010);
  const double lost5_s = *burst5.time_to_empty_s - (995.0 / 20 + 0.010);
  INFO("lost with burst 1: " << lost1_s << " s; with burst 5: " << lost5_s << " s");
  CHECK(lost1_s > 3 * 0.150);   // at least 3 stalls
  CHECK(lost1_s < 30 * 0.150);  // at most 30 (the mean is 10)
  CHECK(lost5_s < 0.1 * lost1_s);
  // Deterministic: the drainer draws from its own stream.
  CHECK(run(stalls, 1).time_to_empty_s == burst1.time_to_empty_s);
}

TEST_CASE("bulk replays everything at once", "[model][drain]") {
  const Results r = RunAudited(LoadOrFail(DlqScenario(500, R"({"start_at_s": 10, "strategy": "bulk"})")));
  CheckConserved(r);
  CHECK(r.replays == 510);  // no selection: the poison ones too
  int64_t depth_max = 0;
  for (const Sample& s : r.series) depth_max = std::max(depth_max, s.depth);
  CHECK(depth_max >= 400);  // the whole DLQ lands in the main queue
}

TEST_CASE("a bounded drain stops at exactly its limit", "[model][drain]") {
  for (int limit : {1, 37, 500}) {
    INFO(limit);
    const Results r = RunAudited(LoadOrFail(DlqScenario(
        800, R"({"start_at_s": 10, "select": {"reasons": ["max_attempts"]}, "strategy": "bounded",
                 "limit": )" + std::to_string(limit) + R"(, "rate_per_s": 100})")));
    CheckConserved(r);
    CHECK(r.replays == limit);
    CHECK(r.drains[0].left == 800 - limit);
    CHECK(r.dlq_end == 810 - limit);
    CHECK_FALSE(r.time_to_empty_s);  // replayable messages are left: never empty
  }
}

TEST_CASE("a refilled DLQ: replays that die again count and are not replayed twice",
          "[model][drain]") {
  // The bug is never fixed: every replay fails permanently again.
  const Results r = RunAudited(LoadOrFail(DlqScenario(
      200, R"({"start_at_s": 10, "select": {"reasons": ["max_attempts", "not_retryable"]},
               "strategy": "drip", "rate_per_s": 50})",
      R"(, "faults": [{"type": "bug", "kind": "job", "fraction": 1.0, "error": "permanent"}])")));
  CheckConserved(r);
  CHECK(r.replays == 210);
  CHECK(r.refilled == 210);
  CHECK(r.dlq_end == 210);
  REQUIRE(r.time_to_empty_s);  // every replay reached a terminal state: dead again
}

TEST_CASE("an adaptive drain backs off on slow queries and never exceeds its maximum",
          "[model][drain]") {
  const Results r = RunAudited(LoadOrFail(R"({"format_version": 1, "name": "adaptive",
    "run": {"until_s": 2000, "sample_every_s": 10},
    "kinds": {"job": {"handler": {"db_ops": 1, "db_op_ms": {"constant": 50}}}},
    "backlog": [{"where": "dlq", "kind": "job", "count": 6000, "reason": "max_attempts"}],
    "database": {"connections": 4, "timeout_ms": 2000, "overload_factor": 0},
    "workers": {"count": 50},
    "drains": [{"start_at_s": 0, "strategy": "adaptive", "rate_min_per_s": 5,
                "rate_max_per_s": 200, "increase_per_s": 2, "decrease_factor": 0.5,
                "latency_target_ms": 200, "adjust_every_s": 10}]})"));
  CheckConserved(r);
  double rate_max = 0;
  for (const Sample& s : r.series) rate_max = std::max(rate_max, s.drain_rate_per_s);
  CHECK(rate_max <= 200 + 1e-9);
  // The database serves 4 / 0.05 s = 80 queries/s: a drain that settled above that would time
  // out queries; AIMD keeps the average below it.
  CHECK(r.drains[0].achieved_rate_per_s < 80);
  CHECK(r.drains[0].achieved_rate_per_s > 20);
  // Multiplicative decrease: somewhere the rate drops by at least a third from one sample to
  // the next while the drain is active (AIMD's additive steps never lower it).
  int decreases = 0;
  for (size_t i = 1; i < r.series.size(); ++i) {
    const Sample& before = r.series[i - 1];
    const Sample& after = r.series[i];
    if (before.drain_active && after.drain_active && before.drain_rate_per_s > 20 &&
        after.drain_rate_per_s < before.drain_rate_per_s * 2 / 3) {
      ++decreases;
    }
  }
  CHECK(decreases >= 2);
  CHECK(r.db_timeouts + r.db_queue_max > 0);  // the database did push back
}

TEST_CASE("DLQ retention expires messages a drain came too late for", "[model][drain]") {
  const Results r = RunAudited(LoadOrFail(R"({"format_version": 1, "name": "ttl",
    "run": {"until_s": 20000},
    "kinds": {"job": {}},
    "backlog": [{"where": "dlq", "kind": "job", "count": 30, "reason": "max_attempts", "age_s": 100}],
    "broker": {"dlq_retention_s": 1000, "dlq_retention_from": "dead_lettered"},
    "workers": {"count": 1},
    "drains": [{"start_at_s": 5000, "strategy": "bulk"}]})"));
  CheckConserved(r);
  CHECK(r.expired == 30);
  CHECK(r.replays == 0);
}

}  // namespace
}  // namespace drain_test
}  // namespace drainsim::model

namespace drainsim::model {
namespace drain_test {
namespace {

TEST_CASE("the inspector sees the DLQ by reason and error without draining it",
          "[model][drain][inspector]") {
  const Results r = testing::RunAudited(testing::LoadOrFail(DlqScenario(
      300, R"({"start_at_s": 10, "select": {"reasons": ["max_attempts"]}, "strategy": "bounded",
               "limit": 100})")));
  CHECK(r.dlq_by_reason_error.at("max_attempts/transient") == 200);
  CHECK(r.dlq_by_reason_error.at("not_retryable/permanent") == 10);
  CHECK(r.dlq_by_kind.at("job") == 210);
  REQUIRE(r.dlq_sample.size() == 20);
  CHECK(r.dlq_sample[0].key == "job:" + std::to_string(r.dlq_sample[0].id));
  CHECK(r.dlq_sample[0].published_at_s == Approx(-3600));
  // Over time: the per-reason and per-error columns add up to the DLQ depth at every sample.
  for (const Sample& s : r.series) {
    int64_t by_reason = 0;
    int64_t by_error = 0;
    for (int64_t c : s.dlq_by_reason) by_reason += c;
    for (int64_t c : s.dlq_by_error) by_error += c;
    CHECK(by_reason == s.dlq_depth);
    CHECK(by_error == s.dlq_depth);
  }
  CHECK(r.series.front().dlq_by_reason[0] == 300);  // max_attempts, before the drain
}

}  // namespace
}  // namespace drain_test
}  // namespace drainsim::model
