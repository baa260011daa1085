// The state of one run and the handlers that change it (internal to sim/model).
//
// World coordinates: it routes each event to its handler and does to the messages what the
// components decide. Its handlers are split over files by topic:
//   world.cc          the event loop, the fingerprint, the run's end
//   world_events.cc   routing each event to its handler
//   world_audit.cc    the test defects' schedule
//   world_publish.cc  producers' ticks, the backlog, fates decided at publish
//   world_broker.cc   delivery, visibility timeouts, the delay queue, parking
//   world_crash.cc    worker crashes and restarts, rebalances, broker restarts
//   world_ordered.cc  Pub/Sub ordering keys (message_group_kind ordering_key)
//   world_kafka.cc    Kafka polls and offset commits (offset_commit other than record)
//   world_esm.cc      a Lambda event-source mapping's pollers
//   world_autoscale.cc  an autoscaled pool's decisions, starts and graceful removals
//   world_dlq.cc      dead-lettering, the DLQ's retention and cap, what the broker loses
//   world_attempt.cc  handler steps, successes, commits
//   world_retry.cc    failures, and doing to the message what the retry policy decides
//   world_lease.cc    leases, ETAs, consumer timeouts
//   world_faults.cc   fault windows' edges, crashes
//   world_drain.cc    drain plans: what they decide, done to the messages
//   world_policy.cc   acting on the retry budget and circuit breaker
//   world_metrics.cc  what only World sees for the metrics: a row's instant columns, the oldest
//                     message, the final Results
// Components with their own state and a narrow interface:
//   BrokerQueues (broker_queues.h)  the main queue, visibility timeouts, the DLQ, the pipeline's
//                                   entries, whether the broker is down
//   FaultSchedule (fault_schedule.h)  open fault windows, the fates they assign
//   RetryRouter (retry_router.h)  the retry policy's routing by error class, backoffs; it owns
//                                 RetryBudget and CircuitBreaker (retry_guards.h)
//   WorkerPool (worker_pool.h)  workers, the copies they hold (buffers, ETA holds, withheld
//                               lost acks) and their counts, the ring, attempt slots, crashes
//   DrainPlans (drain_plan.h)  starts, selections, lists, pace, the adaptive rate
//   RunMetrics (run_metrics.h)  the Results being built, the series' rows and interval counts,
//                               the DLQ inspector, time averages, human-needed tallies
//   Database (database.h)  connections, the wait queue, statement timeouts
//   LiveTraffic (live_traffic.h)  the database's other traffic: arrivals, service draws
//   Downstream (downstream.h)  the API's call durations, rate limit (TokenBucket), Retry-After
//   Producers (producers.h)  schedules, where each producer stands in its own, arrivals streams
//   IdempotencyKeys (idempotency_keys.h)  key patterns by source, the state of shared keys
//   LedgerAudit (ledger_audit.h)  the audit of the ledger, the test defects
//   MessageNotifier (message_notifier.h)  what RunOptions::observer sees of the messages
// See simulation.h for the invariants.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/engine/event_queue.h"
#include "sim/engine/rng.h"
#include "sim/model/autoscaler.h"
#include "sim/model/backoff.h"
#include "sim/model/broker_queues.h"
#include "sim/model/database.h"
#include "sim/model/downstream.h"
#include "sim/model/drain_plan.h"
#include "sim/model/durations.h"
#include "sim/model/esm_pollers.h"
#include "sim/model/events.h"
#include "sim/model/fault_schedule.h"
#include "sim/model/group_kinds.h"
#include "sim/model/group_tallies.h"
#include "sim/model/idempotency_keys.h"
#include "sim/model/kafka_commit.h"
#include "sim/model/ledger_audit.h"
#include "sim/model/live_traffic.h"
#include "sim/model/message.h"
#include "sim/model/message_notifier.h"
#include "sim/model/observer.h"
#include "sim/model/producers.h"
#include "sim/model/results.h"
#include "sim/model/retry_router.h"
#include "sim/model/run_metrics.h"
#include "sim/model/simulation.h"
#include "sim/model/worker_pool.h"

