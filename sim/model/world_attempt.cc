// Running a handler: validate -> claim -> database ops -> downstream calls -> CPU -> commit ->
// ack; a failed step goes to Fail (world_retry.cc).
#include "sim/config/enum_names.h"
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
    case RedeliveryCause::kRebalance:
      return DuplicateCause::kRebalance;
    case RedeliveryCause::kOrderingKey:
      return DuplicateCause::kOrderingKey;
    case RedeliveryCause::kNone:
    case RedeliveryCause::kNotDeleted:
    case RedeliveryCause::kOther:
      return DuplicateCause::kOther;
  }
  return DuplicateCause::kOther;
}

}  // namespace

void World::ScheduleStep(uint32_t slot, engine::Duration after) {
  At(now_ + after, Event{EventType::kAttemptStep, slot, pool_.attempt(slot).generation});
}

void World::StartAttempts(uint32_t w) {
  // An open breaker stops consumption: prefetched messages wait in the buffer too.
  while (pool_.HasFreeSlot(w) && pool_.has_buffered(w) &&
         retry_.breaker().state() != CircuitBreaker::State::kOpen) {
    StartAttempt(w, pool_.PopBuffered(w));
  }
}

void World::StartAttempt(uint32_t w, Delivery delivery) {
  const uint32_t slot = pool_.StartAttempt(w);
  Attempt& a = pool_.attempt(slot);
  Message& m = messages_.Get(delivery.message);
  a.delivery = delivery;
  a.started_at = now_;
  ++m.attempts;
  ++m.executions;
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
  if (notify_.attached()) [[unlikely]] {
    notify_.AttemptStart(now_, slot, a, m);
  }
}

void World::AttemptStep(const Event& event) {
  const uint32_t slot = event.a;
  if (!pool_.IsLive(slot, static_cast<uint32_t>(event.b))) return;  // its worker crashed
  Attempt& a = pool_.attempt(slot);
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
  Attempt& a = pool_.attempt(slot);
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
  Attempt& a = pool_.attempt(slot);
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
  if (LiveTraffic::Owns(done->owner)) {
    metrics_.LiveAnswered(done->latency.micros(), done->outcome == QueryOutcome::kOk,
                          drains_.active(), drains_.first_start().has_value());
    return;
  }
  const auto slot = static_cast<uint32_t>(done->owner);
  const auto generation = static_cast<uint32_t>(done->owner >> 32);
  // The attempt may have died with its worker; the database finished the query anyway.
  if (!pool_.IsLive(slot, generation)) return;
  if (notify_.attached()) [[unlikely]] {
    NotifyStatement(slot, *done);
  }
  AfterQuery(slot, done->outcome);
}

void World::NotifyStatement(uint32_t slot, const QueryCompletion& done) const {
  const Attempt& a = pool_.attempt(slot);
  const FailureCause failure = done.outcome == QueryOutcome::kOk        ? FailureCause::kNone
                               : done.outcome == QueryOutcome::kTimeout ? FailureCause::kDbTimeout
                                                                        : FailureCause::kDbRefused;
  notify_.Statement(now_, slot, a, messages_.Get(a.delivery.message), done.latency,
                    a.step == Step::kClaim, failure);
}

void World::AfterQuery(uint32_t slot, QueryOutcome outcome) {
  Attempt& a = pool_.attempt(slot);
  if (outcome != QueryOutcome::kOk) {
    // Lock/statement timeout, or refused (outage).
    Fail(slot, config::ErrorClass::kTransient,
         outcome == QueryOutcome::kTimeout ? FailureCause::kDbTimeout : FailureCause::kDbRefused);
    return;
  }
  Message& m = messages_.Get(a.delivery.message);
  if (a.step == Step::kClaim) {
    if (keys_.State(m).committed || keys_.State(m).claim_held) {
      // INSERT ... ON CONFLICT DO NOTHING found the row: an earlier delivery did the work.
      metrics_.DuplicateSuppressed(m.kind_index);
      Succeed(slot, /*suppressed=*/true);
      return;
    }
    keys_.State(m).claim_held = true;
    a.holds_claim = true;
    BeginDbOpsOrCalls(slot);
    return;
  }
  DRAINSIM_CHECK(a.step == Step::kDbOp);
  --a.db_ops_left;
  BeginDbOpsOrCalls(slot);
}

void World::BeginDbOpsOrCalls(uint32_t slot) {
  Attempt& a = pool_.attempt(slot);
  if (a.db_ops_left > 0) {
    a.step = Step::kDbOp;
    SubmitQuery(slot);
    return;
  }
  BeginCallsOrCpu(slot);
}

