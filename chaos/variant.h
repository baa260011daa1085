// One variant of a swarm: the plan's skeleton with the policy and the faults of one swarm seed.
//
// Contract:
//  (1) DrawVariant(plan, seed) is a pure function of its arguments.
//  (2) The variant's `seed` is the swarm seed, so `drainsim run` of its dump replays exactly
//      the run the swarm checked (policy and faults are part of the dump; the seed drives the
//      rest).
//  (3) With plan.vary_policies, the policy is drawn first (policy_draw.h), then the faults on
//      the drawn scenario (fault_draw.h: poison hangs only with a receive_count_max); without,
//      the skeleton's policy is kept. The run lasts until safety_end + VariantLiveness.
//  (4) ReloadVariant loads the variant's canonical dump: the same rules as any scenario file.
//      A variant that fails them (or a drawn policy the loader refuses) is a bug of the swarm,
//      never of the user's input.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "chaos/plan.h"
#include "sim/config/config.h"
#include "sim/scenario/load.h"

namespace drainsim::chaos {

struct Variant {
  std::optional<config::Scenario> scenario;  // set iff problems is empty
  // What the policy draw chose ("preset: sqs", "budget: off", ...); empty when policies are
  // not varied.
  std::vector<std::string> policy;
  std::vector<std::string> problems;  // the drawn policy the loader refused
  engine::Duration liveness;          // this variant's bound (VariantLiveness)
};

Variant DrawVariant(const SwarmPlan& plan, uint64_t seed);

// DrawVariant's scenario. REQUIRES: the draw succeeds (checked): for tests and callers that
// have already seen it succeed.
config::Scenario MakeVariant(const SwarmPlan& plan, uint64_t seed);

// DumpCanonical, then LoadScenarioText: the variant as `drainsim run` would read it.
scenario::LoadResult ReloadVariant(const config::Scenario& variant);

}  // namespace drainsim::chaos