namespace drainsim::model {

// Stream names: every random decision draws from Rng::ForStream(seed, component, entity).
// kStreamArrivals ("arrivals"): producers.h. kStreamFates ("fates"): fault_schedule.h.
// kStreamLive ("live"): live_traffic.h.
inline constexpr uint64_t kStreamAttempt = engine::StreamId("attempt");
inline constexpr uint64_t kStreamCrash = engine::StreamId("crash");
inline constexpr uint64_t kStreamDlqDuplicate = engine::StreamId("dlq_duplicate");
// kStreamDrainer ("drainer"): drain_plan.h.

struct KindModel {
  std::string name;
  bool unique_keys = true;  // the key pattern has {id}
  const config::Kind* spec = nullptr;
  DurationSampler validate;
  std::optional<DurationSampler> db_op;
  DurationSampler cpu;
};

// PipelineEntry, VisibilityTimer: broker_queues.h.
// Worker, Attempt, Step: worker_pool.h.

// TransitionNote: message_notifier.h.

class World final : public Scheduler {
 public:
  World(const config::Scenario& scenario, uint64_t seed, const RunOptions& options);
  Results Run();

  engine::Instant Now() const override { return now_; }
  void At(engine::Instant at, Event event) override;

 private:
  // world.cc
  void ScheduleRun();  // everything the run starts with, before its first event
  // One event at `at`: its handler and the checks and figures after it; false when the run ends.
  bool RunEvent(engine::Instant at, const Event& event);
  void Handle(const Event& event);         // the messages' events
  void HandleControl(const Event& event);  // faults, broker restarts, drains, breaker, tests

  // world_audit.cc: RunOptions::test_defect's events (the defects: ledger_audit.h).
  void ScheduleTestDefect();
  bool NothingLeftToHappen() const;
  // Invariant (5) of simulation.h, checked once the loop has ended.
  void CheckQuietEnd();
  void CountAttemptInWindows(bool first);

  // world_publish.cc
  void ProducerTick(uint32_t producer_index);
  void PublishBacklog();
  // `dlq_reason`: why a message published into the DLQ (a backlog entry there) is there.
  MessageRef Publish(uint32_t kind_index, uint32_t source_index, bool from_backlog,
                     MessageState state, engine::Instant published_at,
                     config::DlqReason dlq_reason = config::DlqReason::kMaxAttempts);
  void EnforceMaxLength(int64_t published);

