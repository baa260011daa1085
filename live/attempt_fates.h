// The `errors` and `bug` faults for `drainsim live` (issue 14, "faults for real"): which attempts
// fail live, taken from the simulation of the same seed.
//
// What the model does (sim/model/world_faults.cc, InjectedFailure; world_publish.cc,
// AssignPublishFates), and what a live run does:
//  - errors: each attempt of a message of the fault's kind, started while its window is open,
//    fails with `probability`, drawn on the stream (seed, fates + fault, (id << 20) ^ execution),
//    where `execution` counts the message's attempts over all its lives (replays included). The
//    plan records every (message, execution) the simulation failed through an errors fault
//    (AttemptFateRecorder), and live the message's execution with that number fails with the
//    fault's class after its fail_after: exactly the attempts the simulation failed, whatever
//    the wall clock. An execution the simulation never made (a live database timeout added one)
//    has no fate and runs normally.
//  - bug: at publish the model draws once per message of the kind (stream (seed, fates + fault,
//    id)) whether it is a victim (`fraction`); a victim's attempts started at or after `from_s`
//    and before `fixed_at_s` fail. The plan recomputes that draw for every message (the same
//    stream and comparison: BugVictim), and live a victim fails while the run's clock (wall
//    seconds since the plan's time 0, as db_outage's) is in [from_s, fixed_at_s) at the
//    attempt's start. So the victims are exactly the model's; which of their attempts fail
//    depends on when they run, exact except for attempts within the live run's lag of the fix.
// The worker reads the pins from the plan (the same process), as it reads success_fates
// (live/fault_plan.h), by the message id and execution it knows: a header would have to follow
// every republished copy and drain replay of the message.
// The message-level fates (poison, synthetic_failures: PlannedMessage::fate) come first, as
// they fail every attempt; among attempt fates, the lowest fault index wins, as the model's loop
// over the faults.
//
// Contract:
//  (1) AttemptFateRecorder observes one simulation without changing it; Finish() writes, for
//      every message, execution_fates (sorted by execution, one per execution) and bug_fates
//      (in fault order), and Plan::injected (the simulation's failures by errors and bug).
//  (2) Finish() CHECKs that every message the simulation failed through a bug fault is a
//      recomputed victim of it (a model change that moved the draw would fail here, loudly).
//  (3) AttemptFate() is pure: the fate of execution `execution` (from 1) of message `m`
//      started at `now_s`, or nullopt.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "live/plan.h"
#include "sim/model/observer.h"

namespace drainsim::live {

// Whether the model makes message `id` a victim of bug fault `fault_index` (fault of `bug`'s
// kind). REQUIRES: the message's kind is bug.kind.
bool BugVictim(const config::BugFault& bug, uint64_t seed, int fault_index, uint64_t id);

// A drain's planned start: start_at_s, or start_after_fix_s after the latest fixed_at_s of the
// bug faults (World::ScheduleDrains). REQUIRES: a loaded scenario (one of the two is set, and
// start_after_fix_s only with a fixed bug).
engine::Instant DrainStartAt(const config::Scenario& scenario, const config::Drain& drain);

// The fate of one live attempt by the errors and bug faults (contract (3)).
std::optional<Fate> AttemptFate(const PlannedMessage& m, int32_t execution, double now_s);

class AttemptFateRecorder : public model::RunObserver {
 public:
  explicit AttemptFateRecorder(const config::Scenario& scenario) : scenario_(scenario) {}
  void OnAttemptStart(const model::AttemptInfo& info) override;
  void OnAttemptEnd(const model::AttemptEndInfo& info) override;
  // REQUIRES: the simulation has ended and plan->messages holds its publishes.
  void Finish(Plan* plan) const;

 private:
  const config::Scenario& scenario_;
  std::vector<int32_t> slot_execution_;  // the execution running in each slot
  // errors: (message, execution) -> fault index; bug: (message, fault index) failed at least once.
  std::map<std::pair<uint64_t, int32_t>, int> errors_;
  std::set<std::pair<uint64_t, int>> bug_failed_;
  int64_t bug_failures_ = 0;
};

}  // namespace drainsim::live
