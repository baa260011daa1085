// The swarm's policy draw (policy_draw.h) and the per-variant liveness bound (plan.h): policies
// vary, every drawn variant loads, a seed names one variant, the bound follows the policy.
// No simulation runs here: a few seconds even under the sanitizers.
#include "chaos/policy_draw.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <string>
#include <variant>

#include "chaos/variant.h"
#include "sim/config/enum_names.h"
#include "tests/chaos/chaos_support.h"

namespace drainsim::chaos::testing {
namespace policy_draw_test {
namespace {

using engine::Duration;

// Seeds per shipped scenario in the every-variant-loads test: 40 in the plain suite, 8 under
// the sanitizers (DRAINSIM_SWARM_SEEDS is 25 there; tests/chaos/CMakeLists.txt), where a
// load costs about ten times more.
constexpr uint64_t kLoadSeeds = DRAINSIM_SWARM_SEEDS >= 200 ? 40 : 8;

// The value of the line "NAME: value" DrawPolicy reported, or "" (not drawn).
std::string DrawnValue(const std::vector<std::string>& drawn, const std::string& name) {
  for (const std::string& line : drawn) {
    if (line.rfind(name + ": ", 0) == 0) return line.substr(name.size() + 2);
  }
  return "";
}

TEST_CASE("policy draw: breaker, budget, delivery and preset all vary over 50 seeds",
          "[chaos][policy]") {
  const SwarmPlan plan = PlanOrFail(LoadShipped("full-vocabulary.json"));
  std::set<bool> breaker_on;
  std::set<bool> budget_on;
  std::set<config::RetryDelivery> deliveries;
  std::set<std::string> presets;
  std::set<std::string> preset_lines;
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    const Variant v = DrawVariant(plan, seed);
    REQUIRE(v.scenario.has_value());
    const config::Scenario& s = *v.scenario;
    breaker_on.insert(s.retry.circuit_breaker.has_value());
    budget_on.insert(s.retry.budget.has_value());
    deliveries.insert(s.retry.delivery);
    presets.insert(s.broker.preset ? std::string(config::NameOf(*s.broker.preset)) : "none");
    preset_lines.insert(DrawnValue(v.policy, "preset"));
    // What the report says was drawn is what the variant has.
    CHECK((DrawnValue(v.policy, "breaker") == "off") == !s.retry.circuit_breaker.has_value());
    CHECK((DrawnValue(v.policy, "budget") == "off") == !s.retry.budget.has_value());
  }
  CHECK(breaker_on.size() == 2);
  CHECK(budget_on.size() == 2);
  CHECK(deliveries.size() >= 3);
  CHECK(presets.size() >= 4);
  CHECK(preset_lines.count("the base's (sqs)") == 1);
  CHECK(preset_lines.count("none (drainsim's defaults)") == 1);
}

// The variant of `seed`, which must exist and load back through the loader unchanged.
Variant DrawLoadable(const SwarmPlan& plan, uint64_t seed) {
  Variant v = DrawVariant(plan, seed);
  for (const std::string& problem : v.problems) UNSCOPED_INFO(problem);
  REQUIRE(v.scenario.has_value());
  const scenario::LoadResult reloaded = ReloadVariant(*v.scenario);
  for (const auto& problem : reloaded.problems) {
    UNSCOPED_INFO(scenario::FormatProblem("<variant>", problem));
  }
  REQUIRE(reloaded.ok());
  CHECK(*reloaded.scenario == *v.scenario);
  return v;
}

TEST_CASE("policy draw: every variant of every shipped scenario loads", "[chaos][policy]") {
  for (const std::string& name : ShippedScenarioNames()) {
    INFO(name);
    const SwarmPlan plan = PlanOrFail(LoadShipped(name));
    for (uint64_t seed = 1; seed <= kLoadSeeds; ++seed) {
      INFO("seed " << seed);
      const Variant v = DrawLoadable(plan, seed);
      // Invariant (3) of policy_draw.h: only /broker and /retry change.
      CHECK(v.scenario->kinds == plan.skeleton.kinds);
      CHECK(v.scenario->producers == plan.skeleton.producers);
      CHECK(v.scenario->workers == plan.skeleton.workers);
      const bool bounded =
          v.scenario->broker.visibility_timeout <= Duration::Seconds(kSwarmVisibilityMaxS);
      CHECK((bounded || DrawnValue(v.policy, "preset").rfind("the base's", 0) == 0));
    }
  }
}

// Found by tools/fuzz/swarm_generated (generator seed 49: a sidekiq base, 26 attempts, a
// sample every 0.33 s): the liveness bound of 3.5 million s made the dump of every variant
// record more than the loader's 1e7 samples, and all 25 seeds failed as invalid variants.
TEST_CASE("policy draw: a long liveness bound over a fine sample period still loads",
          "[chaos][policy]") {
  std::string text = ReadShippedText("poison-pills.json");
  SetJson(text, "/run/sample_every_s", "0.01");
  SetJson(text, "/retry/backoff", R"({"kind": "sidekiq", "jitter": {"kind": "none"}})");
  SetJson(text, "/retry/classes/transient", R"({"action": "retry", "attempts_max": 26})");
  for (const bool vary : {true, false}) {
    SwarmParams params;
    params.vary_policies = vary;
    const SwarmPlan plan = PlanOrFail(LoadTextOrFail(text), params);
    CHECK(plan.liveness > Duration::Seconds(1'000'000));
    for (uint64_t seed = 1; seed <= 10; ++seed) {
      INFO("vary " << vary << ", seed " << seed);
      DrawLoadable(plan, seed);
    }
  }
}

TEST_CASE("policy draw: the same seed gives the same variant, byte for byte", "[chaos][policy]") {
  const SwarmPlan plan = PlanOrFail(LoadShipped("full-vocabulary.json"));
  for (uint64_t seed : {1ULL, 3ULL, 99ULL, 18446744073709551615ULL}) {
    const Variant a = DrawVariant(plan, seed);
    const Variant b = DrawVariant(plan, seed);
    REQUIRE(a.scenario.has_value());
    REQUIRE(b.scenario.has_value());
    CHECK(scenario::DumpCanonical(*a.scenario) == scenario::DumpCanonical(*b.scenario));
    CHECK(a.policy == b.policy);
    CHECK(a.liveness == b.liveness);
  }
  CHECK(DrawVariant(plan, 1).policy != DrawVariant(plan, 2).policy);
}

TEST_CASE("policy draw: --vary-policies none keeps the scenario's policy", "[chaos][policy]") {
  SwarmParams fixed;
  fixed.vary_policies = false;
  const SwarmPlan plan = PlanOrFail(LoadShipped("full-vocabulary.json"), fixed);
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const Variant v = DrawVariant(plan, seed);
    REQUIRE(v.scenario.has_value());
    CHECK(v.policy.empty());
    CHECK(v.scenario->retry == plan.skeleton.retry);
    CHECK(v.scenario->broker == plan.skeleton.broker);
    // The base's bound, plus what its breaker may hold back of this seed's poison pills.
    const bool pills = std::any_of(
        v.scenario->faults.begin(), v.scenario->faults.end(),
        [](const config::Fault& f) { return std::holds_alternative<config::PoisonFault>(f); });
    CHECK((pills ? v.liveness > plan.liveness : v.liveness == plan.liveness));
  }
}

TEST_CASE("policy draw: its own streams leave the fault draws as they were", "[chaos][policy]") {
  // The fault draws look at the policy in one place only: a poison pill hangs only under a
  // receive count (fault_draw.h). Set that aside, and a seed's faults are the same whether its
  // policy was drawn or not.
  SwarmParams fixed;
  fixed.vary_policies = false;
  const config::Scenario base = LoadShipped("monthly-rehearsal.json");
  const SwarmPlan varied = PlanOrFail(base);
  const SwarmPlan kept = PlanOrFail(base, fixed);
  auto without_hangs = [](std::vector<config::Fault> faults) {
    for (config::Fault& f : faults) {
      if (auto* p = std::get_if<config::PoisonFault>(&f)) p->fail_after.reset();
    }
    return faults;
  };
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    INFO("seed " << seed);
    CHECK(without_hangs(MakeVariant(varied, seed).faults) ==
          without_hangs(MakeVariant(kept, seed).faults));
  }
}