  // world_broker.cc
  // Why a message that was delivered is ready again, for broker.requeue_position: kReturned, a
  // consumer gave it back (nack, reject, crash, consumer timeout); kTimedOut, its visibility
  // timeout ran out (or its lock, at a stalled check); kOther, anything else (a retry's ETA or
  // delay, a redrive).
  enum class ReadyFrom : uint8_t { kOther, kReturned, kTimedOut };
  // It waits where broker.requeue_position says for `from`.
  void MakeReady(MessageRef ref, Message& message, const TransitionNote& note,
                 ReadyFrom from = ReadyFrom::kOther);
  void Dispatch();
  void DispatchPartitions();
  // broker.session_timeout (world_broker.cc): a crashed consumer's session ran out, and the
  // rebalance that assigns the partitions over the consumers alive.
  void SessionTimedOut(const Event& event);
  // The partitions in ranges over the consumers alive that have not left the group; counted
  // when they moved. LeaveGroup: a consumer past the visibility timeout (max.poll.interval.ms)
  // leaves (world_lease.cc); RejoinGroup: it polls again once that attempt ends.
  void Rebalance();
  void LeaveGroup(uint32_t w);
  void RejoinGroup(uint32_t w);
  void HandOut(uint32_t w, MessageRef ref);
  // The broker's rules when a ready message just taken off the queue would be received: true
  // iff it expired (retention) or was dead-lettered (receive_count_max) instead.
  bool RefusedAtReceive(MessageRef ref, Message& m);
  // world_kafka.cc: polls and offset commits under broker.offset_commit other than "record"
  // (kafka_commit.h). Each is a no-op (false, nullopt) without them.
  void DispatchPolls();
  // True iff consumer w still holds records of its last poll (buffered or in hand).
  bool KafkaHoldsBatch(uint32_t w) const;
  void KafkaMaybeAutoCommit(uint32_t w);
  void KafkaCommit(uint32_t w);
  void KafkaAutoCommitDue(const Event& event);
  void KafkaScheduleAutoCommit(uint32_t w);
  // A copy of consumer w finished (FinishCopy): if that was its batch's last, "auto" schedules
  // the commit an idle consumer's empty polls would make.
  void KafkaBatchDone(uint32_t w);
  // A current record's attempt succeeded: the ack's fate when the commit decides it (deferred:
  // kNone; the batch's last: kAcked), nullopt for the ordinary ack.
  std::optional<AckFate> KafkaProcessed(const Attempt& attempt, Message& message);
  // The current record of the attempt in `slot` failed: the rest of its consumer's batch is
  // sought back; true iff the failed record was lost instead (before_processing, its consumer
  // out of the group), and the retry policy has nothing to route.
  bool KafkaRecordFailed(uint32_t attempt_slot);
  // CrashWorker's: before it returns the records held (the buffered ones, or their loss under
  // before_processing), and after (the processed uncommitted ones).
  void KafkaCrashing(uint32_t w);
  void KafkaCrashed(uint32_t w);
  void RedeliverUncommitted(uint32_t w, RedeliveryCause cause, TransitionCause why);
  // A visibility timeout (max.poll.interval.ms) of a batch ran out; true iff handled.
  bool KafkaPollIntervalExpired(const Delivery& delivery);
  void KafkaRebalancing();
  // True iff the message's partition no longer counts it in flight (kafka_commit.h (2)).
  bool KafkaReleased(const Message& message);
  // world_esm.cc: a Lambda event-source mapping's pollers receive for the workers
  // (workers.lambda_esm).
  void DispatchEsm();
  void ThrottledReceive(MessageRef ref, Message& m);
  void EsmScale();
  void MaybeScheduleEsmScale();
  // world_autoscale.cc: workers.autoscale's decisions carried out on the workers.
  void ScheduleAutoscale();
  void AutoscaleTick();
  void AutoscaleStart(const Event& event);
  void AutoscaleKill(const Event& event);
  void DrainWorker(uint32_t worker_index);
  void CountWorkerSeconds();  // Results::autoscale_worker_s up to now_
  // broker.message_groups: what a transition does to its message's group (in flight, the hold,
  // the order of acks).
  void NoteGroupTransition(const Message& message, MessageState from, MessageState to);
  // world_ordered.cc, broker.message_group_kind ordering_key (group_kinds.h): the transition's
  // effect on its key (in flight or delayed, the hold, what comes back); the rest of a key's
  // batch for worker w, after HandOut gave it `first`; a message back into its key's line (true
  // iff it had a place there); and a succeeded run that is delivered again instead of acked
  // (true iff so: it is ready again, cause ordering_key).
  void NoteKeyTransition(const Message& message, MessageState from, MessageState to);
  void HandOutKeyBatch(uint32_t w, MessageRef first, uint32_t key);
  bool PushKeyInPlace(MessageRef ref, const Message& message);
  bool RedeliveredForKey(MessageRef ref, Message& message);
  // True iff broker.ack_pending_max is reached and the next ready message was never delivered:
  // delivery stalls. REQUIRES: !broker_.ready_empty().
  bool AckPendingFull() const;
  void Deliver(uint32_t worker_index, MessageRef ref, Message& message);
  void VisibilityWake();
  void VisibilityExpired(const Delivery& delivery);
  // requeue_position restored_to_head: the deliveries due now, restored as one batch.
  template <typename Stale>
  void RestoreDueBatch(const Stale& stale);
  void DelayDue(const Event& event);
  // broker.delayed_retry: how long a return of `kind` waits (after CountReturn counted it), or
  // nullopt when it is ready again at once.
  std::optional<engine::Duration> ReturnWait(const Message& message, config::ReturnKind kind) const;
  // The return waits delayed for `wait`, then ReturnDue makes it ready as returned.
  void DelayReturn(MessageRef ref, Message& message, engine::Duration wait, RedeliveryCause cause,
                   TransitionCause why);
  void ReturnDue(const Event& event);
  void DeadLetter(MessageRef ref, Message& message, config::DlqReason reason);
  void Park(MessageRef ref, Message& message, const TransitionNote& note);
  void DlqExpire(const Event& event);
  void ScheduleExpiry(MessageRef ref, const Message& message);
  void Requeue(MessageRef ref, Message& message, RedeliveryCause cause, TransitionCause why,
               ReadyFrom from);
  // A return of an in-flight message to the queue by `kind`: counts towards delivery_limit and
  // dead-letters (reason delivery_limit) past it; otherwise Requeue as returned.
  void ReturnToQueue(MessageRef ref, Message& message, config::ReturnKind kind,
                     RedeliveryCause cause, TransitionCause why);
  // Counts a return of `kind`; true if it took the message past delivery_limit (then it has
  // been dead-lettered).
  bool CountReturn(MessageRef ref, Message& message, config::ReturnKind kind);
  void MaybeDuplicateDeadLetter(MessageRef ref);
  // After a dead-letter: broker.dlq_max_length, and with dlq_trim on_dead_letter retention too.
  void TrimDlq();
  // A current DLQ entry leaves by retention or (trimmed) by the DLQ's length cap: counted in
  // results.expired, and in dlq_trimmed if trimmed.
  void ExpireDeadLetter(MessageRef ref, bool trimmed);
  void ReleaseIfDone(MessageRef ref);
  void CrashWorker(uint32_t worker_index, bool after_commit);
  void RestartWorker(const Event& event);
  void BrokerRestart(const Event& event);
  bool IsCurrent(const Delivery& delivery) const;
  void Transition(Message& message, MessageState to, const TransitionNote& note);

