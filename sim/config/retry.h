// The retry policy: the error class of a failure picks its route (retry with backoff, dead
// letter, park); a retry budget and a circuit breaker limit how much retrying can hurt.
//
// Invariants of a loaded scenario (the loader checks them):
//  (1) linear/exponential: 0 < base <= cap; exponential factor in [1, 100].
//  (2) Jitter low/high are meaningful for "proportional" only: 0 <= low <= high <= 100.
//  (3) "decorrelated" jitter is used only with exponential backoff: it takes base and cap from
//      it. It grows by AWS's fixed 3 (min(cap, uniform(base, 3 * previous))), not by `factor`,
//      which it ignores; the exponential curve itself is not used. "sidekiq" jitter is never
//      used with the sidekiq curve, which carries its own random term.
//  (4) ClassPolicy: attempts_max in [1, 1000] and `backoff` are meaningful iff action ==
//      retry; honor_retry_after is meaningful for rate_limited only.
#pragma once

#include <cstdint>
#include <optional>
#include <variant>

#include "sim/config/enums.h"
#include "sim/engine/time.h"

namespace drainsim::config {

using engine::Duration;

// The random spread applied to a computed delay, to keep retries from arriving together.
struct Jitter {
  JitterKind kind = JitterKind::kFull;
  double low = 0;   // "proportional" only: multiplier range [low, high]; the seed's
  double high = 0;  // "full-ish" jitter is 0.5..1.0.
  // "sidekiq" only: which of Sidekiq's random terms is added. Default "full_range",
  // rand(10 * (count + 1)) (Sidekiq 8.0 and later); the sidekiq preset sets it from
  // broker.version.
  SidekiqRandomTerm random_term = SidekiqRandomTerm::kFullRange;
  bool operator==(const Jitter&) const = default;
};

struct ConstantBackoff {
  Duration delay = Duration::Seconds(1);  // JSON `delay_s`, > 0. Required.
  bool operator==(const ConstantBackoff&) const = default;
};
struct LinearBackoff {
  Duration base;  // JSON `base_s`, > 0. Required. Delay before the first retry.
  Duration step;  // JSON `step_s`, >= 0. Required. Added per further attempt.
  Duration cap;   // JSON `cap_s`, >= base_s. Required.
  bool operator==(const LinearBackoff&) const = default;
};
struct ExponentialBackoff {
  Duration base;      // JSON `base_s`, > 0. Required.
  double factor = 2;  // 1..100. Default 2.
  Duration cap;       // JSON `cap_s`, >= base_s. Required. Keeps late retries reasonable.
  bool operator==(const ExponentialBackoff&) const = default;
};
// Sidekiq's polynomial: count^4 + 15 + a random term seconds, count = attempts - 1. The random
// term is its jitter, so its default jitter is "none" (see Backoff::jitter).
struct SidekiqBackoff {
  // JSON `random_term`. Default "stepped", rand(10) * (count + 1) (Sidekiq up to 7.x), so that a
  // hand-written {"kind": "sidekiq"} keeps the formula it always had; "full_range",
  // rand(10 * (count + 1)), is Sidekiq 8.0 and later. The sidekiq preset sets it from
  // broker.version.
  SidekiqRandomTerm random_term = SidekiqRandomTerm::kStepped;
  bool operator==(const SidekiqBackoff&) const = default;
};

struct Backoff {
  using Curve = std::variant<ConstantBackoff, LinearBackoff, ExponentialBackoff, SidekiqBackoff>;
  // JSON: `kind` plus the curve's fields, flat in one object.
  Curve curve = ExponentialBackoff{Duration::Seconds(1), 2, Duration::Seconds(300)};
  // Default {"kind": "full"}; for kind "sidekiq" the default is {"kind": "none"}, because
  // Sidekiq's formula already spreads retries with its random term. A `jitter` given in the
  // input wins either way.
  Jitter jitter;
  BackoffKind kind() const { return static_cast<BackoffKind>(curve.index()); }
  bool operator==(const Backoff&) const = default;
};
static_assert(std::variant_size_v<Backoff::Curve> ==
              static_cast<size_t>(BackoffKind::kSidekiq) + 1);

// The route of one error class.
struct ClassPolicy {
  ClassAction action = ClassAction::kRetry;
  // Attempts in all, the first included ("2" = one retry). Only with action "retry".
  int64_t attempts_max = 1;
  // rate_limited only: wait what the server's Retry-After says instead of the backoff.
  bool honor_retry_after = false;
  // Only with action "retry". Default null: the policy's backoff.
  std::optional<Backoff> backoff;
  bool operator==(const ClassPolicy&) const = default;
};

// Defaults (the original design's table): honour 429s, retry transient errors, dead-letter
// permanent ones at once, give unknown ones a second chance.
struct RetryClasses {
  ClassPolicy rate_limited{ClassAction::kRetry, 10, true, std::nullopt};
  ClassPolicy transient{ClassAction::kRetry, 5, false, std::nullopt};
  ClassPolicy permanent{ClassAction::kDeadLetter, 1, false, std::nullopt};
  ClassPolicy unknown{ClassAction::kRetry, 2, false, std::nullopt};
  // The route of a failure of class `error`.
  const ClassPolicy& For(ErrorClass error) const {
    switch (error) {
      case ErrorClass::kRateLimited:
        return rate_limited;
      case ErrorClass::kTransient:
        return transient;
      case ErrorClass::kPermanent:
        return permanent;
      case ErrorClass::kUnknown:
        return unknown;
    }
    return unknown;
  }
  bool operator==(const RetryClasses&) const = default;
};

// Retries are allowed while retries <= ratio * successes + burst over the last `window`
// (Finagle's RetryBudget). A refused retry dead-letters the message (reason retry_budget).
struct RetryBudget {
  double ratio = 0.1;                       // [0, 1]. Default 0.1.
  int64_t burst = 10;                       // 0..1e9. Default 10. Retries allowed regardless.
  Duration window = Duration::Seconds(10);  // JSON `window_s`, > 0. Default 10 s.
  bool operator==(const RetryBudget&) const = default;
};

// Opens when the failure rate over `window` reaches error_rate_open (after at least
// attempts_min attempts): consumers stop taking messages, which wait in the main queue; after
// `open` it lets half_open_probes attempts through and closes if they all succeed.
struct CircuitBreaker {
  double error_rate_open = 0.5;             // (0, 1]. Default 0.5.
  Duration window = Duration::Seconds(30);  // JSON `window_s`, > 0. Default 30 s.
  Duration open = Duration::Seconds(60);    // JSON `open_s`, > 0. Default 60 s.
  int64_t half_open_probes = 5;             // 1..1e6. Default 5.
  int64_t attempts_min = 20;                // 1..1e9. Default 20: no opening on 1 of 1.
  bool operator==(const CircuitBreaker&) const = default;
};

struct RetryPolicy {
  // Default "republish": the seed's advice; "sleep_in_consumer" keeps the slot and shows the
  // starvation it causes.
  RetryDelivery delivery = RetryDelivery::kRepublish;
  // With delivery "requeue": the AMQP method. Default "reject".
  RequeueWith requeue_with = RequeueWith::kReject;
  // Default: exponential, base 1 s, factor 2, cap 300 s, full jitter.
  Backoff backoff;
  RetryClasses classes;
  std::optional<RetryBudget> budget;              // Default null: unlimited retries.
  std::optional<CircuitBreaker> circuit_breaker;  // Default null: no breaker.
  bool operator==(const RetryPolicy&) const = default;
};

}  // namespace drainsim::config