TEST_CASE("policy draw: each variant's liveness bound comes from its drawn policy",
          "[chaos][policy]") {
  const SwarmPlan plan = PlanOrFail(LoadShipped("full-vocabulary.json"));
  std::map<std::string, Duration> by_preset;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    const Variant v = DrawVariant(plan, seed);
    REQUIRE(v.scenario.has_value());
    const bool slow_pills = std::any_of(
        v.scenario->faults.begin(), v.scenario->faults.end(), [](const config::Fault& f) {
          const auto* poison = std::get_if<config::PoisonFault>(&f);
          return poison && poison->fail_after && *poison->fail_after > Duration::Zero();
        });
    if (!v.scenario->retry.circuit_breaker && !slow_pills) {
      CHECK(v.liveness == DefaultLiveness(*v.scenario));
    }
    CHECK(v.liveness >= DefaultLiveness(*v.scenario));
    CHECK(v.scenario->run.until == plan.safety_end + v.liveness);
    const std::string preset = DrawnValue(v.policy, "preset");
    if (v.scenario->retry.circuit_breaker) continue;  // compare the presets without a breaker
    by_preset.emplace(preset, v.liveness);
  }
  // Sidekiq's polynomial backoff (7 retries: 2632 s of waits at their longest) outlasts BullMQ's
  // single attempt by far.
  REQUIRE(by_preset.count("sidekiq") == 1);
  REQUIRE(by_preset.count("bullmq") == 1);
  CHECK(by_preset["sidekiq"] > by_preset["bullmq"] + Duration::Seconds(2 * 2632));

  // An explicit --liveness-s holds for every variant.
  SwarmParams given;
  given.liveness = Duration::Seconds(777);
  const SwarmPlan fixed = PlanOrFail(LoadShipped("full-vocabulary.json"), given);
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    CHECK(DrawVariant(fixed, seed).liveness == *given.liveness);
  }
}

