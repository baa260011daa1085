// Running a handler: validate -> claim -> database ops -> downstream calls -> CPU -> commit ->
// ack, and what happens when a step fails (the retry policy's routing).
#include "sim/config/enum_names.h"
#include "sim/model/retry_after.h"
#include "sim/model/world.h"

namespace drainsim::model {

namespace {

DuplicateCause ToDuplicateCause(RedeliveryCause cause) {
  switch (cause) {
    case RedeliveryCause::kLostAck:
      return DuplicateCause::kLostAck;
    case RedeliveryCause::kCrashAfterCommit:
      return DuplicateCause::kCrashAfterCommit;
    case RedeliveryCause::kVisibilityTimeout:
      return DuplicateCause::kVisibilityTimeout;
    case RedeliveryCause::kRedrive:
      return DuplicateCause::kRedrive;
    case RedeliveryCause::kNone:
    case RedeliveryCause::kNotDeleted:
    case RedeliveryCause::kOther:
      return DuplicateCause::kOther;
  }
  return DuplicateCause::kOther;
}

}  // namespace

uint32_t World::NewAttempt() {
  uint32_t slot;
  if (!free_attempts_.empty()) {
    slot = free_attempts_.back();
    free_attempts_.pop_back();
  } else {
    slot = static_cast<uint32_t>(attempts_.size());
    attempts_.emplace_back();
  }
  Attempt& a = attempts_[slot];
  const uint32_t generation = a.generation;
  a = Attempt{};
  a.generation = generation;
  a.live = true;
  return slot;
}

void World::FreeAttempt(uint32_t slot) {
  Attempt& a = attempts_[slot];
  a.live = false;
  ++a.generation;
  free_attempts_.push_back(slot);
}

void World::ScheduleStep(uint32_t slot, engine::Duration after) {
  At(now_ + after, Event{EventType::kAttemptStep, slot, attempts_[slot].generation});
}

void World::StartAttempts(uint32_t w) {
  Worker& worker = workers_[w];
  // An open breaker stops consumption: prefetched messages wait in the buffer too.
  while (worker.alive && worker.running < scenario_.workers.concurrency && !worker.buffer.empty() &&
         breaker_.state() != CircuitBreaker::State::kOpen) {
    const Delivery d = worker.buffer.front();
    worker.buffer.pop_front();
    StartAttempt(w, d);
  }
}

void World::StartAttempt(uint32_t w, Delivery delivery) {
  const uint32_t slot = NewAttempt();
  Attempt& a = attempts_[slot];
  Message& m = messages_.Get(delivery.message);
  a.worker = w;
  a.delivery = delivery;
  a.started_at = now_;
  ++m.attempts;
  ++m.executions;
  ++workers_[w].running;
  ++busy_slots_;
  const bool first = m.executions == 1;
  metrics_.AttemptStarted(m.kind_index, first);
  if (faults_.any_active()) CountAttemptInWindows(first);
  const KindModel& kind = KindOf(m);
  // One stream per execution of a message: its durations and fates do not depend on what
  // other messages drew.
  a.rng = attempt_streams_.For((m.id << 20) ^ static_cast<uint64_t>(m.executions));
  if (const auto injection = faults_.InjectedFailure(m, now_)) {
    a.injected = injection->error;
    a.injected_after = injection->fail_after;
    a.injected_fault = injection->fault_index;
  } else {
    a.injected.reset();  // the slot keeps its last injection's details, unread without one
  }
  a.step = Step::kValidate;
  a.db_ops_left = kind.spec->handler.db_ops;
  a.calls_left = kind.spec->handler.downstream_calls;
  ScheduleStep(slot, kind.validate.Sample(a.rng));
  if (message_observer_ != nullptr) [[unlikely]] {
    NotifyAttemptStart(slot);
  }
}

void World::AttemptStep(const Event& event) {
  const uint32_t slot = event.a;
  if (slot >= attempts_.size()) return;
  Attempt& a = attempts_[slot];
  if (!a.live || a.generation != static_cast<uint32_t>(event.b)) return;  // worker crashed
  switch (a.step) {
    case Step::kValidate:
      AfterValidate(slot);
      break;
    case Step::kInjectedFailure:
      Fail(slot, *a.injected, FailureCause::kInjected);
      break;
    case Step::kCall:
      if (a.call_fails) {
        Fail(slot, config::ErrorClass::kTransient, FailureCause::kDownstreamOutage);  // 503
      } else {
        --a.calls_left;
        BeginCallsOrCpu(slot);
      }
      break;
    case Step::kCpu:
      Commit(slot);
      break;
    case Step::kSleep:
      SleepEnded(slot);
      break;
    case Step::kClaim:
    case Step::kDbOp:
      DRAINSIM_CHECK(false);
      break;  // these end with a query, not a timer
  }
}

void World::AfterValidate(uint32_t slot) {
  Attempt& a = attempts_[slot];
  if (a.injected) {
    a.step = Step::kInjectedFailure;
    ScheduleStep(slot, a.injected_after);
    return;
  }
  Message& m = messages_.Get(a.delivery.message);
  if (KindOf(m).spec->idempotency == config::Idempotency::kClaim) {
    a.step = Step::kClaim;
    if (database_) {
      SubmitQuery(slot);
    } else {
      AfterQuery(slot, QueryOutcome::kOk);
    }
    return;
  }
  BeginDbOpsOrCalls(slot);
}

void World::SubmitQuery(uint32_t slot) {
  Attempt& a = attempts_[slot];
  const Message& m = messages_.Get(a.delivery.message);
  const KindModel& kind = KindOf(m);
  const engine::Duration service =
      kind.db_op ? kind.db_op->Sample(a.rng) : engine::Duration::Zero();
  database_->Submit((static_cast<uint64_t>(a.generation) << 32) | slot, service);
  metrics_.DbQueueSeen(database_->waiting());
}

void World::DatabaseEvent(const Event& event) {
  const std::optional<QueryCompletion> done = database_->HandleEvent(event);
  if (!done) return;
  drains_.RecordDbLatency(done->latency.micros());  // the adaptive drain's health signal
  if (done->owner & kLiveQueryOwner) {
    metrics_.LiveAnswered(done->latency.micros(), done->outcome == QueryOutcome::kOk,
                          drains_.active(), drains_.first_start().has_value());
    return;
  }
  const auto slot = static_cast<uint32_t>(done->owner);
  const auto generation = static_cast<uint32_t>(done->owner >> 32);
  if (slot >= attempts_.size() || !attempts_[slot].live ||
      attempts_[slot].generation != generation) {
    return;  // the attempt died with its worker; the database finished the query anyway
  }
  AfterQuery(slot, done->outcome);
}

void World::AfterQuery(uint32_t slot, QueryOutcome outcome) {
  Attempt& a = attempts_[slot];
  if (outcome != QueryOutcome::kOk) {
    // Lock/statement timeout, or refused (outage).
    Fail(slot, config::ErrorClass::kTransient,
         outcome == QueryOutcome::kTimeout ? FailureCause::kDbTimeout : FailureCause::kDbRefused);
    return;
  }
  Message& m = messages_.Get(a.delivery.message);
  if (a.step == Step::kClaim) {
    if (Key(m).committed || Key(m).claim_held) {
      // INSERT ... ON CONFLICT DO NOTHING found the row: an earlier delivery did the work.
      metrics_.DuplicateSuppressed(m.kind_index);
      Succeed(slot, /*suppressed=*/true);
      return;
    }
    Key(m).claim_held = true;
    a.holds_claim = true;
    BeginDbOpsOrCalls(slot);
    return;
  }
  DRAINSIM_CHECK(a.step == Step::kDbOp);
  --a.db_ops_left;
  BeginDbOpsOrCalls(slot);
}

void World::BeginDbOpsOrCalls(uint32_t slot) {
  Attempt& a = attempts_[slot];
  if (a.db_ops_left > 0) {
    a.step = Step::kDbOp;
    SubmitQuery(slot);
    return;
  }
  BeginCallsOrCpu(slot);
}

void World::BeginCallsOrCpu(uint32_t slot) {
  Attempt& a = attempts_[slot];
  if (a.calls_left > 0) {
    CallDownstream(slot);
    return;
  }
  a.step = Step::kCpu;
  const engine::Duration cpu = KindOf(messages_.Get(a.delivery.message)).cpu.Sample(a.rng);
  ScheduleStep(slot, cpu);
  CpuStepStarted(slot, cpu);  // a CPU step blocks lock renewal
}

void World::CallDownstream(uint32_t slot) {
  Attempt& a = attempts_[slot];
  const config::Downstream& api = *scenario_.downstream;
  a.step = Step::kCall;
  const engine::Duration call = call_duration_->Sample(a.rng);
  Message& m = messages_.Get(a.delivery.message);
  if (m.retry_ready_at != engine::Instant::Never()) {
    // Checked, not enforced: a client that trusts a skewed clock does come back early.
    if (now_ < m.retry_ready_at) ++metrics_.results().calls_before_retry_after;
    m.retry_ready_at = engine::Instant::Never();
  }
  metrics_.DownstreamCalled();
  if (faults_.downstream_outage()) {
    a.call_fails = true;
    ScheduleStep(slot, call);
    return;
  }
  if (downstream_bucket_ && !downstream_bucket_->TryTake(now_)) {
    // 429 at once; the header says when the bucket will have a token again.
    metrics_.DownstreamRateLimited();
    if (api.retry_after != config::RetryAfterFormat::kNone) {
      const engine::Instant ready_at = downstream_bucket_->NextAvailable(now_);
      a.retry_after = ClientWaitForRetryAfter(api.retry_after, now_, ready_at, api.clock_skew);
      m.retry_ready_at = ready_at;
    }
    Fail(slot, config::ErrorClass::kRateLimited, FailureCause::kRateLimited);
    return;
  }
  a.call_fails = false;
  ScheduleStep(slot, call);
}

void World::Commit(uint32_t slot) {
  Attempt& a = attempts_[slot];
  Message& m = messages_.Get(a.delivery.message);
  const KindModel& kind = KindOf(m);
  if (message_observer_ != nullptr) [[unlikely]] {
    NotifyCommit(slot, Key(m).committed, ToDuplicateCause(m.cause),
                 kind.spec->idempotency == config::Idempotency::kNone);
  }
  if (Key(m).committed) {
    // The work ran again for a key that had already committed.
    metrics_.DuplicateExecuted(m.kind_index, ToDuplicateCause(m.cause),
                               kind.spec->idempotency == config::Idempotency::kNone);
  }
  Key(m).committed = true;
  Key(m).claim_held = false;
  a.holds_claim = false;
  Worker& worker = workers_[a.worker];
  if (worker.crash_after_commit_armed > 0) {
    --worker.crash_after_commit_armed;
    CrashWorker(a.worker, /*after_commit=*/true);
    return;
  }
  Succeed(slot);
}

void World::Succeed(uint32_t slot, bool suppressed) {
  ++metrics_.results().successes;
  // Before taking a reference into attempts_: a success that closes a half-open breaker starts
  // attempts (RecordOutcome -> StartAttempts), which may grow the table and move it.
  RecordOutcome(true);
  budget_.RecordSuccess(now_);
  Attempt& a = attempts_[slot];
  Message& m = messages_.Get(a.delivery.message);
  // The ack of a copy whose visibility timeout ran out still acks the message while another
  // worker holds it: an SQS delete with an earlier receipt handle usually succeeds. Without
  // this, work slower than the timeout would be redelivered forever.
  AckFate ack = AckFate::kIgnored;
  if (m.state == MessageState::kInFlight && !AckVoid(a, m)) {
    if (broker_down_ || faults_.AckLost(m)) {
      ack = broker_down_ ? AckFate::kBrokerDown : AckFate::kLost;
      m.cause = RedeliveryCause::kLostAck;  // the visibility timeout will hand it out again
      LockLapses(a.delivery, now_ + scenario_.broker.visibility_timeout);
      if (!broker_down_) WithholdLostAck(a, m);
    } else {
      ack = AckFate::kAcked;
      Transition(m, MessageState::kAcked, TransitionNote{.cause = TransitionCause::kAcked});
      metrics_.Acked(m.kind_index, (now_ - m.published_at).micros());
    }
  }
  if (message_observer_ != nullptr) [[unlikely]] {
    NotifyAttemptEnd(slot, suppressed ? AttemptOutcome::kSuppressed : AttemptOutcome::kSucceeded,
                     ack, config::ErrorClass::kUnknown, FailureCause::kNone);
  }
  FinishCopy(slot);
}

void World::Fail(uint32_t slot, config::ErrorClass error, FailureCause cause) {
  Attempt& a = attempts_[slot];
  Message& m = messages_.Get(a.delivery.message);
  Results& results = metrics_.results();
  ++results.failures_by_class[static_cast<size_t>(error)];
  ++m.failures;
  // A stale copy failing after the message was dead-lettered leaves its DLQ metadata alone (the
  // inspector counts DLQ entries by reason and error).
  if (m.state != MessageState::kDeadLettered) m.last_error = error;
  if (m.first_failure_at == engine::Instant::Never()) m.first_failure_at = now_;
  results.wasted_worker_s += (now_ - a.started_at).seconds();
  if (a.holds_claim) Key(m).claim_held = false;  // the transaction rolls back
  a.holds_claim = false;
  RecordOutcome(false);
  if (message_observer_ != nullptr) [[unlikely]] {
    NotifyAttemptEnd(slot, AttemptOutcome::kFailed, AckFate::kNone, error, cause);
  }
  if (!IsCurrent(a.delivery)) {
    FinishCopy(slot);  // the broker already gave the message to someone else
    return;
  }
  const config::RetryPolicy& retry = scenario_.retry;
  const config::ClassPolicy& policy = retry.classes.For(error);
  const MessageRef ref = a.delivery.message;
  switch (policy.action) {
    case config::ClassAction::kDeadLetter:
      DeadLetter(ref, m, config::DlqReason::kNotRetryable);
      break;
    case config::ClassAction::kPark:
      metrics_.ParkedByPolicy(error);
      Park(ref, m, TransitionNote{.cause = TransitionCause::kParkedByPolicy});
      break;
    case config::ClassAction::kRetry: {
      if (m.attempts >= policy.attempts_max) {
        DeadLetter(ref, m, config::DlqReason::kMaxAttempts);
        break;
      }
      if (!budget_.Allow(now_)) {
        DeadLetter(ref, m, config::DlqReason::kRetryBudget);
        break;
      }
      if (retry.delivery == config::RetryDelivery::kVisibilityTimeout) {
        // Not deleted: the message reappears when this delivery's visibility timeout ends (SQS
        // has no backoff of its own). The worker lets go of its copy now; a renewed lock is no
        // longer renewed.
        m.cause = RedeliveryCause::kNotDeleted;
        LockLapses(a.delivery, now_ + scenario_.broker.visibility_timeout);
        break;
      }
      if (retry.delivery == config::RetryDelivery::kRequeue) {
        ReturnFailed(ref, m, a.rng);
        break;
      }
      BackoffState state{m.backoff_previous};
      engine::Duration delay =
          BackoffDelay(policy.backoff ? *policy.backoff : retry.backoff, m.attempts, state, a.rng);
      m.backoff_previous = state.previous;
      if (error == config::ErrorClass::kRateLimited && policy.honor_retry_after && a.retry_after) {
        delay = *a.retry_after;
      }
      if (retry.delivery == config::RetryDelivery::kEtaInConsumer) {
        RetryWithEta(ref, m, delay);
        break;
      }
      if (retry.delivery == config::RetryDelivery::kSleepInConsumer) {
        // The consumer keeps the message and its slot while it sleeps; the visibility timeout
        // keeps running.
        a.step = Step::kSleep;
        ScheduleStep(slot, delay);
        if (message_observer_ != nullptr) [[unlikely]] {
          NotifySleep(slot, now_ + delay);
        }
        return;
      }
      Transition(m, MessageState::kDelayed,
                 TransitionNote{.cause = TransitionCause::kRetryScheduled, .until = now_ + delay});
      At(now_ + delay, Event{EventType::kDelayDue, ref.slot, ref.generation});
      break;
    }
  }
  FinishCopy(slot);
}

void World::ReturnFailed(MessageRef ref, Message& m, engine::Rng& rng) {
  const config::ReturnKind kind = scenario_.retry.requeue_with == config::RequeueWith::kNack
                                      ? config::ReturnKind::kNack
                                      : config::ReturnKind::kReject;
  m.cause = RedeliveryCause::kOther;
  if (CountReturn(ref, m, kind)) return;
  const auto& backoff = scenario_.broker.redelivery_backoff;
  if (!backoff) {
    Requeue(ref, m, RedeliveryCause::kOther, TransitionCause::kReturned);
    return;
  }
  // The broker's own redelivery backoff (Pub/Sub's retry policy), by deliveries so far.
  BackoffState state{m.backoff_previous};
  const engine::Duration delay =
      BackoffDelay(*backoff, std::max<int64_t>(1, m.receive_count), state, rng);
  m.backoff_previous = state.previous;
  Transition(m, MessageState::kDelayed,
             TransitionNote{.cause = TransitionCause::kReturned, .until = now_ + delay});
  At(now_ + delay, Event{EventType::kDelayDue, ref.slot, ref.generation});
}

void World::SleepEnded(uint32_t slot) {
  const Attempt a = attempts_[slot];
  FreeAttempt(slot);
  --workers_[a.worker].running;
  --busy_slots_;
  StartAttempt(a.worker, a.delivery);
  attempts_[slot].off_channel = a.off_channel;  // NewAttempt reused the slot just freed
}

void World::FinishCopy(uint32_t slot) {
  const Attempt a = attempts_[slot];
  FreeAttempt(slot);
  Worker& worker = workers_[a.worker];
  --worker.running;
  if (!a.off_channel) --worker.unacked;  // a closed channel already gave it up
  --busy_slots_;
  Message& m = messages_.Get(a.delivery.message);
  DRAINSIM_CHECK(m.copies_on_workers > 0);
  --m.copies_on_workers;
  ReleaseIfDone(a.delivery.message);
  AddToRing(a.worker);
  StartAttempts(a.worker);
  Dispatch();
}

}  // namespace drainsim::model
