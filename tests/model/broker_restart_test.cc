// A broker restart closes every connection (World::BrokerRestart): found against a real RabbitMQ
// 3.10 by drainsim live (scenarios/live-restart.json and live-restart-drain.json), three things
// the model first got wrong. Each test fails on the model before that fix.
#include <catch2/catch.hpp>
#include <string>

#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
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

}  // namespace
}  // namespace drainsim::model