  // world_dlq.cc: dead-lettering, the DLQ's retention and cap, the broker's own losses. (DeadLetter
  // and the DLQ's timers are declared with the broker's, above.)
  // True iff the DLQ would refuse a dead letter now: reject_publish at its cap, or others
  // already waiting for room.
  bool DlqRefuses() const;
  bool DlqFullForWaiting() const;
  void EnterDlq(MessageRef ref, Message& message);
  void LoseByBroker(MessageRef ref, Message& message, BrokerLossCause cause);
  // A DLQ entry left: if dead letters wait for room, they get it at this instant (an event).
  void NoteDlqExit();
  void DeadLetterRoom();

  // world_attempt.cc
  void StartAttempts(uint32_t worker_index);
  void StartAttempt(uint32_t worker_index, Delivery delivery);
  void AttemptStep(const Event& event);
  void DatabaseEvent(const Event& event);
  void CallDownstream(uint32_t attempt_slot);
  void Commit(uint32_t attempt_slot);
  void Succeed(uint32_t attempt_slot, bool suppressed = false);
  void FinishCopy(uint32_t attempt_slot);
  void ScheduleStep(uint32_t attempt_slot, engine::Duration after);
  void SubmitQuery(uint32_t attempt_slot);
  void AfterQuery(uint32_t attempt_slot, QueryOutcome outcome);
  // REQUIRES: notify_.attached()
  void NotifyStatement(uint32_t attempt_slot, const QueryCompletion& done) const;
  void AfterValidate(uint32_t attempt_slot);
  void BeginDbOpsOrCalls(uint32_t attempt_slot);
  void BeginCallsOrCpu(uint32_t attempt_slot);
  void SleepEnded(uint32_t attempt_slot);
  // world_retry.cc: a failed attempt, and what the retry policy (retry_router.h) decides done to
  // its message.
  void Fail(uint32_t attempt_slot, config::ErrorClass error, FailureCause cause);
  // A failed attempt's current copy goes where `route` says: false iff the consumer keeps the
  // copy and its slot (kSleep), so the attempt does not finish.
  bool TakeRoute(uint32_t attempt_slot, Message& message, const RetryRoute& route);
  // A failed attempt's message goes back by nack/reject/abandon (retry delivery "requeue").
  void ReturnFailed(MessageRef ref, Message& message, engine::Rng& rng);
  // world_policy.cc: acting on what the circuit breaker decides (retry_guards.h).
  void BreakerHalfOpen();
  void RecordOutcome(bool success);
  const KindModel& KindOf(const Message& message) const { return kinds_[message.kind_index]; }

