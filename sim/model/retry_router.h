// The retry policy as a component of World (issue 15 step 3): where a failed attempt's message
// goes by its error class's policy, with what delay, and the broker's own redelivery backoff for
// a message returned by nack or reject. It owns the retry policy's guards (retry_guards.h), the
// retry budget that Route spends from and the circuit breaker. It decides; World does to the
// message what it decides.
//
// Invariants:
//  (1) Route draws from `rng` only for a delayed route (kEta, kSleep, kDelay), BackoffDelay's
//      draws, and asks the budget only for a retry under the class's attempts_max.
//  (2) Route and RedeliveryDelay write nothing of the message but backoff_previous.
//
// Thread-safety: one run's state; not shared.
#pragma once

#include <cstdint>
#include <optional>

#include "sim/config/enums.h"
#include "sim/config/retry.h"
#include "sim/config/system.h"
#include "sim/engine/rng.h"
#include "sim/engine/time.h"
#include "sim/model/message.h"
#include "sim/model/retry_guards.h"

namespace drainsim::model {

// Where a failed attempt's message goes next.
struct RetryRoute {
  enum class Kind : uint8_t {
    kDeadLetter,  // into the DLQ for `reason`
    kPark,        // parked by the class policy (action park)
    kLapse,       // not deleted (retry.delivery visibility_timeout): it reappears when the
                  // delivery's visibility timeout ends
    kReturn,      // nack or reject (retry.delivery requeue); RedeliveryDelay says when it is back
    kEta,         // held in the consumer until `delay` has passed (eta_in_consumer)
    kSleep,       // the consumer sleeps `delay` holding the copy and its slot (sleep_in_consumer)
    kDelay,       // delayed in the broker by `delay` (republish)
  };
  Kind kind = Kind::kDeadLetter;
  config::DlqReason reason = config::DlqReason::kMaxAttempts;  // kDeadLetter
  engine::Duration delay = engine::Duration::Zero();           // kEta, kSleep, kDelay
};

class RetryRouter {
 public:
  RetryRouter(const config::RetryPolicy& retry, const config::Broker& broker);

  // The route of a failed attempt's current copy of `message`, failed with `error`;
  // `retry_after` is the attempt's Retry-After (a 429's), if any. Spends from the budget;
  // draws the backoff's jitter from `rng` (the attempt's stream).
  RetryRoute Route(Message& message, config::ErrorClass error,
                   const std::optional<engine::Duration>& retry_after, engine::Rng& rng,
                   engine::Instant now);
  // How a failed message goes back under retry.delivery requeue.
  config::ReturnKind return_kind() const {
    return retry_.requeue_with == config::RequeueWith::kNack ? config::ReturnKind::kNack
                                                             : config::ReturnKind::kReject;
  }
  // The broker's redelivery backoff (Pub/Sub's retry policy) for a message returned by a
  // failed attempt, by its deliveries so far; nullopt when it is requeued at once.
  std::optional<engine::Duration> RedeliveryDelay(Message& message, engine::Rng& rng) const;

  RetryBudget& budget() { return budget_; }
  CircuitBreaker& breaker() { return breaker_; }
  const CircuitBreaker& breaker() const { return breaker_; }

 private:
  const config::RetryPolicy& retry_;
  const std::optional<config::Backoff>& redelivery_backoff_;
  RetryBudget budget_;
  CircuitBreaker breaker_;
};

}  // namespace drainsim::model
