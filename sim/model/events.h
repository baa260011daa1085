// The events of a run: a 16-byte payload for engine::EventQueue.
//
// The engine orders events by (time, insertion order) and knows nothing of their meaning;
// this header gives them one. `a` and `b` are interpreted per type (documented beside each
// type). References to records that may have been freed carry a generation, and a handler
// that finds a stale one does nothing.
#pragma once

#include <cstdint>

#include "sim/engine/time.h"

namespace drainsim::model {

enum class EventType : uint8_t {
  kProducerTick,       // a = producer index: publish the producer's next message(s)
  kDelayDue,           // a = message slot, b = message generation: a delayed retry is due
  kVisibilityExpired,  // the earliest pending visibility timeout is due (World::visibility_timers_)
  kAttemptStep,        // a = attempt slot, b = attempt generation: the current step ended
  kDbServiceEnd,       // a = query slot, b = query generation
  kDbDeadline,         // the earliest pending statement timeout is due (Database::deadlines_)
  kLiveQuery,          // a live-traffic query arrives
  kSample,             // take a time-series sample
  kFaultEdge,          // a = fault index, b = 1 when the window opens, 0 when it closes
  kWorkerCrash,        // a = worker index (or all), b = crash fault index
  kWorkerRestart,      // a = worker index, b = worker generation
  kBrokerRestart,      // a = fault index: requeue every unacked delivery
  kBrokerResume,       // the broker is back after a restart's downtime and recovery
  kDlqExpire,          // a = message slot, b = (generation << 32) | dead-letter count
  kDrainTick,          // a = drain index: the drain may replay its next message(s)
  kDrainAdjust,        // a = drain index: an adaptive drain re-reads database health
  kBreakerHalfOpen,    // the circuit breaker's open period ended
  kEtaDue,             // a = worker index, b = worker generation: held ETA copies may be due
  kLockExpired,        // a = message slot, b = (generation << 32) | delivery generation
  kStalledCheck,       // same payload as kLockExpired: the stalled-job check acts on it
  kStop,               // run.until reached
  // Tests only (RunOptions::test_stall_at): the broker stops delivering for good, a stall on
  // purpose for the tests of simulation.h's invariant (5). Last, so the other values (and so
  // every fingerprint) stay as they were.
  kTestStall,
  // Tests only (RunOptions::test_defect): b = 0 makes the defect, 1 heals it. After kTestStall
  // for the same reason.
  kTestDefect,
  // The DLQ lost an entry while dead letters wait for room (dead_letter_strategy at_least_once):
  // the oldest waiting enter. After the tests' types for the same reason as they.
  kDeadLetterRoom,
  // a = message slot, b = message generation: a return the broker held back
  // (broker.delayed_retry) is due; it joins the returned messages. Last, for the same reason.
  kReturnDue,
  // a = worker index, b = worker generation: the worker crashed broker.session_timeout ago; if
  // it is still down its group rebalances (broker.partitions). Last, for the same reason.
  kSessionTimeout,
  // A Lambda event-source mapping's scale-up is due (workers.lambda_esm; EsmPollers). Last, for
  // the same reason.
  kEsmScale,
  // a = worker index, b = worker generation: an idle consumer's auto-commit timer is due
  // (broker.offset_commit "auto", world_kafka.cc). Last, for the same reason.
  kAutoCommitDue,
  // workers.autoscale (world_autoscale.cc), last for the same reason; none is essential (worker
  // 0 never waits for one). kAutoscaleTick: a decision is due. kAutoscaleStart: a = worker,
  // b = its epoch: it can receive (lag after the scale-up). kAutoscaleKill: a = worker, b = its
  // epoch: its grace period after a scale-down is over.
  kAutoscaleTick,
  kAutoscaleStart,
  kAutoscaleKill,
};

struct Event {
  EventType type;
  uint32_t a = 0;
  uint64_t b = 0;
};
static_assert(sizeof(Event) == 16);

// What components that schedule events see of the run: a clock and a way to say "later".
class Scheduler {
 public:
  virtual ~Scheduler() = default;
  virtual engine::Instant Now() const = 0;
  // REQUIRES: at >= Now().
  virtual void At(engine::Instant at, Event event) = 0;
};

}  // namespace drainsim::model
