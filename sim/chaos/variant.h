// One variant of a swarm: the plan's skeleton with the faults of one swarm seed.
//
// Contract:
//  (1) MakeVariant(plan, seed) is a pure function of its arguments.
//  (2) The variant's `seed` is the swarm seed, so `drainsim run` of its dump replays exactly
//      the run the swarm checked (the faults are part of the dump; the seed drives the rest).
//  (3) ReloadVariant loads the variant's canonical dump: the same rules as any scenario file.
//      A variant that fails them is a bug of the swarm, never of the user's input.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>

#include "sim/chaos/plan.h"
#include "sim/scenario/load.h"
#include "sim/scenario/scenario.h"

namespace drainsim::chaos {

scenario::Scenario MakeVariant(const SwarmPlan& plan, uint64_t seed);

// DumpCanonical, then LoadScenarioText: the variant as `drainsim run` would read it.
scenario::LoadResult ReloadVariant(const scenario::Scenario& variant);

}  // namespace drainsim::chaos