  // world_lease.cc: ETAs held in the consumer, lock renewal and stalled jobs, consumer
  // timeouts that close the channel.
  bool HoldUntilEta(uint32_t worker_index, const Delivery& delivery, const Message& message);
  void EtaDue(const Event& event);
  void RetryWithEta(MessageRef ref, Message& message, engine::Duration delay);
  bool AckVoid(const Attempt& attempt, const Message& message) const;
  void CpuStepStarted(uint32_t attempt_slot, engine::Duration cpu);
  void LockLapses(const Delivery& delivery, engine::Instant at);
  void LockExpired(const Event& event);
  void StalledCheck(const Event& event);
  void ActOnStall(MessageRef ref, Message& message);
  // A visibility timeout ran out: counts a stall (stalled_count_max), closes the channel
  // (close_channel); true when it handled the expiry.
  bool VisibilityExpiredHook(const Delivery& delivery);
  // Why a consumer's channel closed: RabbitMQ's consumer timeout (on_visibility_timeout
  // close_channel) or a broker restart (every connection closed; the return counts as a crash's).
  enum class ChannelClose : uint8_t { kConsumerTimeout, kBrokerRestart };
  // The broker is back after a restart: a drain due meanwhile starts, the active one goes on,
  // deliveries resume.
  void ResumeBroker();
  void CloseChannel(uint32_t worker_index, ChannelClose why);

  // world_faults.cc
  void ScheduleFaults();
  void FaultEdge(const Event& event);
  void CrashEvent(const Event& event);
  // A lost ack under on_visibility_timeout close_channel: the delivery stays on its worker's
  // channel (Worker::withheld). REQUIRES: called before the attempt's FinishCopy.
  void WithholdLostAck(const Attempt& attempt, Message& m);

  // world_drain.cc: what the drain plans (drain_plan.h) decide, done to the messages.
  void ScheduleDrains();
  void StartDrain(uint32_t drain_index);
  // A starting drain's list: the DLQ's selected entries, oldest first; the rest parked or left.
  void ListForDrain(uint32_t drain_index);
  void ScheduleDrainTick(uint32_t drain_index, engine::Instant at);
  void DrainTick(uint32_t drain_index);
  void DrainAdjust(uint32_t drain_index);
  void EndDrain(uint32_t drain_index);
  std::optional<DatabaseTotals> DbTotals() const;  // nullopt without a database
  void Replay(MessageRef ref, Message& message);
  void NoteDeadLettered(MessageRef ref, Message& message);
  void NoteLeftPipeline(Message& message);
  void CheckEmpty();
  void StartDueDrain();

