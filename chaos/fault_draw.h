// The chaos swarm's fault generator: from a swarm seed, a random set of faults that all act in
// the safety phase of a plan (plan.h).
//
// Each fault type that applies to the scenario is switched on with probability 1/2 and, when
// on, gets one fault whose parameters are drawn from the seed, field by field as the type's
// table says (sim/config/faults.h: which fields, from which ladder), with small hooks for the
// draws that depend on the scenario or the safety phase. Applicable: errors, poison (by
// fraction), worker_crash, ack_loss and broker_restart always; db_slowdown, db_outage and
// db_connections with a database; downstream_outage and downstream_rate_limit with a
// downstream API. bug and synthetic_failures are never drawn (docs/SWARM.md says why). Poison
// hangs before failing (fail_after_ms) only when the broker has a receive_count_max: without
// one, a pill that outlasts its visibility timeout is delivered again for ever, which no
// liveness phase can heal.
//
// Invariants of DrawFaults(skeleton, safety_end, seed):
//  (1) Same arguments, same faults: every draw comes from the project's generator, on the
//      stream Rng::ForStream(seed, StreamId("swarm"), fault type), never from the standard
//      library. One stream per type, so the faults of one type do not change when the scenario
//      makes another type applicable or not (a database added, say).
//  (2) Every window lies in [0, safety_end), every instant (at, from) before safety_end, and a
//      broker restart's downtime ends by safety_end.
//  (3) Rates, probabilities and factors come from fixed 1-2-5 ladders (the tables'), and times
//      are whole milliseconds: exact in a dump, the same on every platform.
//  (4) The faults satisfy the loader's rules for `skeleton` (kinds exist, worker counts fit,
//      database and downstream faults only where those sections exist).
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/config/config.h"
#include "sim/engine/time.h"

namespace drainsim::chaos {

// REQUIRES: safety_end >= 1 ms; `skeleton` came from MakeSwarmPlan (or the loader).
std::vector<config::Fault> DrawFaults(const config::Scenario& skeleton, engine::Instant safety_end,
                                      uint64_t seed);

// The longest injected hang (`fail_after_ms`) and broker downtime DrawFaults ever picks, for
// the default liveness bound.
engine::Duration FailAfterMax();
engine::Duration BrokerDowntimeMax();

}  // namespace drainsim::chaos
