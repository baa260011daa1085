// Watching a run from outside: what happened to each message, attempt, fault and drain, as it
// happened, for the trace format, `drainsim explain` and the progress line.
//
// The model calls a RunObserver (RunOptions::observer) at the few places that already centralise
// these things (World::Transition, StartAttempt, DatabaseEvent, Commit, Succeed, Fail, CrashWorker,
// FaultEdge, StartDrain/EndDrain, the event loop). The callbacks receive plain structs: times as
// engine::Instant (µs), indices, enums; no string is built for a callback except the key, and
// only for an observer that asks for keys.
//
// Contract:
//  (1) Observers never change a run: the callbacks get copies or const views, and nothing the
//      model does depends on whether an observer is attached. Same scenario + seed -> the same
//      Results and fingerprint with or without one (tests/model/observer_test.cc).
//  (2) Callbacks arrive in the order things happen, on the thread running the simulation, at
//      the simulated instant `at`, which never decreases.
//  (3) With RunOptions::observer null the hooks cost one well-predicted branch each.
//  (4) WantsMessages() and WantsKeys() are asked once, before the run starts.
//
// Thread-safety: an observer is used by the one thread running its simulation.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/config/enums.h"
#include "sim/engine/time.h"
#include "sim/model/message.h"
#include "sim/model/message_state.h"
#include "sim/model/results.h"

