// The errors and bug faults for drainsim live, without a broker (live/attempt_fates.h): the plan
// pins exactly the attempts the simulation failed, by (message, execution); the bug's victims are
// the model's own draw; a live attempt's fate by execution and clock.
#include "live/attempt_fates.h"

#include <catch2/catch.hpp>
#include <string>

#include "live/plan.h"
#include "sim/model/results.h"
#include "sim/scenario/load.h"

namespace attempt_fates_test {
namespace {

namespace live = drainsim::live;
namespace scenario = drainsim::scenario;
namespace config = drainsim::config;

config::Scenario LoadScenario(const std::string& name) {
  auto loaded = scenario::LoadScenarioFile(std::string(DRAINSIM_SOURCE_DIR) + "/scenarios/" + name);
  REQUIRE(loaded.ok());
  return *loaded.scenario;
}

config::Scenario FromText(const std::string& text) {
  auto loaded = scenario::LoadScenarioText(text);
  REQUIRE(loaded.ok());
  return *loaded.scenario;
}

// 300 orders at 100/s; faults spliced in; no database.
std::string WithFaults(const std::string& faults, const std::string& drains = "[]") {
  return R"({"format_version": 1, "name": "t", "seed": 4, "run": {"until_s": 30},
    "kinds": {"order": {"idempotency": "none", "handler": {"validate_ms": {"constant": 1}}},
              "other": {"idempotency": "none", "handler": {"validate_ms": {"constant": 1}}}},
    "producers": [{"kind": "order", "constant": {"rate_per_s": 100, "until_s": 3}},
                  {"kind": "other", "constant": {"rate_per_s": 10, "until_s": 3}}],
    "workers": {"count": 2, "prefetch": 5, "concurrency": 2},
    "retry": {"delivery": "requeue", "classes": {"transient": {"action": "retry", "attempts_max": 4}}},
    "faults": )" +
         faults + R"(, "drains": )" + drains + "}";
}

int64_t FailedAttempts(const live::Plan& plan) {
  return plan.simulated.failures_by_class[static_cast<size_t>(config::ErrorClass::kTransient)] +
         plan.simulated.failures_by_class[static_cast<size_t>(config::ErrorClass::kPermanent)];
}

}  // namespace

TEST_CASE("live errors: the plan pins every attempt the simulation failed, by execution",
          "[live]") {
  const config::Scenario s = FromText(WithFaults(
      R"([{"type": "errors", "kind": "order", "probability": 0.3, "fail_after_ms": 2}])"));
  REQUIRE(live::CheckLiveSupport(s).empty());
  const live::Plan plan = live::MakePlan(s, s.seed);
  REQUIRE(plan.injected.errors);
  CHECK_FALSE(plan.injected.bug);
  // Every failure of this run is the errors fault's (there is no database): the pinned count is
  // the simulation's failures, and well above zero.
  CHECK(plan.injected.errors_failed == FailedAttempts(plan));
  CHECK(plan.injected.errors_failed > 50);
  int64_t pinned = 0, second_or_later = 0;
  for (const live::PlannedMessage& m : plan.messages) {
    CHECK_FALSE(m.fate.has_value());  // no message-level fate: particular attempts fail
    int32_t previous = 0;
    for (const live::ExecutionFate& f : m.execution_fates) {
      CHECK(m.kind == "order");
      CHECK(f.execution > previous);  // sorted, one per execution
      CHECK(f.execution <= 4);        // attempts_max
      previous = f.execution;
      CHECK(f.fate.fault_index == 0);
      CHECK(f.fate.error == config::ErrorClass::kTransient);
      CHECK(f.fate.fail_after_ms == 2.0);
      // A live attempt with that execution number fails, whatever the clock; the next does not
      // unless pinned too.
      const auto fate = live::AttemptFate(m, f.execution, 1e6);
      REQUIRE(fate.has_value());
      CHECK(fate->fault_index == 0);
      ++pinned;
      second_or_later += f.execution > 1 ? 1 : 0;
    }
    if (m.execution_fates.empty()) CHECK_FALSE(live::AttemptFate(m, 1, 0).has_value());
  }
  CHECK(pinned == plan.injected.errors_failed);
  CHECK(second_or_later > 0);  // retries failed again: pinned to their own execution
  // The same seed gives the same pins.
  const live::Plan again = live::MakePlan(s, s.seed);
  for (size_t i = 0; i < plan.messages.size(); ++i) {
    REQUIRE(again.messages[i].execution_fates.size() == plan.messages[i].execution_fates.size());
    for (size_t k = 0; k < plan.messages[i].execution_fates.size(); ++k) {
      CHECK(again.messages[i].execution_fates[k].execution ==
            plan.messages[i].execution_fates[k].execution);
    }
  }
}

