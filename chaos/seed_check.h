// The checks the swarm makes on one seed, in the process that calls it (isolate.h adds the
// fork around it).
//
// In order, stopping early only where a later check would be meaningless:
//  (1) validity: the drawn policy loads (policy_draw.h) and the variant's canonical dump loads
//      (else kCorrectness, and nothing runs);
//  (2) conservation: a run with RunOptions::audit_every_event (the model fails a
//      DRAINSIM_CHECK the moment its ledger and its messages disagree), then on the Results
//      lost == 0, published == acked + parked + expired + dlq_end + rejected + broker_lost +
//      not_terminal_end, and broker_lost's causes add up to it;
//  (3) determinism: a second run, without the audit, gives the same fingerprint and headline
//      figures (which also shows the audit only observes);
//  (4) model invariants: the run reported no Results::model_error (e.g. "quiet_end": it ended
//      with nothing left to happen while messages still waited, a stall of the model);
//  (5) liveness: the run was not stopped by run.events_max, and nothing was ready, delayed or
//      in flight when it ended (not_terminal_end == dead_letter_waiting_end: dead letters a full
//      DLQ refused wait, at rest, for room). Not judged after a model error, which
//      already accounts for those messages. A run that reaches RunOptions::pending_messages_max
//      (the model's default cap; simulation.h (6)) is abandoned there: messages piled up without
//      bound, so it fails (5) too, and nothing else of it is judged.
// (2), (3) and (4) fail kCorrectness, (5) kLiveness.
//
// Thread-safety: reentrant; each call runs its own simulations.
#pragma once

#include <cstdint>

#include "chaos/plan.h"
#include "chaos/seed_report.h"
#include "sim/model/results.h"

namespace drainsim::chaos {

SeedReport CheckSeed(const SwarmPlan& plan, uint64_t seed);

// Checks (4) and (5) on a finished run's results (CheckSeed's last step); `liveness` is the
// variant's bound (variant.h).
void JudgeEnd(const SwarmPlan& plan, const model::Results& results, engine::Duration liveness,
              SeedReport& report);

}  // namespace drainsim::chaos