namespace drainsim::model {

// How an attempt (one execution of the handler on one worker) ended.
enum class AttemptOutcome : uint8_t {
  kSucceeded,   // the work committed and the handler returned; AckFate says what the ack did
  kSuppressed,  // the claim row showed earlier work: it returned without redoing the work
  kFailed,      // a step failed (`error`, `failure`); the retry policy routes the message
  kCrashed,     // its worker died while it ran or slept through its backoff
};

// What became of a returning attempt's ack.
enum class AckFate : uint8_t {
  kNone,        // no ack: failed or crashed
  kAcked,       // the broker took it: the message is done
  kLost,        // an ack_loss fault ate it: the visibility timeout will deliver it again
  kBrokerDown,  // sent while the broker was restarting: lost too
  kIgnored,     // the message was no longer in flight (acked by another copy, or in the DLQ)
};

// Where a failed attempt's error came from.
enum class FailureCause : uint8_t {
  kNone,
  kInjected,          // a fault fated it (`fault`: poison, synthetic_failures, bug, errors)
  kDbTimeout,         // a database query hit the statement timeout
  kDbRefused,         // the database refused the query (db_outage)
  kDownstreamOutage,  // the downstream API answered 503
  kRateLimited,       // the downstream API answered 429
};

// Why a message changed state.
enum class TransitionCause : uint8_t {
  kDelivered,          // ready -> in_flight: handed to `worker`
  kRetryDue,           // delayed -> ready: its backoff ended
  kVisibilityTimeout,  // in_flight -> ready: no ack in time; `redelivery` says what kept it
  kCrashRequeue,       // in_flight -> ready: its worker crashed (requeue_on_crash immediate)
  kBrokerRestart,      // in_flight -> ready: the broker restarted
  kRetryScheduled,     // in_flight -> delayed: a retry is due at `until`
  kDeadLettered,       // -> dead_lettered with `dlq_reason`
  kReplayed,           // dead_lettered -> ready: drain `drain` replayed it
  kParkedByPolicy,     // in_flight -> parked: the retry policy parks `last_error`
  kParkedByDrain,      // dead_lettered -> parked: drain `drain` did not select it
  kAcked,              // in_flight -> acked
  kExpired,            // dead_lettered -> expired: DLQ retention ran out
  kRejected,           // ready -> rejected: refused at publish by a full queue
  kReturned,           // in_flight -> ready/delayed: nack, reject or abandon by the consumer
  kRetentionExpired,   // ready -> expired: main-queue retention ran out
  kFailed,             // -> parked: would be dead-lettered, but the broker has no DLQ
  kBrokerLost,         // -> broker_lost: the broker discarded it, for the message's `loss` cause
  kDeadLetterWaiting,  // -> dead_letter_waiting: the DLQ refused it; at least once, it waits
  // ready -> in_flight: a Lambda event-source mapping's poller received it and the invocation
  // was throttled (workers.lambda_esm): not processed, back when its visibility timeout ends.
  kThrottled,
};

// A fault window opening or closing, or a fault that strikes at an instant (a worker crash, a
// broker restart).
enum class FaultEdge : uint8_t { kOpen, kClose, kStrike };

// "opens", "closes", "strikes": how the trace names a fault's edge.
std::string_view FaultEdgeName(FaultEdge edge);

struct PublishInfo {
  engine::Instant at;            // now (the backlog: time 0)
  engine::Instant published_at;  // first publish (the backlog: before time 0, by its age)
  uint64_t message_id = 0;
  uint32_t kind_index = 0;    // the scenario's kinds in name order
  uint32_t source_index = 0;  // producer index, or backlog entry index when from_backlog
  bool from_backlog = false;
  MessageState state = MessageState::kReady;  // ready, delayed or dead_lettered
  // dead_lettered: why it is in the DLQ (a backlog entry's reason; a second DLQ copy's, its
  // original's).
  config::DlqReason dlq_reason = config::DlqReason::kMaxAttempts;
  std::string_view key;  // its idempotency key, valid during the call; empty unless WantsKeys()
};

struct TransitionInfo {
  engine::Instant at;
  uint64_t message_id = 0;
  uint32_t kind_index = 0;
  MessageState from = MessageState::kReady;
  MessageState to = MessageState::kReady;
  TransitionCause cause = TransitionCause::kDelivered;
  int32_t worker = -1;    // kDelivered
  engine::Instant until;  // kRetryScheduled: when the retry is due
  int32_t drain = -1;     // kReplayed, kParkedByDrain
  config::DlqReason dlq_reason = config::DlqReason::kMaxAttempts;  // kDeadLettered
  config::ErrorClass last_error = config::ErrorClass::kUnknown;    // its latest failure
  RedeliveryCause redelivery = RedeliveryCause::kNone;  // kVisibilityTimeout, kCrashRequeue
  int32_t attempts = 0;                                 // attempts in its current life so far
  BrokerLossCause loss = BrokerLossCause::kDlqFull;     // kBrokerLost
};

// An attempt is named by its slot while it runs: the slot is reused only after it ended.
struct AttemptInfo {
  engine::Instant at;
  uint64_t message_id = 0;
  uint32_t kind_index = 0;
  uint32_t slot = 0;
  uint32_t worker = 0;
  int32_t attempt = 0;    // in the message's current life, from 1
  int32_t execution = 0;  // over all its lives, from 1
};

// The end of the attempt that AttemptInfo started in the same `slot` (its attempt number is
// there: a stale copy may end after the message has started later attempts).
struct AttemptEndInfo {
  engine::Instant at;
  uint64_t message_id = 0;
  uint32_t kind_index = 0;
  uint32_t slot = 0;
  uint32_t worker = 0;
  AttemptOutcome outcome = AttemptOutcome::kSucceeded;
  AckFate ack = AckFate::kNone;
  config::ErrorClass error = config::ErrorClass::kUnknown;  // kFailed
  FailureCause failure = FailureCause::kNone;               // kFailed
  int32_t fault = -1;  // kFailed by kInjected: the fault's index in the scenario
  // The delivery was still the message's current one; false for a stale copy, whose message
  // the broker had already handed out again (its failure routes nothing, its ack is ignored).
  bool current = true;
};

// The handler's transaction committed (just before the ack, or before a crash between commit
// and ack).
struct CommitInfo {
  engine::Instant at;
  uint64_t message_id = 0;
  uint32_t kind_index = 0;
  uint32_t slot = 0;  // the attempt that committed
  uint32_t worker = 0;
  bool duplicate = false;  // its key had already committed: the work ran again
  DuplicateCause duplicate_cause = DuplicateCause::kOther;  // when duplicate
  bool visible = false;  // a duplicate of a kind with idempotency `none`
};

// A database statement an attempt made (the idempotency claim or one of the handler's db_ops),
// reported when the database answered: `start` is when the attempt submitted it, `at` when it
// completed, so the span covers the wait for a connection and the service. A statement still
// running when its worker crashed, or when the run stopped, is not reported.
struct StatementInfo {
  engine::Instant at;
  engine::Instant start;
  uint64_t message_id = 0;
  uint32_t kind_index = 0;
  uint32_t slot = 0;  // the attempt that made it
  uint32_t worker = 0;
  bool claim = false;                          // the claim row's insert, not a db op
  FailureCause failure = FailureCause::kNone;  // kDbTimeout or kDbRefused when it failed
};

// A sleep_in_consumer retry: the worker keeps the message and its slot until `until`, then
// runs the next attempt itself (in the same slot).
struct SleepInfo {
  engine::Instant at;
  uint64_t message_id = 0;
  uint32_t slot = 0;  // the attempt that failed
  uint32_t worker = 0;
  engine::Instant until;
};

class RunObserver {
 public:
  virtual ~RunObserver() = default;