TEST_CASE("live errors: a window limits the pins, and the lower fault index wins an attempt",
          "[live]") {
  const config::Scenario s = FromText(WithFaults(R"([
      {"type": "errors", "probability": 0.2, "error": "permanent", "from_s": 1, "until_s": 2},
      {"type": "errors", "probability": 0.5, "error": "transient", "from_s": 1, "until_s": 2}])"));
  const live::Plan plan = live::MakePlan(s, s.seed);
  CHECK(plan.injected.errors_failed == FailedAttempts(plan));
  int64_t permanent = 0, exhausted = 0;
  for (const live::PlannedMessage& m : plan.messages) {
    // Four transient failures in a row use up attempts_max: dead-lettered too.
    exhausted += m.execution_fates.size() == 4 && m.execution_fates[3].execution == 4 &&
                         m.execution_fates[3].fate.fault_index == 1
                     ? 1
                     : 0;
    for (const live::ExecutionFate& f : m.execution_fates) {
      // Only attempts started in [1 s, 2 s): messages published from about 1 s to 2 s.
      CHECK(m.publish_at_s >= 0.99);
      CHECK(m.publish_at_s < 2.0);
      if (f.fate.error == config::ErrorClass::kPermanent) {
        ++permanent;
        CHECK(f.fate.fault_index == 0);
      }
    }
  }
  CHECK(permanent + exhausted == plan.simulated.dlq_end);  // permanent: dead-lettered at once
  CHECK(permanent > 0);
  CHECK(exhausted > 0);

  // AttemptFate: of two fates on one attempt, the lower fault index.
  live::PlannedMessage m;
  live::Fate bug_fate;
  bug_fate.fault_index = 3;
  m.bug_fates.push_back({bug_fate, 1.0, 2.0});
  live::Fate errors_fate;
  errors_fate.fault_index = 1;
  m.execution_fates.push_back({2, errors_fate});
  CHECK(live::AttemptFate(m, 2, 1.5)->fault_index == 1);
  CHECK(live::AttemptFate(m, 1, 1.5)->fault_index == 3);
  CHECK(live::AttemptFate(m, 2, 2.5)->fault_index == 1);
  CHECK_FALSE(live::AttemptFate(m, 1, 2.0).has_value());  // fixed at 2 s
  CHECK_FALSE(live::AttemptFate(m, 3, 0.5).has_value());  // before from_s
}

TEST_CASE("live bug: the victims are the model's draw, and they fail before the fix only",
          "[live]") {
  const config::Scenario s = FromText(WithFaults(
      R"([{"type": "bug", "kind": "order", "fraction": 0.25, "error": "transient",
           "from_s": 0.5, "fixed_at_s": 2}])",
      R"([{"start_after_fix_s": 3, "strategy": "bulk"}])"));
  REQUIRE(live::CheckLiveSupport(s).empty());  // start_after_fix_s is supported now
  CHECK(live::DrainStartAt(s, s.drains[0]).seconds() == 5.0);
  const live::Plan plan = live::MakePlan(s, s.seed);
  REQUIRE(plan.injected.bug);
  CHECK(plan.injected.bug_failed == FailedAttempts(plan));
  CHECK(plan.injected.bug_failed > 0);
  int64_t victims = 0, orders = 0;
  for (const live::PlannedMessage& m : plan.messages) {
    orders += m.kind == "order" ? 1 : 0;
    if (m.kind != "order") {
      CHECK(m.bug_fates.empty());
      continue;
    }
    CHECK(live::BugVictim(std::get<config::BugFault>(s.faults[0]), plan.seed, 0, m.id) ==
          !m.bug_fates.empty());
    if (m.bug_fates.empty()) continue;
    ++victims;
    const live::BugFate& b = m.bug_fates[0];
    CHECK(b.from_s == 0.5);
    CHECK(b.fixed_at_s == 2.0);
    CHECK(b.fate.error == config::ErrorClass::kTransient);
    CHECK(live::AttemptFate(m, 1, 1.0).has_value());
    CHECK(live::AttemptFate(m, 7, 1.99).has_value());
    CHECK_FALSE(live::AttemptFate(m, 1, 2.0).has_value());
    CHECK_FALSE(live::AttemptFate(m, 1, 0.4).has_value());
  }
  CHECK(victims == plan.injected.bug_victims);
  // A quarter of 300 orders, give or take: the draw is per message, on the model's stream.
  CHECK(orders == 300);
  CHECK(victims > 50);
  CHECK(victims < 100);
}

TEST_CASE("live: errors, bug, db_slowdown and db_connections are no longer refused", "[live]") {
  const auto problems = live::CheckLiveSupport(LoadScenario("monthly-rehearsal.json"));
  for (const auto& p : problems) CHECK(p.pointer != "/faults/1/type");  // its db_slowdown
  CHECK(live::CheckLiveSupport(LoadScenario("live-db-faults.json")).empty());
}

TEST_CASE("live: NATS JetStream's ack_pending_max and redeliveries_first are refused", "[live]") {
  config::Scenario s = LoadScenario("live-poison.json");
  REQUIRE(live::CheckLiveSupport(s).empty());
  s.broker.requeue_position = config::RequeuePosition::kRedeliveriesFirst;
  s.broker.ack_pending_max = 100;
  const auto problems = live::CheckLiveSupport(s);
  REQUIRE(problems.size() == 2);
  CHECK(problems[0].pointer == "/broker/ack_pending_max");
  CHECK(problems[1].pointer == "/broker/requeue_position");
  CHECK(problems[1].message.find("not supported by drainsim live") != std::string::npos);
}

TEST_CASE("live: kombu's restored_to_head is refused", "[live]") {
  config::Scenario s = LoadScenario("live-poison.json");
  s.broker.requeue_position = config::RequeuePosition::kRestoredToHead;
  const auto problems = live::CheckLiveSupport(s);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].pointer == "/broker/requeue_position");
  CHECK(problems[0].message.find("restored_to_head") != std::string::npos);
}

}  // namespace attempt_fates_test
