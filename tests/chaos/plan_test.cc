// The swarm plan: phases, producers clipped to the safety phase, drains kept or dropped, and the
// bases that make no swarm.
#include "chaos/plan.h"

#include <catch2/catch.hpp>
#include <string>

#include "sim/model/simulation.h"
#include "tests/chaos/chaos_support.h"

namespace drainsim::chaos::testing {
namespace plan_test {
namespace {

using engine::Duration;
using engine::Instant;

// Every producer shape, repeating and rated, around a 250 s safety phase.
const char* kProducers = R"({"format_version": 1, "name": "producers",
  "run": {"until_s": 1000},
  "kinds": {"job": {}},
  "producers": [
    {"kind": "job", "constant": {"rate_per_s": 2}},
    {"kind": "job", "poisson": {"rate_per_s": 1, "from_s": 300}},
    {"kind": "job", "fanout": {"at_s": 0, "count": 10, "every_s": 100}},
    {"kind": "job", "fanout": {"at_s": 200, "count": 100, "publish_rate_per_s": 1}},
    {"kind": "job", "burst": {"at_s": 50, "count": 3, "every_s": 60}},
    {"kind": "job", "burst": {"at_s": 900, "count": 1}}],
  "workers": {"count": 4},
  "drains": [{"start_at_s": 100, "strategy": "bulk"}, {"start_at_s": 400, "strategy": "bulk"}],
  "expect": [{"metric": "lost", "equals": 0}]})";

TEST_CASE("plan: producers publish only in the safety phase", "[chaos][plan]") {
  const config::Scenario base = LoadTextOrFail(kProducers);
  const SwarmPlan plan = PlanOrFail(base, {Duration::Seconds(250), Duration::Seconds(100)});
  CHECK(plan.safety_end == Instant::Zero() + Duration::Seconds(250));
  CHECK(plan.skeleton.run.until == Instant::Zero() + Duration::Seconds(350));
  CHECK(plan.skeleton.faults.empty());
  CHECK(plan.skeleton.expect.empty());
  for (const config::Producer& p : plan.skeleton.producers) {
    if (const auto* c = std::get_if<config::ConstantSchedule>(&p.schedule)) {
      CHECK(c->window.until == plan.safety_end);
    }
    if (const auto* f = std::get_if<config::FanoutSchedule>(&p.schedule)) {
      CHECK_FALSE(f->every.has_value());
      CHECK(f->at < plan.safety_end);
    }
    if (const auto* b = std::get_if<config::BurstSchedule>(&p.schedule)) {
      CHECK_FALSE(b->every.has_value());
      CHECK(b->at < plan.safety_end);
    }
    CHECK_FALSE(std::holds_alternative<config::PoissonSchedule>(p.schedule));
  }
  // constant 2/s over [0, 250): 500; fanouts at 0, 100, 200: 30; the rated fanout from 200 at
  // 1/s: 50 (200 .. 249); bursts at 50, 110, 170, 230: 12. The Poisson producer (from 300)
  // and the burst at 900 are dropped.
  const model::Results r = model::RunSimulation(plan.skeleton, 1);
  CHECK(r.published == 500 + 30 + 50 + 12);
  CHECK(r.not_terminal_end == 0);
  const std::string notes = [&] {
    std::string all;
    for (const std::string& note : plan.notes) all += note + "\n";
    return all;
  }();
  CHECK(notes.find("producer 1 starts after the safety phase: dropped") != std::string::npos);
  CHECK(notes.find("producer 5 starts after the safety phase: dropped") != std::string::npos);
  CHECK(notes.find("producer 3 clipped to the safety phase") != std::string::npos);
  CHECK(notes.find("drain 1 starts after the safety phase: dropped") != std::string::npos);
  CHECK(notes.find("expectations dropped") != std::string::npos);
  REQUIRE(plan.skeleton.drains.size() == 1);
  CHECK(plan.skeleton.drains[0].start_at == Instant::Zero() + Duration::Seconds(100));
}

TEST_CASE("plan: the default safety phase is the base's run", "[chaos][plan]") {
  const config::Scenario base = LoadShipped("poison-pills.json");
  const SwarmPlan plan = PlanOrFail(base);
  CHECK(plan.safety_end == base.run.until);
  CHECK(plan.liveness == DefaultLiveness(base));
  CHECK(plan.skeleton.run.until == base.run.until + plan.liveness);
  CHECK(plan.skeleton.producers == base.producers);
}

TEST_CASE("plan: drains after a bug fix are dropped", "[chaos][plan]") {
  const config::Scenario base = LoadShipped("full-vocabulary.json");
  const SwarmPlan plan = PlanOrFail(base);
  for (const config::Drain& d : plan.skeleton.drains) {
    CHECK(d.start_at.has_value());
    CHECK(*d.start_at < plan.safety_end);
  }
}

TEST_CASE("plan: the default liveness bound", "[chaos][plan]") {
  // poison-pills: constant 0.1 s backoff; rate_limited keeps its default 10 attempts (9
  // waits); 60 s visibility timeout, a claim and one query of 5 s timeout each, the longest
  // injected hang of 30 s; 30 s restart; a 120 s broker downtime:
  // 600 + 2 * (0.9 + 10 * (60 + 10 + 30) + 30 + 120) = 2901.8, rounded up.
  CHECK(DefaultLiveness(LoadShipped("poison-pills.json")) == Duration::Seconds(2902));
  for (const std::string& name : ShippedScenarioNames()) {
    INFO(name);
    const Duration bound = DefaultLiveness(LoadShipped(name));
    CHECK(bound >= Duration::Seconds(600));
    CHECK(bound.micros() % 1'000'000 == 0);
  }
}

TEST_CASE("plan: bases and phases that make no swarm are errors", "[chaos][plan]") {
  const config::Scenario base = LoadTextOrFail(kProducers);
  auto error = [&](SwarmParams params) {
    const PlanOrError made = MakeSwarmPlan(base, params);
    CHECK_FALSE(made.plan.has_value());
    return made.error;
  };
  CHECK(error({Duration::Zero(), std::nullopt}).find("longer than 0 s") != std::string::npos);
  CHECK(error({Duration::Seconds(-5), std::nullopt}).find("(got -5)") != std::string::npos);
  CHECK(error({Duration::Seconds(10), Duration::Zero()}).find("liveness bound") !=
        std::string::npos);
  CHECK(error({Duration::Seconds(86400 * 60), Duration::Seconds(86400 * 41)})
            .find("at most 100 days") != std::string::npos);

  const config::Scenario late = LoadTextOrFail(R"({"format_version": 1, "name": "late",
    "run": {"until_s": 1000}, "kinds": {"job": {}}, "workers": {"count": 1},
    "producers": [{"kind": "job", "burst": {"at_s": 500, "count": 5}}]})");
  const PlanOrError nothing = MakeSwarmPlan(late, {Duration::Seconds(100), std::nullopt});
  CHECK_FALSE(nothing.plan.has_value());
  CHECK(nothing.error.find("nothing is published") != std::string::npos);

  const config::Scenario due = LoadTextOrFail(R"({"format_version": 1, "name": "due",
    "run": {"until_s": 1000}, "kinds": {"job": {}}, "workers": {"count": 1},
    "backlog": [{"where": "delayed", "kind": "job", "count": 5, "due_in_s": 700}]})");
  CHECK(MakeSwarmPlan(due, {Duration::Seconds(800), std::nullopt}).plan.has_value());
  const PlanOrError too_late = MakeSwarmPlan(due, {Duration::Seconds(600), std::nullopt});
  CHECK(too_late.error.find("due at 700 s") != std::string::npos);
}

TEST_CASE("plan: seconds are written exactly", "[chaos][plan]") {
  CHECK(FormatSeconds(Duration::Seconds(1800)) == "1800");
  CHECK(FormatSeconds(Duration::Millis(250)) == "0.25");
  CHECK(FormatSeconds(Duration::Micros(1)) == "0.000001");
  CHECK(FormatSeconds(Duration::Micros(437'123'456)) == "437.123456");
  CHECK(FormatSeconds(Duration::Seconds(-5)) == "-5");
  CHECK(FormatSeconds(Duration::Zero()) == "0");
}

}  // namespace
}  // namespace plan_test
}  // namespace drainsim::chaos::testing
