// The model's failure paths: duplicates, crashes, timeouts, sleeping consumers, budgets and
// breakers, and conservation under every fault kind.
#include <catch2/catch.hpp>
#include <algorithm>
#include <string>

#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace simulation_faults_test {
namespace {

using testing::CheckConserved;
using testing::LoadOrFail;
using testing::RunAudited;

TEST_CASE("a visibility timeout shorter than the work duplicates it, claim rows stop that",
          "[model][sim][duplicates]") {
  auto scenario = [](const char* idempotency) {
    return std::string(R"({"format_version": 1, "name": "vt", "run": {"until_s": 3600},
      "kinds": {"job": {"idempotency": ")") +
           idempotency + R"(", "handler": {"db_ops": 1, "db_op_ms": {"constant": 5},
                                         "cpu_ms": {"constant": 3000}}}},
      "backlog": [{"where": "main", "kind": "job", "count": 20}],
      "broker": {"visibility_timeout_s": 2},
      "database": {"connections": 50, "overload_factor": 0},
      "workers": {"count": 40}})";
  };
  const Results none = RunAudited(LoadOrFail(scenario("none")));
  CheckConserved(none);
  CHECK(none.acked == 20);
  CHECK(none.duplicate_executions > 0);
  CHECK(none.visible_duplicates == none.duplicate_executions);
  CHECK(none.duplicates_by_cause[static_cast<size_t>(DuplicateCause::kVisibilityTimeout)] ==
        none.duplicate_executions);

  const Results converge = RunAudited(LoadOrFail(scenario("converge")));
  CHECK(converge.duplicate_executions > 0);
  CHECK(converge.visible_duplicates == 0);

  const Results claim = RunAudited(LoadOrFail(scenario("claim")));
  CheckConserved(claim);
  CHECK(claim.acked == 20);
  CHECK(claim.duplicate_executions == 0);
  CHECK(claim.duplicates_suppressed > 0);
}