  // world_metrics.cc: what only World sees for the metrics (run_metrics.h).
  void InspectDlqAtEnd(Results& results);
  // A row of the series at now_. kPeriodic rows schedule the next one every run.sample_every;
  // the row at the run's end (TakeFinalSample) schedules nothing.
  enum class SampleWhen : uint8_t { kPeriodic, kAtEnd };
  void TakeSample(SampleWhen when = SampleWhen::kPeriodic);
  void TakeFinalSample();
  // The columns of a series row only World can see, at now_: the ledger's counts, the oldest
  // message's age, busy slots, the database's queue, whether a drain or a fault is active.
  void FillInstantColumns(Sample& sample);
  void FillPartitionLag(Sample& s) const;  // broker.partitions
  void LiveQuery();
  Results Collect();
  void EnterPipeline(const PipelineEntry& entry) {
    broker_.EnterPipeline(entry, ledger_.count(MessageState::kReady) +
                                     ledger_.count(MessageState::kDelayed) +
                                     ledger_.count(MessageState::kInFlight));
  }

  // RunObserver::OnProgress, every 2^16 events (out of line, so that the loop's test stays one
  // branch).
  [[gnu::noinline]] void NotifyProgress();

  const config::Scenario& scenario_;
  const uint64_t seed_;
  const engine::Rng::Family attempt_streams_;        // ForStream(seed, kStreamAttempt, .)
  const engine::Rng::Family dlq_duplicate_streams_;  // ForStream(seed, kStreamDlqDuplicate, .)
  const RunOptions options_;
  // RunOptions::observer for the per-run callbacks (faults, crashes, drains, progress), null
  // when none is attached; notify_ for the per-message ones, attached only if it wants them.
  RunObserver* const observer_;
  const MessageNotifier notify_;
  engine::EventQueue<Event> events_;
  // Events scheduled during the run for the current instant (a zero-length handler step, a
  // refused query): they run next, in the order they were scheduled, before events that were
  // scheduled earlier for this same instant, without a trip through the heap. About one event
  // in three of a typical run is such a continuation.
  std::deque<Event> now_lane_;
  bool running_ = false;  // events scheduled while setting up go through the heap
  engine::Instant now_;
  engine::Instant until_;
  int64_t essential_pending_ = 0;  // events that can change a message's fate
  uint64_t fingerprint_ = 0;
  int64_t events_processed_ = 0;

  MessageStore messages_;
  IdempotencyKeys keys_;
  Ledger ledger_;
  uint64_t next_message_id_ = 0;
  std::vector<KindModel> kinds_;
  // broker.partitions: by consumer, whether it left its group (LeaveGroup); empty until one did.
  std::vector<bool> left_group_;
  Producers producers_;

  BrokerQueues broker_;
  WorkerPool pool_;
  LedgerAudit audit_;  // reads messages_, ledger_, broker_

  std::unique_ptr<Database> database_;
  std::optional<LiveTraffic> live_;       // with a database that has live_traffic
  std::optional<Downstream> downstream_;  // with a downstream API

  FaultSchedule faults_;
  engine::Rng crash_rng_ = engine::Rng::Unseeded();

  RetryRouter retry_;  // the retry policy, its budget and its circuit breaker

  DrainPlans drains_;
  RunMetrics metrics_;
  std::vector<int32_t> fault_window_slot_;  // by fault: its entry in Results::fault_windows, or -1
  bool dead_letter_room_due_ = false;       // a kDeadLetterRoom event is pending
  // Messages delivered and not settled (world_broker.cc AckPending), for ack_pending_max and
  // the series' ack_pending column.
  int64_t ack_pending_ = 0;
  std::optional<GroupTallies> group_tallies_;  // broker.message_groups
  std::optional<OrderingKeys> ordering_keys_;  // broker.message_group_kind ordering_key
  std::optional<EsmPollers> esm_;              // workers.lambda_esm
  std::optional<KafkaCommits> kafka_;          // broker.offset_commit other than "record"
  std::optional<AutoscaledPool> autoscale_;    // workers.autoscale
};

}  // namespace drainsim::model