TEST_CASE("liveness bound: a longer backoff gives a longer bound, by the model's own formula",
          "[chaos][policy]") {
  std::string text = ReadShippedText("poison-pills.json");
  const Duration base = DefaultLiveness(LoadTextOrFail(text));
  // The policy's backoff from poison-pills' constant 0.1 s to Sidekiq's polynomial.
  SetJson(text, "/retry/backoff", R"({"kind": "sidekiq", "jitter": {"kind": "none"}})");
  const Duration sidekiq = DefaultLiveness(LoadTextOrFail(text));
  CHECK(sidekiq > base);
  // A breaker's open time counts once per attempt.
  SetJson(text, "/retry/circuit_breaker", R"({"open_s": 100})");
  CHECK(DefaultLiveness(LoadTextOrFail(text)) > sidekiq);
}

TEST_CASE("liveness bound: slow pills add their slot time over the worker slots",
          "[chaos][policy]") {
  // poison-pills.json: 10 pills, 5 attempts each, failing after 30 s, on 10 workers of one
  // slot: 10 x 5 x 30 / 10 = 150 s more than one message's bound.
  std::string text = ReadShippedText("poison-pills.json");
  const config::Scenario pills = LoadTextOrFail(text);
  const SwarmPlan plan = PlanOrFail(pills);
  CHECK((VariantLiveness(plan, pills) - DefaultLiveness(pills)).seconds() == 150);
  // Two workers: the same slot time over 2 slots.
  SetJson(text, "/workers/count", "2");
  const config::Scenario two = LoadTextOrFail(text);
  CHECK((VariantLiveness(plan, two) - DefaultLiveness(two)).seconds() == 750);
  // Pills that fail at once cost no slot time.
  SetJson(text, "/faults/0/fail_after_ms", "null");
  const config::Scenario fast = LoadTextOrFail(text);
  CHECK((VariantLiveness(plan, fast) - DefaultLiveness(fast)).seconds() == 0);
}

TEST_CASE("liveness bound: an autoscaled pool counts its fewest workers and its kills",
          "[chaos][policy][autoscale]") {
  // poison-pills.json autoscaled from 10 workers down to min 2 (grace 30 s): the pills' slot
  // time over the 2 workers certain to stay, 10 x 5 x 30 / 2 = 750 s, and a kill at the end of
  // the grace period for each attempt a message can get (the most of any class: rate_limited's
  // 10), 10 x 30 = 300 s: 1050 s in all.
  std::string text = ReadShippedText("poison-pills.json");
  SetJson(text, "/workers/autoscale",
          R"({"metric": "depth", "target": 10, "min": 2, "max": 10, "grace_s": 30})");
  const config::Scenario scaled = LoadTextOrFail(text);
  const SwarmPlan plan = PlanOrFail(scaled);
  CHECK((VariantLiveness(plan, scaled) - DefaultLiveness(scaled)).seconds() == 1050);
}

}  // namespace
}  // namespace policy_draw_test
}  // namespace drainsim::chaos::testing
