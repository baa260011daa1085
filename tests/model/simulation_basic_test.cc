// The model end to end on small scenarios with exact or bounded expectations.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace simulation_basic_test {
namespace {

using testing::CheckConserved;
using testing::LoadOrFail;
using testing::RunAudited;

// B messages already in the main queue, each taking exactly D ms of CPU, c single-slot
// workers, nothing failing.
std::string PureDrain(int backlog, int workers, double cpu_ms) {
  return R"({"format_version": 1, "name": "pure-drain", "run": {"until_s": 100000},
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": )" +
         std::to_string(cpu_ms) + R"(}}}},
    "backlog": [{"where": "main", "kind": "job", "count": )" +
         std::to_string(backlog) + R"(}],
    "workers": {"count": )" + std::to_string(workers) + R"(, "prefetch": 1, "concurrency": 1}})";
}

TEST_CASE("a run that ends quiet with messages not at rest reports a model error", "[model][sim]") {
  const config::Scenario drain = LoadOrFail(PureDrain(100, 2, 1000));
  // Finished: quiet before run.until with every message acked, and no error.
  const Results done = RunAudited(drain);
  CHECK_FALSE(done.reached_until);
  CHECK_FALSE(done.model_error.has_value());
  // Stalled on purpose at 10 s (RunOptions::test_stall_at, scheduled before any attempt's end
  // at 10 s): 18 acked; the two finishing at 10 s find the broker stopped, their messages come
  // back when their visibility timeout ends and wait with the 80 never delivered.
  RunOptions options;
  options.audit_every_event = true;
  options.test_stall_at = engine::Instant::Micros(10'000'000);
  const Results stalled = RunSimulation(drain, 1, options);
  CheckConserved(stalled);
  CHECK_FALSE(stalled.reached_until);
  REQUIRE(stalled.model_error.has_value());
  CHECK(stalled.model_error->invariant == "quiet_end");
  CHECK(stalled.model_error->ready == stalled.not_terminal_end);
  CHECK(stalled.model_error->delayed == 0);
  CHECK(stalled.model_error->in_flight == 0);
  CHECK(stalled.not_terminal_end == 82);
  CHECK(stalled.acked == 18);
  CHECK(stalled.model_error->detail.find(
            "82 messages not at rest (82 ready, 0 delayed, 0 in flight)") == 0);
  // Stopped by run.until with messages ready is no error: the run simply was not long enough.
  options.test_stall_at = engine::Instant::Never();
  config::Scenario short_run = drain;
  short_run.run.until = engine::Instant::Micros(10'000'000);
  const Results cut = RunSimulation(short_run, 1, options);
  CHECK(cut.reached_until);
  CHECK(cut.not_terminal_end > 0);
  CHECK_FALSE(cut.model_error.has_value());
}

TEST_CASE("a pure drain of B messages on c workers takes exactly ceil(B/c) x D", "[model][sim]") {
  for (auto [backlog, workers, cpu_ms] : {std::tuple{100, 10, 250.0}, std::tuple{101, 10, 250.0},
                                          std::tuple{1, 3, 7.0}, std::tuple{997, 13, 33.0}}) {
    INFO(backlog << " messages, " << workers << " workers, " << cpu_ms << " ms");
    const Results r = RunAudited(LoadOrFail(PureDrain(backlog, workers, cpu_ms)));
    CheckConserved(r);
    CHECK(r.acked == backlog);
    CHECK(r.attempts == backlog);
    REQUIRE(r.time_to_quiet_s.has_value());
    const double expected_s = std::ceil(static_cast<double>(backlog) / workers) * cpu_ms / 1e3;
    CHECK(*r.time_to_quiet_s == Approx(expected_s).margin(1e-9));
    CHECK_FALSE(r.reached_until);  // it stopped because nothing was left to happen
  }
}

std::string Flaky(const std::string& retry_classes, const std::string& fault) {
  return R"({"format_version": 1, "name": "flaky", "run": {"until_s": 100000},
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 10}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 50}],
    "workers": {"count": 5},
    "retry": {"backoff": {"kind": "constant", "delay_s": 1, "jitter": {"kind": "none"}},
              "classes": )" +
         retry_classes + R"(},
    "faults": [)" + fault + R"(]})";
}

TEST_CASE("permanent errors never retry, unknown ones get exactly attempts_max", "[model][sim]") {
  SECTION("permanent: dead-lettered after one attempt") {
    const Results r = RunAudited(LoadOrFail(
        Flaky(R"({"permanent": {"action": "dead_letter"}})",
              R"({"type": "poison", "kind": "job", "count": 7, "error": "permanent"})")));
    CheckConserved(r);
    CHECK(r.dlq_end == 7);
    CHECK(r.attempts == 50);  // 43 successes + 7 single failed attempts
    CHECK(r.human_needed_by_reason.at("dlq:not_retryable") == 7);
  }
  SECTION("unknown: the default two attempts, then the DLQ") {
    const Results r = RunAudited(LoadOrFail(
        Flaky(R"({})", R"({"type": "poison", "kind": "job", "count": 7, "error": "unknown"})")));
    CheckConserved(r);
    CHECK(r.dlq_end == 7);
    CHECK(r.attempts == 43 + 7 * 2);
    CHECK(r.human_needed_by_reason.at("dlq:max_attempts") == 7);
  }
  SECTION("unknown with attempts_max 4") {
    const Results r = RunAudited(LoadOrFail(Flaky(
        R"({"unknown": {"action": "retry", "attempts_max": 4}})",
        R"({"type": "poison", "kind": "job", "count": 3, "error": "unknown"})")));
    CHECK(r.attempts == 47 + 3 * 4);
    CHECK(r.dlq_end == 3);
  }
  SECTION("park sends them to a human at once") {
    const Results r = RunAudited(LoadOrFail(
        Flaky(R"({"permanent": {"action": "park"}})",
              R"({"type": "poison", "kind": "job", "count": 2, "error": "permanent"})")));
    CheckConserved(r);
    CHECK(r.parked == 2);
    CHECK(r.human_needed == 2);
    CHECK(r.attempts == 50);
  }
}

TEST_CASE("same scenario and seed give the same run, another seed another", "[model][sim]") {
  const config::Scenario s = LoadOrFail(R"({"format_version": 1, "name": "det",
    "run": {"until_s": 600},
    "kinds": {"job": {"handler": {"cpu_ms": {"exponential": {"mean": 50}}}}},
    "producers": [{"kind": "job", "poisson": {"rate_per_s": 30}}],
    "workers": {"count": 3, "prefetch": 4, "concurrency": 2},
    "faults": [{"type": "errors", "probability": 0.2}]})");
  const Results a = RunSimulation(s, 11);
  const Results b = RunSimulation(s, 11);
  const Results c = RunSimulation(s, 12);
  CHECK(a.fingerprint == b.fingerprint);
  CHECK(a.attempts == b.attempts);
  CHECK(a.message_latency_us.sum() == b.message_latency_us.sum());
  CHECK(a.fingerprint != c.fingerprint);
  CheckConserved(a);
  CheckConserved(c);
}

}  // namespace
}  // namespace simulation_basic_test
}  // namespace drainsim::model
