// The variant generator: reproducible, varied, always valid, faults inside the safety phase and
// only of the types the scenario can have.
#include "chaos/variant.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <variant>

#include "chaos/fault_draw.h"
#include "sim/config/fault_types.h"
#include "tests/chaos/chaos_support.h"

namespace drainsim::chaos::testing {
namespace variant_test {
namespace {

using config::AckLossFault;
using config::BrokerRestartFault;
using config::BugFault;
using config::DbConnectionsFault;
using config::DbOutageFault;
using config::DbSlowdownFault;
using config::DownstreamOutageFault;
using config::DownstreamRateLimitFault;
using config::ErrorsFault;
using config::FaultType;
using config::kTypeOf;
using config::PoisonFault;
using config::SyntheticFailuresFault;
using config::WorkerCrashFault;
using engine::Duration;
using engine::Instant;

// The latest instant a fault can act at or start from, and whether its windows are inside
// [0, safety_end). Returns a description of the first violation, or "".
std::string OutsideSafety(const config::Fault& fault, Instant safety_end) {
  auto window_ok = [&](const config::Window& w) {
    return Instant::Zero() <= w.from && w.from < w.until && w.until <= safety_end;
  };
  auto at_ok = [&](Instant at) { return Instant::Zero() <= at && at < safety_end; };
  return std::visit(
      [&](const auto& f) -> std::string {
        using F = std::decay_t<decltype(f)>;
        if constexpr (std::is_same_v<F, config::PoisonFault>) {
          return at_ok(f.from) ? "" : "poison from";
        } else if constexpr (std::is_same_v<F, config::BrokerRestartFault>) {
          return at_ok(f.at) && f.at + f.downtime <= safety_end ? "" : "broker restart";
        } else if constexpr (std::is_same_v<F, config::WorkerCrashFault>) {
          if (f.at) return at_ok(*f.at) ? "" : "crash at";
          return window_ok(f.window) ? "" : "crash window";
        } else if constexpr (std::is_same_v<F, config::SyntheticFailuresFault> ||
                             std::is_same_v<F, config::BugFault>) {
          return "a type the swarm never draws";
        } else {
          return window_ok(f.window) ? "" : "window";
        }
      },
      fault);
}

TEST_CASE("variant: the same seed gives the same variant, byte for byte", "[chaos][variant]") {
  const SwarmPlan plan = PlanOrFail(LoadShipped("monthly-rehearsal.json"));
  for (uint64_t seed : {1ULL, 2ULL, 77ULL, 18446744073709551615ULL}) {
    const config::Scenario a = MakeVariant(plan, seed);
    const config::Scenario b = MakeVariant(plan, seed);
    CHECK(a == b);
    CHECK(scenario::DumpCanonical(a) == scenario::DumpCanonical(b));
    CHECK(a.seed == seed);
  }
}

TEST_CASE("variant: different seeds give different fault sets", "[chaos][variant]") {
  const SwarmPlan plan = PlanOrFail(LoadShipped("monthly-rehearsal.json"));
  std::set<std::string> fault_sets;
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    config::Scenario v = MakeVariant(plan, seed);
    v.name.clear();
    v.description.clear();
    v.seed = 0;
    fault_sets.insert(scenario::DumpCanonical(v));
  }
  // Ten fault types, each on or off, with drawn parameters: repeats are rare, not impossible
  // (two seeds that switch everything off).
  CHECK(fault_sets.size() >= 98);
  CHECK(MakeVariant(plan, 1).faults != MakeVariant(plan, 2).faults);
}

// Under ASan and UBSan the 8,000 round trips take 96 s of CI's two cores (6 s plain): the
// sanitized build runs the first 25 seeds of each, the plain build all 100.
#ifdef DRAINSIM_SANITIZED
constexpr uint64_t kVariantSeeds = 25;
#else
constexpr uint64_t kVariantSeeds = 100;
#endif

TEST_CASE("variant: every variant of every shipped scenario loads and round-trips",
          "[chaos][variant]") {
  for (const std::string& name : ShippedScenarioNames()) {
    INFO(name);
    const config::Scenario base = LoadShipped(name);
    // The base's own length, and a short safety phase that clips producers and drops drains.
    for (const SwarmParams& params :
         {SwarmParams{}, SwarmParams{Duration::Seconds(300), Duration::Seconds(900)}}) {
      const PlanOrError made = MakeSwarmPlan(base, params);
      if (!made.plan) {
        // cleanup-0200 publishes nothing before 02:00: no swarm with a 300 s safety phase.
        CHECK(made.error.find("nothing is published in the safety phase") != std::string::npos);
        CHECK(params.safety.has_value());
        continue;
      }
      for (uint64_t seed = 1; seed <= kVariantSeeds; ++seed) {
        INFO("seed " << seed);
        const config::Scenario variant = MakeVariant(*made.plan, seed);
        const scenario::LoadResult loaded = ReloadVariant(variant);
        for (const auto& problem : loaded.problems) {
          UNSCOPED_INFO(scenario::FormatProblem("<variant>", problem));
        }
        REQUIRE(loaded.ok());
        CHECK(*loaded.scenario == variant);
      }
    }
  }
}

TEST_CASE("variant: every fault lies in the safety phase", "[chaos][variant]") {
  const config::Scenario base = LoadShipped("monthly-rehearsal.json");
  // A safety phase that is not a whole number of milliseconds: windows must still end by it.
  const Duration safety = Duration::Micros(437'123'456);
  const SwarmPlan plan = PlanOrFail(base, {safety, Duration::Seconds(3600)});
  const Instant safety_end = Instant::Zero() + safety;
  size_t faults_seen = 0;
  for (uint64_t seed = 1; seed <= 500; ++seed) {
    for (const config::Fault& fault : MakeVariant(plan, seed).faults) {
      INFO("seed " << seed << ", fault type " << static_cast<int>(config::TypeOf(fault)));
      CHECK(OutsideSafety(fault, safety_end) == "");
      ++faults_seen;
    }
  }
  CHECK(faults_seen > 1000);
}

// One count per fault type, however many there are.
using TypeCountArray = std::array<int, std::variant_size_v<config::Fault>>;

// Counts, over many seeds, how often each fault type is drawn.
TypeCountArray TypeCounts(const SwarmPlan& plan, uint64_t seeds) {
  TypeCountArray counts{};
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    std::set<FaultType> types;
    for (const config::Fault& fault : MakeVariant(plan, seed).faults) {
      CHECK(types.insert(config::TypeOf(fault)).second);  // one fault per type at most
      ++counts[static_cast<size_t>(config::TypeOf(fault))];
    }
  }
  return counts;
}

int Count(const TypeCountArray& counts, FaultType type) {
  return counts[static_cast<size_t>(type)];
}

TEST_CASE("variant: only the fault types that apply to the scenario, each half the time",
          "[chaos][variant]") {
  constexpr uint64_t kSeeds = 1000;
  const FaultType always[] = {kTypeOf<ErrorsFault>, kTypeOf<PoisonFault>, kTypeOf<WorkerCrashFault>,
                              kTypeOf<AckLossFault>, kTypeOf<BrokerRestartFault>};
  const FaultType database[] = {kTypeOf<DbSlowdownFault>, kTypeOf<DbOutageFault>,
                                kTypeOf<DbConnectionsFault>};
  const FaultType downstream[] = {kTypeOf<DownstreamOutageFault>,
                                  kTypeOf<DownstreamRateLimitFault>};
  auto about_half = [](int count) { return count > 430 && count < 570; };  // > 4 sd either way

  SECTION("database and downstream: every type but bug and synthetic_failures") {
    const auto counts = TypeCounts(PlanOrFail(LoadShipped("monthly-rehearsal.json")), kSeeds);
    for (FaultType t : always) CHECK(about_half(Count(counts, t)));
    for (FaultType t : database) CHECK(about_half(Count(counts, t)));
    for (FaultType t : downstream) CHECK(about_half(Count(counts, t)));
    CHECK(Count(counts, kTypeOf<BugFault>) == 0);
    CHECK(Count(counts, kTypeOf<SyntheticFailuresFault>) == 0);
    // The descriptors say the same (sim/config/fault_types.h): a type is drawn iff it is marked.
    for (const config::FaultDescriptor& d : config::FaultDescriptors()) {
      INFO(d.name);
      CHECK((Count(counts, d.type) > 0) == d.swarm_draws);
    }
  }
  SECTION("a database, no downstream API") {
    const auto counts = TypeCounts(PlanOrFail(LoadShipped("poison-pills.json")), kSeeds);
    for (FaultType t : always) CHECK(about_half(Count(counts, t)));
    for (FaultType t : database) CHECK(about_half(Count(counts, t)));
    for (FaultType t : downstream) CHECK(Count(counts, t) == 0);
  }
  SECTION("a downstream API, no database") {
    const auto counts = TypeCounts(PlanOrFail(LoadShipped("retry-storm-full-jitter.json")), kSeeds);
    for (FaultType t : always) CHECK(about_half(Count(counts, t)));
    for (FaultType t : database) CHECK(Count(counts, t) == 0);
    for (FaultType t : downstream) CHECK(about_half(Count(counts, t)));
  }
}

TEST_CASE("variant: a fault type's draws do not depend on which other types apply",
          "[chaos][variant]") {
  // poison-pills has a database and no downstream API; the same workload with a downstream
  // API added must get the same errors, poison, crash, ack-loss and restart faults.
  config::Scenario base = LoadShipped("poison-pills.json");
  const SwarmPlan without = PlanOrFail(base);
  config::Downstream api;
  api.call_ms = config::DistributionSpec::Constant(10);
  base.downstream = api;
  const SwarmPlan with = PlanOrFail(base);
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    auto no_downstream = [](std::vector<config::Fault> faults) {
      std::erase_if(faults, [](const config::Fault& f) {
        return config::TypeOf(f) == kTypeOf<DownstreamOutageFault> ||
               config::TypeOf(f) == kTypeOf<DownstreamRateLimitFault>;
      });
      return faults;
    };
    CHECK(no_downstream(MakeVariant(with, seed).faults) == MakeVariant(without, seed).faults);
  }
}

