// The chaos swarm's plan: what every variant of one base scenario shares, whatever its seed.
//
// A swarm run replays a base scenario many times, each time with a random set of faults drawn
// from a swarm seed (fault_draw.h). Each run has two phases:
//   safety phase   [0, safety_end): producers publish, faults act, drains may start;
//   liveness phase [safety_end, safety_end + liveness): no fault starts or is active, nothing
//                  is published, and by its end every message must rest (acked, parked,
//                  expired, or in the DLQ).
// MakeSwarmPlan turns the base into the variants' common skeleton: the base's faults and
// expectations removed, producers clipped to the safety phase, drains kept only when they start
// in it, and run.until moved to the end of the liveness phase. docs/SWARM.md has the reasons.
//
// Invariants of a plan returned by MakeSwarmPlan:
//  (1) 0 < safety_end, 0 < liveness, and skeleton.run.until == safety_end + liveness.
//  (2) skeleton.faults and skeleton.expect are empty.
//  (3) No producer can publish at or after safety_end; every drain starts before it.
//  (4) The skeleton still publishes something.
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/engine/time.h"
#include "sim/scenario/scenario.h"

namespace drainsim::chaos {

struct SwarmParams {
  // End of the safety phase (`--safety-s`). Default null: the base's run.until_s.
  std::optional<engine::Duration> safety;
  // Length of the liveness phase (`--liveness-s`), the bound within which every message must
  // come to rest once faults stop. Default null: DefaultLiveness(base).
  std::optional<engine::Duration> liveness;
};

struct SwarmPlan {
  scenario::Scenario skeleton;  // the base as every variant shares it; no faults yet
  engine::Instant safety_end;
  engine::Duration liveness;
  // What was changed from the base beyond dropping its faults, one sentence each, for the
  // swarm's header (a user should know a drain was dropped before reading its results).
  std::vector<std::string> notes;
};

struct PlanOrError {
  std::optional<SwarmPlan> plan;
  std::string error;  // set iff !plan: why this base and these params make no swarm
};

// REQUIRES: `base` came from the loader.
PlanOrError MakeSwarmPlan(const scenario::Scenario& base, const SwarmParams& params);

// A generous liveness bound for `base`, from its retry policy, timeouts and restarts: twice the
// longest retry chain plus, per attempt, a visibility timeout, the database timeouts of the
// slowest handler and the longest injected hang, plus a restart and a broker downtime, plus
// 600 s for the backlog left at the end of the safety phase. A heuristic: it knows nothing of
// throughput, so a scenario that ends its safety phase with a deep queue may need more.
// Whole seconds, at least 600 s.
engine::Duration DefaultLiveness(const scenario::Scenario& base);

// Seconds as the command line writes them: exact, no trailing zeros ("1800", "0.25").
std::string FormatSeconds(engine::Duration span);

}  // namespace drainsim::chaos