  // false: the per-message callbacks (publish, transitions, attempts, commits, sleeps,
  // releases) are not called at all, and cost nothing.
  virtual bool WantsMessages() const { return true; }
  // true: PublishInfo::key holds the message's key (rendered only for such an observer).
  virtual bool WantsKeys() const { return false; }

  // Per message.
  virtual void OnPublish(const PublishInfo&) {}
  virtual void OnTransition(const TransitionInfo&) {}
  virtual void OnAttemptStart(const AttemptInfo&) {}
  virtual void OnAttemptEnd(const AttemptEndInfo&) {}
  virtual void OnCommit(const CommitInfo&) {}
  virtual void OnStatement(const StatementInfo&) {}
  virtual void OnSleep(const SleepInfo&) {}
  // The message is terminal and no worker holds a copy: nothing more happens to it.
  virtual void OnReleased(uint64_t /*message_id*/, engine::Instant /*at*/) {}

  // Per run.
  virtual void OnFaultEdge(uint32_t /*fault*/, FaultEdge /*edge*/, engine::Instant /*at*/) {}
  virtual void OnWorkerCrash(uint32_t /*worker*/, bool /*after_commit*/, engine::Instant /*at*/) {}
  virtual void OnWorkerRestart(uint32_t /*worker*/, engine::Instant /*at*/) {}
  virtual void OnDrainStart(uint32_t /*drain*/, engine::Instant /*at*/) {}
  virtual void OnDrainEnd(uint32_t /*drain*/, engine::Instant /*at*/) {}
  // Every 2^16 events: the simulated clock `now`, the run's end `until`, events so far.
  virtual void OnProgress(engine::Instant /*now*/, engine::Instant /*until*/, int64_t /*events*/) {}
};

// Forwards every callback to several observers, in the order given (e.g. a trace recorder and
// the progress line). Wants messages or keys iff one of them does. The observers are not
// owned and must outlive the tee.
class ObserverTee final : public RunObserver {
 public:
  explicit ObserverTee(std::vector<RunObserver*> observers);
  bool WantsMessages() const override;
  bool WantsKeys() const override;
  void OnPublish(const PublishInfo& info) override;
  void OnTransition(const TransitionInfo& info) override;
  void OnAttemptStart(const AttemptInfo& info) override;
  void OnAttemptEnd(const AttemptEndInfo& info) override;
  void OnCommit(const CommitInfo& info) override;
  void OnStatement(const StatementInfo& info) override;
  void OnSleep(const SleepInfo& info) override;
  void OnReleased(uint64_t message_id, engine::Instant at) override;
  void OnFaultEdge(uint32_t fault, FaultEdge edge, engine::Instant at) override;
  void OnWorkerCrash(uint32_t worker, bool after_commit, engine::Instant at) override;
  void OnWorkerRestart(uint32_t worker, engine::Instant at) override;
  void OnDrainStart(uint32_t drain, engine::Instant at) override;
  void OnDrainEnd(uint32_t drain, engine::Instant at) override;
  void OnProgress(engine::Instant now, engine::Instant until, int64_t events) override;

 private:
  std::vector<RunObserver*> all_;
  std::vector<RunObserver*> messages_;  // those that want the per-message callbacks
};

}  // namespace drainsim::model