void World::BeginCallsOrCpu(uint32_t slot) {
  Attempt& a = pool_.attempt(slot);
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
  Attempt& a = pool_.attempt(slot);
  a.step = Step::kCall;
  const engine::Duration call = downstream_->SampleCall(a.rng);
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
  if (!downstream_->Admit(now_)) {
    // 429 at once; the header says when the API will admit a call again.
    metrics_.DownstreamRateLimited();
    const Downstream::Refusal refusal = downstream_->Refuse(now_);
    if (refusal.ready_at) {
      a.retry_after = refusal.client_wait;
      m.retry_ready_at = *refusal.ready_at;
    }
    Fail(slot, config::ErrorClass::kRateLimited, FailureCause::kRateLimited);
    return;
  }
  a.call_fails = false;
  ScheduleStep(slot, call);
}

void World::Commit(uint32_t slot) {
  Attempt& a = pool_.attempt(slot);
  Message& m = messages_.Get(a.delivery.message);
  const KindModel& kind = KindOf(m);
  if (notify_.attached()) [[unlikely]] {
    notify_.Commit(now_, slot, a, m, keys_.State(m).committed, ToDuplicateCause(m.cause),
                   kind.spec->idempotency == config::Idempotency::kNone);
  }
  if (keys_.State(m).committed) {
    // The work ran again for a key that had already committed.
    metrics_.DuplicateExecuted(m.kind_index, ToDuplicateCause(m.cause),
                               kind.spec->idempotency == config::Idempotency::kNone);
  }
  keys_.State(m).committed = true;
  keys_.State(m).claim_held = false;
  a.holds_claim = false;
  if (pool_.TakeCrashAfterCommit(a.worker)) {
    CrashWorker(a.worker, /*after_commit=*/true);
    return;
  }
  Succeed(slot);
}

void World::Succeed(uint32_t slot, bool suppressed) {
  ++metrics_.results().successes;
  // Before taking a reference into the attempt table: a success that closes a half-open breaker
  // starts attempts (RecordOutcome -> StartAttempts), which may grow the table and move it.
  RecordOutcome(true);
  retry_.budget().RecordSuccess(now_);
  Attempt& a = pool_.attempt(slot);
  Message& m = messages_.Get(a.delivery.message);
  // The ack of a copy whose visibility timeout ran out still acks the message while another
  // worker holds it: an SQS delete with an earlier receipt handle usually succeeds. Without
  // this, work slower than the timeout would be redelivered forever.
  AckFate ack = AckFate::kIgnored;
  if (m.state == MessageState::kInFlight && !AckVoid(a, m)) {
    const std::optional<AckFate> committed =
        IsCurrent(a.delivery) ? KafkaProcessed(a, m) : std::nullopt;
    if (committed) {
      ack = *committed;  // world_kafka.cc: the offset commit decides
    } else if (broker_.down() || faults_.AckLost(m)) {
      ack = broker_.down() ? AckFate::kBrokerDown : AckFate::kLost;
      m.cause = RedeliveryCause::kLostAck;  // the visibility timeout will hand it out again
      LockLapses(a.delivery, now_ + scenario_.broker.visibility_timeout);
      if (!broker_.down()) WithholdLostAck(a, m);
    } else if (ordering_keys_ && RedeliveredForKey(a.delivery.message, m)) [[unlikely]] {
      ack = AckFate::kIgnored;  // Pub/Sub takes the ack, and delivers the message again
    } else {
      ack = AckFate::kAcked;
      Transition(m, MessageState::kAcked, TransitionNote{.cause = TransitionCause::kAcked});
      metrics_.Acked(m.kind_index, (now_ - m.published_at).micros());
    }
  }
  if (notify_.attached()) [[unlikely]] {
    notify_.AttemptEnd(now_, slot, a, m,
                       suppressed ? AttemptOutcome::kSuppressed : AttemptOutcome::kSucceeded, ack,
                       config::ErrorClass::kUnknown, FailureCause::kNone);
  }
  FinishCopy(slot);
}

void World::SleepEnded(uint32_t slot) {
  const Attempt a = pool_.attempt(slot);
  pool_.EndAttemptKeepingCopy(slot);
  StartAttempt(a.worker, a.delivery);
  pool_.attempt(slot).off_channel = a.off_channel;  // NewAttempt reused the slot just freed
}

void World::FinishCopy(uint32_t slot) {
  const Attempt a = pool_.attempt(slot);
  pool_.EndAttempt(slot);  // gives back its prefetch slot, unless its channel closed before
  Message& m = messages_.Get(a.delivery.message);
  DRAINSIM_CHECK(m.copies_on_workers > 0);
  --m.copies_on_workers;
  ReleaseIfDone(a.delivery.message);
  pool_.AddToRing(a.worker);
  // A Kafka consumer that left its group over this attempt polls again now: it rejoins.
  // Under batched commits, once it is done with its batch (world_kafka.cc).
  if (!left_group_.empty() && left_group_[a.worker] && !KafkaHoldsBatch(a.worker)) {
    RejoinGroup(a.worker);
  }
  KafkaBatchDone(a.worker);
  StartAttempts(a.worker);
  Dispatch();
}

}  // namespace drainsim::model