TEST_CASE("a crash between commit and ack gives exactly one duplicate per crash",
          "[model][sim][duplicates]") {
  const Results r = RunAudited(LoadOrFail(R"({"format_version": 1, "name": "crash",
    "run": {"until_s": 3600},
    "kinds": {"job": {"idempotency": "converge", "handler": {"cpu_ms": {"constant": 100}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 200}],
    "workers": {"count": 4, "restart_s": 5},
    "faults": [{"type": "worker_crash", "at_s": 1, "count": 3, "point": "between_commit_and_ack"}]})"));
  CheckConserved(r);
  CHECK(r.acked == 200);
  CHECK(r.duplicate_executions == 3);
  CHECK(r.duplicates_by_cause[static_cast<size_t>(DuplicateCause::kCrashAfterCommit)] == 3);
}

TEST_CASE("a crash at an instant opens no fault window", "[model][sim][faults]") {
  // Regression: the model opened a crash's unused window field, [0, 0): report.json listed a
  // phantom worker_crash window at 0 s, and recovery after faults found no baseline before it.
  const Results r = RunAudited(LoadOrFail(R"({"format_version": 1, "name": "crash-at",
    "run": {"until_s": 600},
    "kinds": {"job": {"idempotency": "converge", "handler": {"cpu_ms": {"constant": 100}}}},
    "producers": [{"kind": "job", "constant": {"rate_per_s": 5}}],
    "workers": {"count": 4, "restart_s": 5},
    "faults": [{"type": "worker_crash", "at_s": 100, "count": 2},
               {"type": "ack_loss", "probability": 0.5, "from_s": 200, "until_s": 300}]})"));
  CheckConserved(r);
  REQUIRE(r.fault_windows.size() == 1);
  CHECK(r.fault_windows[0].type == "ack_loss");
  CHECK(r.fault_windows[0].fault == 1);
  CHECK(r.fault_windows[0].attempts > 0);
  // The series is marked only inside the ack_loss window: before 200 s nothing is active.
  REQUIRE_FALSE(r.series.empty());
  for (const Sample& s : r.series) {
    if (s.t_s < 200) CHECK_FALSE(s.fault_active);
  }
}

TEST_CASE("a lost ack is redelivered after the visibility timeout and runs again",
          "[model][sim][duplicates]") {
  const Results r = RunAudited(LoadOrFail(R"({"format_version": 1, "name": "acks",
    "run": {"until_s": 36000},
    "kinds": {"job": {"idempotency": "none", "handler": {"cpu_ms": {"constant": 10}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 2000}],
    "broker": {"visibility_timeout_s": 30},
    "workers": {"count": 4},
    "faults": [{"type": "ack_loss", "probability": 0.05}]})"));
  CheckConserved(r);
  CHECK(r.acked == 2000);
  // About 5% of first acks are lost (and 5% of those again): 100 expected, sd ~10.
  CHECK(r.duplicate_executions > 60);
  CHECK(r.duplicate_executions < 150);
  CHECK(r.duplicates_by_cause[static_cast<size_t>(DuplicateCause::kLostAck)] ==
        r.duplicate_executions);
  CHECK(r.attempts == 2000 + r.duplicate_executions);
}

TEST_CASE("a database timeout holds the worker for the whole timeout", "[model][sim]") {
  const Results r = RunAudited(LoadOrFail(R"({"format_version": 1, "name": "slow-db",
    "run": {"until_s": 3600},
    "kinds": {"job": {"handler": {"db_ops": 1, "db_op_ms": {"constant": 10000}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 1}],
    "database": {"connections": 1, "timeout_ms": 5000, "overload_factor": 0},
    "workers": {"count": 1},
    "retry": {"classes": {"transient": {"action": "dead_letter"}}}})"));
  CheckConserved(r);
  CHECK(r.dlq_end == 1);
  CHECK(r.db_timeouts == 1);
  CHECK(r.wasted_worker_s == Approx(5.0).margin(1e-9));
}

TEST_CASE("sleeping in the consumer starves the prefetched messages behind it",
          "[model][sim][prefetch]") {
  auto scenario = [](const char* delivery) {
    return std::string(R"({"format_version": 1, "name": "sleepy", "run": {"until_s": 36000},
      "kinds": {"job": {"handler": {"cpu_ms": {"constant": 100}}}},
      "backlog": [{"where": "main", "kind": "job", "count": 40}],
      "workers": {"count": 2, "prefetch": 10, "concurrency": 1},
      "broker": {"visibility_timeout_s": 3600},
      "retry": {"delivery": ")") +
           delivery + R"(", "backoff": {"kind": "constant", "delay_s": 60, "jitter": {"kind": "none"}}},
      "faults": [{"type": "poison", "kind": "job", "count": 2, "error": "transient"}]})";
  };
  const Results republish = RunAudited(LoadOrFail(scenario("republish")));
  const Results sleep = RunAudited(LoadOrFail(scenario("sleep_in_consumer")));
  CheckConserved(republish);
  CheckConserved(sleep);
  CHECK(republish.acked == 38);
  CHECK(sleep.acked == 38);
  // With republish the 38 healthy messages are done in about 38 x 0.1 s / 2 workers; asleep,
  // each poisoned consumer sits on its prefetched messages through four 60 s backoffs.
  const double republish_p99_s = static_cast<double>(republish.message_latency_us.Quantile(0.99)) / 1e6;
  const double sleep_p99_s = static_cast<double>(sleep.message_latency_us.Quantile(0.99)) / 1e6;
  CHECK(republish_p99_s < 5);
  CHECK(sleep_p99_s > 200);
}

TEST_CASE("the retry budget caps retries under total failure", "[model][sim][budget]") {
  const Results r = RunAudited(LoadOrFail(R"({"format_version": 1, "name": "budget",
    "run": {"until_s": 36000},
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 10}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 100}],
    "workers": {"count": 10},
    "retry": {"backoff": {"kind": "constant", "delay_s": 1, "jitter": {"kind": "none"}},
              "budget": {"ratio": 0.1, "burst": 5, "window_s": 86400}},
    "faults": [{"type": "errors", "probability": 1.0, "error": "transient"}]})"));
  CheckConserved(r);
  // No success ever deposits: only the burst of 5 retries is allowed in the window.
  CHECK(r.attempts == 105);
  CHECK(r.human_needed_by_reason.at("dlq:retry_budget") >= 95);
}

TEST_CASE("an open circuit breaker stops consumption, messages wait in the main queue",
          "[model][sim][breaker]") {
  auto scenario = [](const char* breaker) {
    return std::string(R"({"format_version": 1, "name": "breaker", "run": {"until_s": 600},
      "kinds": {"job": {"handler": {"cpu_ms": {"constant": 10}}}},
      "producers": [{"kind": "job", "constant": {"rate_per_s": 10}}],
      "workers": {"count": 2},
      "retry": {"classes": {"transient": {"action": "dead_letter"}}, "circuit_breaker": )") +
           breaker + R"(},
      "faults": [{"type": "errors", "probability": 1.0, "from_s": 100, "until_s": 200}]})";
  };
  const Results without = RunAudited(LoadOrFail(scenario("null")));
  const Results with = RunAudited(LoadOrFail(scenario(
      R"({"error_rate_open": 0.5, "window_s": 10, "open_s": 60, "half_open_probes": 2,
          "attempts_min": 10})")));
  CheckConserved(without);
  CheckConserved(with);
  // Without a breaker every message of the bad 100 s is dead-lettered.
  CHECK(without.dlq_end == 1000);
  // With one, consumption stops: only the attempts that opened it and the failed probes die,
  // the rest wait in the main queue and succeed once the dependency is back.
  CHECK(with.breaker_openings >= 1);
  CHECK(with.dlq_end < 100);  // a tenth of the unprotected run's
  CHECK(with.acked == with.published - with.dlq_end);
  int64_t depth_max = 0;
  for (const Sample& s : with.series) depth_max = std::max(depth_max, s.depth);
  CHECK(depth_max > 300);
}

}  // namespace
}  // namespace simulation_faults_test
}  // namespace drainsim::model
