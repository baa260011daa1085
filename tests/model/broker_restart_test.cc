// A broker restart closes every connection (World::BrokerRestart): found against a real RabbitMQ
// 3.10 by drainsim live (scenarios/live-restart.json and live-restart-drain.json), three things
// the model first got wrong. Each test fails on the model before that fix.
#include <catch2/catch.hpp>
#include <string>

#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace broker_restart_test {
namespace {

using testing::CheckConserved;
using testing::LoadOrFail;
using testing::RunAudited;

// One worker, `count` messages at t=0 whose handler takes `handler_s`, restarts as given.
std::string RestartScenario(int count, double handler_s, int prefetch, const std::string& broker,
                            const std::string& faults) {
  return R"({"format_version": 1, "name": "restart", "run": {"until_s": 600},
    "kinds": {"job": {"handler": {"validate_ms": {"constant": )" +
         std::to_string(handler_s * 1000) + R"(}}}},
    "producers": [{"kind": "job", "burst": {"at_s": 0, "count": )" +
         std::to_string(count) + R"(}}],
    "broker": )" +
         broker + R"(,
    "workers": {"count": 1, "prefetch": )" +
         std::to_string(prefetch) + R"(, "concurrency": 1},
    "faults": [)" +
         faults + "]}";
}

TEST_CASE("a broker restart's return counts towards the delivery limit (RabbitMQ 3.x)",
          "[model][restart]") {
  // A 10 s handler is running at both restarts: each returns it, the second past limit 1.
  const Results r = RunAudited(LoadOrFail(RestartScenario(
      1, 10, 1, R"({"preset": "rabbitmq-quorum", "version": "3.10", "delivery_limit": 1})",
      R"({"type": "broker_restart", "at_s": 1, "downtime_s": 0.5},
         {"type": "broker_restart", "at_s": 3, "downtime_s": 0.5})")));
  CheckConserved(r);
  CHECK(r.dlq_end == 1);
  CHECK(r.human_needed_by_reason.at("dlq:delivery_limit") == 1);
  CHECK(r.acked == 0);
}

TEST_CASE("a broker restart drops the prefetched copies with the connection", "[model][restart]") {
  // 10 messages, prefetch 10, one slot: at the restart one runs and nine wait in the buffer.
  // Only the running one goes on (a stale copy that commits): one duplicate execution, not ten.
  const Results r = RunAudited(LoadOrFail(RestartScenario(
      10, 1, 10, "{}", R"({"type": "broker_restart", "at_s": 0.5, "downtime_s": 0.1})")));
  CheckConserved(r);
  CHECK(r.acked == 10);
  CHECK(r.duplicate_executions == 1);
}

TEST_CASE("a drain stops while the broker restarts and goes on after it", "[model][restart]") {
  auto run = [](const std::string& faults) {
    return RunAudited(LoadOrFail(R"({"format_version": 1, "name": "restart-drain",
      "run": {"until_s": 600},
      "kinds": {"job": {"handler": {"validate_ms": {"constant": 10}}}},
      "backlog": [{"where": "dlq", "kind": "job", "count": 100, "reason": "max_attempts",
                   "age_s": 3600}],
      "workers": {"count": 4},
      "drains": [{"start_at_s": 1, "strategy": "drip", "rate_per_s": 10}],
      "faults": [)" + faults + "]}"));
  };
  const Results plain = run("");
  const Results restarted = run(R"({"type": "broker_restart", "at_s": 5, "downtime_s": 3})");
  CheckConserved(restarted);
  CHECK(restarted.replays == 100);
  REQUIRE(plain.time_to_empty_s);
  REQUIRE(restarted.time_to_empty_s);
  // A burst-1 bucket makes nothing up: the drain ends the downtime later.
  CHECK(*restarted.time_to_empty_s - *plain.time_to_empty_s == Approx(3.0).margin(0.101));
  // A drain due during the downtime starts when the broker is back.
  const Results late = run(R"({"type": "broker_restart", "at_s": 0.5, "downtime_s": 2})");
  REQUIRE(late.drains.size() == 1);
  CHECK(late.drains[0].started_at_s == Approx(2.5));
}

// recovery_s (issue 14): the broker's start and the clients' reconnection after the downtime,
// measured against RabbitMQ 3.10 (docs/LIVE.md, "A broker restart"). Each golden instant below
// is exact: a constant handler and one worker leave nothing to chance.
TEST_CASE("delivery resumes at at_s + downtime_s + recovery_s", "[model][restart][recovery]") {
  // One job published at 0.2 s into a broker down since 0.1 s; a 1 s handler.
  auto cleared_s = [](const std::string& restart) {
    const Results r = RunAudited(LoadOrFail(R"({"format_version": 1, "name": "recovery",
      "run": {"until_s": 60},
      "kinds": {"job": {"handler": {"validate_ms": {"constant": 1000}}}},
      "producers": [{"kind": "job", "burst": {"at_s": 0.2, "count": 1}}],
      "workers": {"count": 1, "prefetch": 1, "concurrency": 1},
      "faults": [)" + restart + "]}"));
    CheckConserved(r);
    CHECK(r.acked == 1);
    CHECK(r.attempts == 1);
    REQUIRE(r.backlog_cleared_s);
    return *r.backlog_cleared_s;
  };
  // Delivered at 0.1 + 1 + 0.5 = 1.6 s, acked 1 s later.
  CHECK(cleared_s(R"({"type": "broker_restart", "at_s": 0.1, "downtime_s": 1,
                      "recovery_s": 0.5})") == 2.6);
  // recovery_s 0, or absent: delivery resumes the instant the downtime ends, as before.
  CHECK(cleared_s(R"({"type": "broker_restart", "at_s": 0.1, "downtime_s": 1})") == 2.1);
  CHECK(cleared_s(R"({"type": "broker_restart", "at_s": 0.1, "downtime_s": 1,
                      "recovery_s": 0})") == 2.1);
  // A recovery without downtime is an unavailability of its own.
  CHECK(cleared_s(R"({"type": "broker_restart", "at_s": 0.1, "recovery_s": 0.25})") == 1.35);
}

TEST_CASE("a restart's recovery is its downtime extended, for the model",
          "[model][restart][recovery]") {
  // Ten 1 s jobs, prefetch 4: at 2.5 s one runs (a stale copy) and three wait in the buffer;
  // every figure of downtime 1 + recovery 2 equals a downtime of 3.
  auto run = [](const std::string& restart) {
    const Results r = RunAudited(LoadOrFail(RestartScenario(
        10, 1, 4, R"({"preset": "rabbitmq-quorum", "version": "3.10", "delivery_limit": 5})",
        restart)));
    CheckConserved(r);
    return r;
  };
  const Results split = run(R"({"type": "broker_restart", "at_s": 2.5, "downtime_s": 1,
                                "recovery_s": 2})");
  const Results whole = run(R"({"type": "broker_restart", "at_s": 2.5, "downtime_s": 3})");
  const Results none = run(R"({"type": "broker_restart", "at_s": 2.5, "downtime_s": 1})");
  CHECK(split.acked == 10);
  CHECK(split.attempts == whole.attempts);
  CHECK(split.duplicate_executions == whole.duplicate_executions);
  REQUIRE(split.backlog_cleared_s);
  REQUIRE(whole.backlog_cleared_s);
  REQUIRE(none.backlog_cleared_s);
  CHECK(*split.backlog_cleared_s == *whole.backlog_cleared_s);
  CHECK(*split.backlog_cleared_s - *none.backlog_cleared_s == Approx(2.0).margin(1e-9));
}

TEST_CASE("a drain due during the recovery starts when it ends", "[model][restart][recovery]") {
  const Results r = RunAudited(LoadOrFail(R"({"format_version": 1, "name": "recovery-drain",
    "run": {"until_s": 600},
    "kinds": {"job": {"handler": {"validate_ms": {"constant": 10}}}},
    "backlog": [{"where": "dlq", "kind": "job", "count": 10, "reason": "max_attempts",
                 "age_s": 3600}],
    "workers": {"count": 1},
    "drains": [{"start_at_s": 2.2, "strategy": "drip", "rate_per_s": 10}],
    "faults": [{"type": "broker_restart", "at_s": 0.5, "downtime_s": 1.5,
                "recovery_s": 0.75}]})"));
  CheckConserved(r);
  REQUIRE(r.drains.size() == 1);
  REQUIRE(r.drains[0].started_at_s);
  CHECK(*r.drains[0].started_at_s == 2.75);
}

}  // namespace
}  // namespace broker_restart_test
}  // namespace drainsim::model