TEST_CASE("variant: crash counts fit the fleet and kinds exist", "[chaos][variant]") {
  const config::Scenario base = LoadShipped("lost-acks.json");
  const SwarmPlan plan = PlanOrFail(base);
  std::set<std::string> kinds_seen;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    for (const config::Fault& fault : MakeVariant(plan, seed).faults) {
      if (const auto* crash = std::get_if<config::WorkerCrashFault>(&fault)) {
        CHECK(crash->rate_per_h.has_value() != crash->at.has_value());
        if (crash->at) CHECK((crash->count >= 1 && crash->count <= base.workers.count));
      }
      if (const auto* poison = std::get_if<config::PoisonFault>(&fault)) {
        CHECK(base.kinds.count(poison->kind) == 1);
        CHECK(poison->fraction.has_value());
        CHECK_FALSE(poison->count.has_value());
        kinds_seen.insert(poison->kind);
      }
    }
  }
  CHECK(kinds_seen.size() == base.kinds.size());
}

TEST_CASE("variant: poison hangs only when the broker's receive count can end it",
          "[chaos][variant]") {
  config::Scenario base = LoadShipped("lost-acks.json");
  auto hangs = [](const SwarmPlan& plan) {
    int poison = 0;
    int hanging = 0;
    for (uint64_t seed = 1; seed <= 200; ++seed) {
      for (const config::Fault& fault : MakeVariant(plan, seed).faults) {
        if (const auto* p = std::get_if<config::PoisonFault>(&fault)) {
          ++poison;
          hanging += p->fail_after.has_value();
        }
      }
    }
    CHECK(poison > 50);
    return hanging;
  };
  // The base's own policy: with varied policies a drawn preset may bring a receive count.
  SwarmParams fixed_policy;
  fixed_policy.vary_policies = false;
  CHECK(hangs(PlanOrFail(base, fixed_policy)) == 0);
  base.broker.receive_count_max = 10;
  CHECK(hangs(PlanOrFail(base, fixed_policy)) > 20);
}

}  // namespace
}  // namespace variant_test
}  // namespace drainsim::chaos::testing
