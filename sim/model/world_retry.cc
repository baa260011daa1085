// What happens when an attempt fails: its bookkeeping, then what the retry policy
// (retry_router.h) decides done to the message: dead-letter, park, or retry by the route
// retry.delivery names, and the broker's own redelivery backoff for a message returned by nack
// or reject.
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
  if (notify_.attached()) [[unlikely]] {
    notify_.AttemptEnd(now_, slot, a, m, AttemptOutcome::kFailed, AckFate::kNone, error, cause);
  }
  if (!IsCurrent(a.delivery)) {
    FinishCopy(slot);  // the broker already gave the message to someone else
    return;
  }
  // A poll's batch (world_kafka.cc): the rest is sought back, or lost with this record. Its
  // returns may start other consumers' attempts, which can move the attempt table: `a` is
  // taken again after it.
  if (KafkaRecordFailed(slot)) {
    FinishCopy(slot);
    return;
  }
  Attempt& again = pool_.attempt(slot);
  const RetryRoute route = retry_.Route(m, error, again.retry_after, again.rng, now_);
  if (route.kind == RetryRoute::Kind::kPark) metrics_.ParkedByPolicy(error);
  if (!TakeRoute(slot, m, route)) return;  // the consumer sleeps, holding its slot
  FinishCopy(slot);
}

bool World::TakeRoute(uint32_t slot, Message& m, const RetryRoute& route) {
  Attempt& a = pool_.attempt(slot);
  const MessageRef ref = a.delivery.message;
  switch (route.kind) {
    case RetryRoute::Kind::kDeadLetter:
      DeadLetter(ref, m, route.reason);
      return true;
    case RetryRoute::Kind::kPark:
      Park(ref, m, TransitionNote{.cause = TransitionCause::kParkedByPolicy});
      return true;
    case RetryRoute::Kind::kLapse:
      // Not deleted: the worker lets go of its copy now; a renewed lock is no longer renewed.
      m.cause = RedeliveryCause::kNotDeleted;
      LockLapses(a.delivery, now_ + scenario_.broker.visibility_timeout);
      return true;
    case RetryRoute::Kind::kReturn:
      ReturnFailed(ref, m, a.rng);
      return true;
    case RetryRoute::Kind::kEta:
      RetryWithEta(ref, m, route.delay);
      return true;
    case RetryRoute::Kind::kSleep:
      // The consumer keeps the message and its slot while it sleeps; the visibility timeout
      // keeps running.
      a.step = Step::kSleep;
      ScheduleStep(slot, route.delay);
      if (notify_.attached()) [[unlikely]] {
        notify_.Sleep(now_, slot, a, m, now_ + route.delay);
      }
      return false;
    case RetryRoute::Kind::kDelay:
      Transition(
          m, MessageState::kDelayed,
          TransitionNote{.cause = TransitionCause::kRetryScheduled, .until = now_ + route.delay});
      At(now_ + route.delay, Event{EventType::kDelayDue, ref.slot, ref.generation});
      return true;
  }
  return true;
}

void World::ReturnFailed(MessageRef ref, Message& m, engine::Rng& rng) {
  // Without the broker's redelivery backoff a failed attempt's return is any other return
  // (delayed_retry included; the loader never sets both).
  if (!scenario_.broker.redelivery_backoff) {
    ReturnToQueue(ref, m, retry_.return_kind(), RedeliveryCause::kOther,
                  TransitionCause::kReturned);
    return;
  }
  m.cause = RedeliveryCause::kOther;
  if (CountReturn(ref, m, retry_.return_kind())) return;
  const std::optional<engine::Duration> delay = retry_.RedeliveryDelay(m, rng);
  DRAINSIM_CHECK(delay.has_value());
  Transition(m, MessageState::kDelayed,
             TransitionNote{.cause = TransitionCause::kReturned, .until = now_ + *delay});
  At(now_ + *delay, Event{EventType::kDelayDue, ref.slot, ref.generation});
}

}  // namespace drainsim::model
