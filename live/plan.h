// What a live run publishes and which messages are fated to fail, taken from the simulation of
// the same scenario and seed, so that the live run meets the same luck: the same publish
// instants, the same ids and keys, the same poison messages. And which scenarios it can run.
//
// Contract:
//  (1) CheckLiveSupport() returns one Problem per scenario feature that `drainsim live` does not
//      run for real yet, at its JSON pointer ("/faults/2/type: db_slowdown is not supported by
//      drainsim live yet"); MakePlan() REQUIRES that it returned none.
//  (2) MakePlan() runs the simulation once (model::RunSimulation with an observer, which never
//      changes a run) and keeps its publishes in id order; publish_at_s never decreases.
//  (3) A message is fated to fail (fate set) iff the simulation failed one of its attempts by an
//      injected fault (poison, synthetic_failures), or it is among the `count` first messages of
//      a poison fault's kind published at or after its `from_s` (so that a poison pill the
//      simulation never got to attempt is still poison live).
//  (4) The simulation's own figures for the run are kept (`simulated`) for the side-by-side.
//  (5) A message of a backlog entry with `where: dlq` has `dlq` set with the entry's reason,
//      last error and attempts: the live run puts it into the DLQ before it starts (never into
//      the main queue), with the same id, kind and key as the simulation's.
//  (6) Worker crashes and lost acks (live/fault_plan.h): a message's `success_fates` say which of
//      its successes (the n-th commit or claim suppression, from 1) the simulation followed by a
//      crash between commit and ack, or whose ack it lost; `crashes` lists every crash the
//      simulation drew (worker, instant), in time order, and `faults` the duplicates that
//      followed them there.
//  (7) backoff_us holds every backoff the simulation waited for a message (a republish's delay,
//      a sleep_in_consumer's sleep), by the attempt in its life that failed (live/retry_plan.h).
//  (8) Faults that fail particular attempts (live/attempt_fates.h): execution_fates pin the
//      attempts the simulation failed through an `errors` fault, by the message's execution
//      number over all its lives; bug_fates say which `bug` faults made the message a victim.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/model/results.h"
#include "sim/scenario/load.h"

namespace drainsim::live {

struct Fate {
  int fault_index = -1;
  config::ErrorClass error = config::ErrorClass::kPermanent;
  std::optional<double> fail_after_ms;  // null: right after validation
};

// A message that starts the run in the DLQ (a backlog entry with `where: dlq`).
struct DlqStart {
  config::DlqReason reason = config::DlqReason::kMaxAttempts;
  config::ErrorClass error = config::ErrorClass::kTransient;
  int32_t attempts = 1;  // attempts already made in its life before the run
};

enum class SuccessFault { kCrashAfterCommit, kAckLost };

struct SuccessFate {
  int success = 0;  // the message's n-th success (a commit or a claim suppression), from 1
  SuccessFault what = SuccessFault::kAckLost;
  int fault_index = -1;
};

// A worker crash the simulation drew: worker `worker` (0 .. workers.count - 1) at `at_s`.
struct PlannedCrash {
  uint32_t worker = 0;
  double at_s = 0;
  bool after_commit = false;  // point between_commit_and_ack: it hit the commit of message_id
  int64_t message_id = -1;
};

// What followed the fates in the simulation, counted as drainsim live counts it
// (live/fault_plan.h).
struct FaultFigures {
  bool active = false;             // the scenario has a worker_crash or ack_loss fault
  int64_t crash_after_commit = 0;  // successes followed by a crash between commit and ack
  int64_t acks_lost = 0;
  int64_t crashes = 0;                 // every crash, whatever its point
  int64_t duplicates_after_fault = 0;  // commits of a fated message after its fated success
  int64_t suppressed_after_fault = 0;  // claim suppressions of the same
};

// An attempt an `errors` fault failed in the simulation: the message's execution (its attempts
// over all lives, from 1) and the failure (live/attempt_fates.h).
struct ExecutionFate {
  int32_t execution = 0;
  Fate fate;
};

// A `bug` fault whose victim the message is: its attempts started in [from_s, fixed_at_s) fail.
struct BugFate {
  Fate fate;
  double from_s = 0;
  std::optional<double> fixed_at_s;  // null: never fixed
};

// The simulation's failures by errors and bug faults, counted as drainsim live counts them.
struct InjectedFigures {
  bool errors = false;        // the scenario has an errors fault
  bool bug = false;           // ... a bug fault
  int64_t errors_failed = 0;  // attempts failed by an errors fault
  int64_t bug_failed = 0;     // attempts failed by a bug fault
  int64_t bug_victims = 0;    // messages a bug fault chose
};

struct PlannedMessage {
  uint64_t id = 0;
  uint32_t kind_index = 0;  // the scenario's kinds in name order
  std::string kind;
  std::string key;
  double publish_at_s = 0;
  std::optional<Fate> fate;
  std::optional<DlqStart> dlq;  // set: in the DLQ at the start, not published by a producer
  std::vector<SuccessFate> success_fates;  // by success number
  // The simulation's backoff after its attempt n failed, at [n - 1] (µs; -1: none drawn), for
  // republish and sleep_in_consumer (live/retry_plan.h).
  std::vector<int64_t> backoff_us;
  std::vector<ExecutionFate> execution_fates;  // by execution
  std::vector<BugFate> bug_fates;              // in fault order
};

struct Plan {
  std::vector<PlannedMessage> messages;  // by id (= publish order)
  std::vector<std::string> kind_names;   // by kind_index
  std::vector<PlannedCrash> crashes;     // in time order
  FaultFigures faults;                   // the simulation's
  InjectedFigures injected;              // the simulation's (live/attempt_fates.h)
  model::Results simulated;
  int64_t dlq_count() const {  // messages in the DLQ at the start
    int64_t n = 0;
    for (const PlannedMessage& m : messages) n += m.dlq ? 1 : 0;
    return n;
  }
  uint64_t seed = 0;
};

std::vector<scenario::Problem> CheckLiveSupport(const config::Scenario& scenario);

// REQUIRES: CheckLiveSupport(scenario) is empty.
Plan MakePlan(const config::Scenario& scenario, uint64_t seed);

}  // namespace drainsim::live
