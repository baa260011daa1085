// What happens when an attempt fails: its bookkeeping, then the retry policy's routing by error
// class (dead-letter, park, or retry by the route retry.delivery names), and the broker's own
// redelivery backoff for a message returned by nack or reject.
#include <algorithm>

#include "sim/model/world.h"

namespace drainsim::model {

void World::Fail(uint32_t slot, config::ErrorClass error, FailureCause cause) {
  Attempt& a = pool_.attempt(slot);
  Message& m = messages_.Get(a.delivery.message);
  Results& results = metrics_.results();
  ++results.failures_by_class[static_cast<size_t>(error)];
  ++m.failures;
  // A stale copy failing after the message was dead-lettered leaves its DLQ metadata alone (the
  // inspector counts DLQ entries by reason and error).
  if (m.state != MessageState::kDeadLettered) m.last_error = error;
  if (m.first_failure_at == engine::Instant::Never()) m.first_failure_at = now_;
  results.wasted_worker_s += (now_ - a.started_at).seconds();
  if (a.holds_claim) keys_.State(m).claim_held = false;  // the transaction rolls back
  a.holds_claim = false;
  RecordOutcome(false);
  if (message_observer_ != nullptr) [[unlikely]] {
    NotifyAttemptEnd(slot, AttemptOutcome::kFailed, AckFate::kNone, error, cause);
  }
  if (!IsCurrent(a.delivery)) {
    FinishCopy(slot);  // the broker already gave the message to someone else
    return;
  }
  const config::ClassPolicy& policy = scenario_.retry.classes.For(error);
  const MessageRef ref = a.delivery.message;
  switch (policy.action) {
    case config::ClassAction::kDeadLetter:
      DeadLetter(ref, m, config::DlqReason::kNotRetryable);
      break;
    case config::ClassAction::kPark:
      metrics_.ParkedByPolicy(error);
      Park(ref, m, TransitionNote{.cause = TransitionCause::kParkedByPolicy});
      break;
    case config::ClassAction::kRetry:
      if (!RouteRetry(slot, m, error, policy)) return;  // the consumer sleeps, holding its slot
      break;
  }
  FinishCopy(slot);
}

bool World::RouteRetry(uint32_t slot, Message& m, config::ErrorClass error,
                       const config::ClassPolicy& policy) {
  Attempt& a = pool_.attempt(slot);
  const MessageRef ref = a.delivery.message;
  const config::RetryPolicy& retry = scenario_.retry;
  if (m.attempts >= policy.attempts_max) {
    DeadLetter(ref, m, config::DlqReason::kMaxAttempts);
    return true;
  }
  if (!budget_.Allow(now_)) {
    DeadLetter(ref, m, config::DlqReason::kRetryBudget);
    return true;
  }
  if (retry.delivery == config::RetryDelivery::kVisibilityTimeout) {
    // Not deleted: the message reappears when this delivery's visibility timeout ends (SQS has
    // no backoff of its own). The worker lets go of its copy now; a renewed lock is no longer
    // renewed.
    m.cause = RedeliveryCause::kNotDeleted;
    LockLapses(a.delivery, now_ + scenario_.broker.visibility_timeout);
    return true;
  }
  if (retry.delivery == config::RetryDelivery::kRequeue) {
    ReturnFailed(ref, m, a.rng);
    return true;
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
    return true;
  }
  if (retry.delivery == config::RetryDelivery::kSleepInConsumer) {
    // The consumer keeps the message and its slot while it sleeps; the visibility timeout keeps
    // running.
    a.step = Step::kSleep;
    ScheduleStep(slot, delay);
    if (message_observer_ != nullptr) [[unlikely]] {
      NotifySleep(slot, now_ + delay);
    }
    return false;
  }
  Transition(m, MessageState::kDelayed,
             TransitionNote{.cause = TransitionCause::kRetryScheduled, .until = now_ + delay});
  At(now_ + delay, Event{EventType::kDelayDue, ref.slot, ref.generation});
  return true;
}

void World::ReturnFailed(MessageRef ref, Message& m, engine::Rng& rng) {
  const config::ReturnKind kind = scenario_.retry.requeue_with == config::RequeueWith::kNack
                                      ? config::ReturnKind::kNack
                                      : config::ReturnKind::kReject;
  m.cause = RedeliveryCause::kOther;
  if (CountReturn(ref, m, kind)) return;
  const auto& backoff = scenario_.broker.redelivery_backoff;
  if (!backoff) {
    Requeue(ref, m, RedeliveryCause::kOther, TransitionCause::kReturned, /*returned=*/true);
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

}  // namespace drainsim::model
