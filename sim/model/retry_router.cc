// The retry policy's routing by error class, and the broker's redelivery backoff.
#include "sim/model/retry_router.h"

#include <algorithm>

#include "sim/model/backoff.h"

namespace drainsim::model {

RetryRouter::RetryRouter(const config::RetryPolicy& retry, const config::Broker& broker)
    : retry_(retry),
      redelivery_backoff_(broker.redelivery_backoff),
      budget_(retry.budget),
      breaker_(retry.circuit_breaker) {}

RetryRoute RetryRouter::Route(Message& m, config::ErrorClass error,
                              const std::optional<engine::Duration>& retry_after, engine::Rng& rng,
                              engine::Instant now) {
  using Kind = RetryRoute::Kind;
  const config::ClassPolicy& policy = retry_.classes.For(error);
  switch (policy.action) {
    case config::ClassAction::kDeadLetter:
      return RetryRoute{.kind = Kind::kDeadLetter, .reason = config::DlqReason::kNotRetryable};
    case config::ClassAction::kPark:
      return RetryRoute{.kind = Kind::kPark};
    case config::ClassAction::kRetry:
      break;
  }
  if (m.attempts >= policy.attempts_max) {
    return RetryRoute{.kind = Kind::kDeadLetter, .reason = config::DlqReason::kMaxAttempts};
  }
  if (!budget_.Allow(now)) {
    return RetryRoute{.kind = Kind::kDeadLetter, .reason = config::DlqReason::kRetryBudget};
  }
  // SQS has no backoff of its own: the message reappears when the visibility timeout ends.
  if (retry_.delivery == config::RetryDelivery::kVisibilityTimeout) return {.kind = Kind::kLapse};
  if (retry_.delivery == config::RetryDelivery::kRequeue) return {.kind = Kind::kReturn};
  BackoffState state{m.backoff_previous};
  engine::Duration delay =
      BackoffDelay(policy.backoff ? *policy.backoff : retry_.backoff, m.attempts, state, rng);
  m.backoff_previous = state.previous;
  if (error == config::ErrorClass::kRateLimited && policy.honor_retry_after && retry_after) {
    delay = *retry_after;
  }
  if (retry_.delivery == config::RetryDelivery::kEtaInConsumer) {
    return RetryRoute{.kind = Kind::kEta, .delay = delay};
  }
  if (retry_.delivery == config::RetryDelivery::kSleepInConsumer) {
    return RetryRoute{.kind = Kind::kSleep, .delay = delay};
  }
  return RetryRoute{.kind = Kind::kDelay, .delay = delay};
}

std::optional<engine::Duration> RetryRouter::RedeliveryDelay(Message& m, engine::Rng& rng) const {
  if (!redelivery_backoff_) return std::nullopt;
  BackoffState state{m.backoff_previous};
  const engine::Duration delay =
      BackoffDelay(*redelivery_backoff_, std::max<int64_t>(1, m.receive_count), state, rng);
  m.backoff_previous = state.previous;
  return delay;
}

}  // namespace drainsim::model
