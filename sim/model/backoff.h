// The delay before a message's next attempt: a backoff curve (the ceiling) spread by jitter.
//
// Ceilings, with n = attempts_made (1 after the first failure):
//   constant     delay
//   linear       min(cap, base + step * (n - 1))
//   exponential  min(cap, base * factor^(n - 1)), capped early, so any n is safe
//   sidekiq      c^4 + 15 + a random term seconds, with c = n - 1 (Sidekiq counts retries from
//                0); the term is Sidekiq's own randomness, r uniform in {0, ..., count - 1}
//                with count = SidekiqRandCount:
//                  stepped     r * (c + 1), count 10          (rand(10) * (c + 1), Sidekiq <= 7.x)
//                  full_range  r, count 10 * (c + 1)          (rand(10 * (c + 1)), Sidekiq >= 8.0)
// Every ceiling and delay is clamped at kBackoffDelayMax (100 years).
// Jitter of a ceiling d, with u uniform on [0, 1):
//   none          d
//   full          d * u                          in [0, d]
//   equal         d / 2 + (d / 2) * u            in [d / 2, d]
//   proportional  d * (low + (high - low) * u)   in [d * low, d * high]
//   decorrelated  min(cap, base + (3 * previous - base) * u)   in [base, cap]
//   sidekiq       d + Sidekiq's random term (the table above, by the jitter's random_term) in
//                 whole seconds, from the same r; never with the sidekiq curve (the loader
//                 refuses it), so r is the jitter's alone
// Decorrelated jitter is the AWS Architecture Blog's ("Exponential Backoff And Jitter", 2015):
// it ignores the curve's ceiling and grows from the previous delay of the same message, starting
// at base; it needs an exponential curve, whose base and cap it uses. Every result is rounded
// to the nearest microsecond (ties to even).
//
// Jitter applies to the Sidekiq curve too: a scenario that wants Sidekiq's own behaviour should
// say jitter "none", since the default jitter ("full") would spread Sidekiq's delays again.
//
// Invariants:
//  (1) Every call draws exactly kBackoffDrawsPerCall = 2 outputs from the generator, whatever
//      the curve, the jitter, the attempt and the state: first one NextU64 (Sidekiq's r), then
//      one NextDouble (the jitter's u). Both are drawn even when unused, so two policies
//      compared with common random numbers consume their streams in step. r is the high word
//      of NextU64() * count (Lemire's method without its rare rejection step, which would cost
//      an extra draw): each value's probability is within count / 2^64 of 1 / count (count is
//      at most 100,010, so within 2^-47). Both random terms take r from the same output: the
//      stepped one's r is the one drainsim always drew.
//  (2) 0 <= delay <= kBackoffDelayMax.
//  (3) With decorrelated jitter, base <= delay <= cap.
//  (4) The result depends only on the arguments and the generator's state: the arithmetic is
//      integer or exactly specified IEEE double (no pow, no library transcendental functions).
//
// Thread-safety: pure functions of their arguments; the Rng and the state are the caller's.
#pragma once

#include <cstdint>

#include "sim/config/retry.h"
#include "sim/engine/rng.h"
#include "sim/engine/time.h"

namespace drainsim::model {

// Every delay is at most 100 years (engine::kInputMicrosMax): beyond any run, and far enough
// from int64's limit that now + delay cannot overflow. Sidekiq's curve reaches it at c = 238.
inline constexpr engine::Duration kBackoffDelayMax =
    engine::Duration::Micros(engine::kInputMicrosMax);

// How many 64-bit generator outputs BackoffDelay consumes per call (see invariant (1)).
inline constexpr int kBackoffDrawsPerCall = 2;

// Decorrelated jitter draws from [base, kDecorrelatedGrowth * previous], as in the AWS post.
inline constexpr int64_t kDecorrelatedGrowth = 3;

// Per message: what decorrelated jitter remembers between attempts.
struct BackoffState {
  // The delay the last BackoffDelay call returned for this message; zero before the first
  // retry (decorrelated jitter then starts from base). Reset it when a message is replayed.
  engine::Duration previous = engine::Duration::Zero();
};

// How many values Sidekiq's r is drawn from before retry `attempts_made` (see the table above):
// 10 * (c + 1) for a full_range sidekiq curve (c clamped at 10,000 as the ceiling clamps it),
// else 10 (the other curves draw r too, and ignore it).
// REQUIRES: attempts_made >= 1
int64_t SidekiqRandCount(const config::Backoff::Curve& curve, int64_t attempts_made);
// The same for a whole policy: by the jitter's random_term under "sidekiq" jitter, else by the
// curve. BackoffDelay draws r from this count.
int64_t SidekiqRandCount(const config::Backoff& policy, int64_t attempts_made);
// The largest random term "sidekiq" jitter adds before retry `attempts_made`, in seconds.
// REQUIRES: jitter.kind == sidekiq; attempts_made >= 1
int64_t SidekiqJitterMaxS(const config::Jitter& jitter, int64_t attempts_made);

// The curve's delay before jitter, clamped at kBackoffDelayMax. `sidekiq_rand` is Sidekiq's r
// and is ignored by the other curves.
// REQUIRES: attempts_made >= 1; 0 <= sidekiq_rand < SidekiqRandCount(curve, attempts_made)
// REQUIRES: the curve satisfies config/retry.h's invariant (1); constant delay >= 0; linear
//           step >= 0
engine::Duration BackoffCeiling(const config::Backoff::Curve& curve, int64_t attempts_made,
                                int64_t sidekiq_rand);

// The delay before the next attempt of a message that has run `attempts_made` attempts, all
// failed. Draws exactly kBackoffDrawsPerCall outputs from `rng` and sets state.previous to the
// result.
// REQUIRES: attempts_made >= 1
// REQUIRES: the policy satisfies config/retry.h's invariants (1) to (3) (checked)
engine::Duration BackoffDelay(const config::Backoff& policy, int64_t attempts_made,
                              BackoffState& state, engine::Rng& rng);

}  // namespace drainsim::model
