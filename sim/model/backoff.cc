#include "sim/model/backoff.h"

#include <algorithm>
#include <cmath>
#include <variant>

#include "sim/base/check.h"

namespace drainsim::model {

using engine::Duration;

namespace {

constexpr int64_t kMicrosPerSecond = 1'000'000;
// Sidekiq's rand(10) (and the factor of full_range's rand(10 * (count + 1))).
constexpr int64_t kSidekiqRandTen = 10;
// Beyond this retry count Sidekiq's fourth power exceeds kBackoffDelayMax; the bound keeps the
// arithmetic within int64.
constexpr int64_t kSidekiqCountLimit = 10'000;

// Rounds a non-negative number of microseconds to the nearest one and clamps it into
// [0, kBackoffDelayMax]. Every ceiling is below 2^53, so the doubles here hold it exactly.
Duration RoundedDelay(double micros) {
  const double clamped =
      std::clamp(std::nearbyint(micros), 0.0, static_cast<double>(kBackoffDelayMax.micros()));
  return Duration::Micros(static_cast<int64_t>(clamped));
}

// Sidekiq's r in 0..count-1 from one 64-bit output: the high word of bits * count (Lemire's
// multiply, without the rejection step, so that it always takes exactly one output). Each
// value's probability is within count / 2^64 of 1 / count.
int64_t SidekiqRand(uint64_t bits, int64_t count) {
  const unsigned __int128 product =
      static_cast<unsigned __int128>(bits) * static_cast<uint64_t>(count);
  return static_cast<int64_t>(product >> 64);
}

// Sidekiq's count (retries so far) before retry `attempts_made`, clamped at kSidekiqCountLimit.
int64_t SidekiqCount(int64_t attempts_made) {
  return std::min(attempts_made - 1, kSidekiqCountLimit);
}

void CheckCurve(const config::ConstantBackoff& curve) {
  DRAINSIM_CHECK(curve.delay >= Duration::Zero());
}
void CheckCurve(const config::LinearBackoff& curve) {
  DRAINSIM_CHECK(curve.base > Duration::Zero());
  DRAINSIM_CHECK(curve.base <= curve.cap);
  DRAINSIM_CHECK(curve.step >= Duration::Zero());
}
void CheckCurve(const config::ExponentialBackoff& curve) {
  DRAINSIM_CHECK(curve.base > Duration::Zero());
  DRAINSIM_CHECK(curve.base <= curve.cap);
  DRAINSIM_CHECK(curve.factor >= 1);  // also refuses NaN
  DRAINSIM_CHECK(curve.factor <= 100);
}
void CheckCurve(const config::SidekiqBackoff&) {}

Duration Ceiling(const config::ConstantBackoff& curve, int64_t /*attempts_made*/, int64_t) {
  return std::min(curve.delay, kBackoffDelayMax);
}

Duration Ceiling(const config::LinearBackoff& curve, int64_t attempts_made, int64_t) {
  const int64_t steps = attempts_made - 1;
  const int64_t room = (curve.cap - curve.base).micros();
  // step * steps > room iff steps > room / step: decided before multiplying, so any attempt
  // count is safe.
  if (curve.step > Duration::Zero() && steps > room / curve.step.micros()) {
    return std::min(curve.cap, kBackoffDelayMax);
  }
  return std::min(curve.base + curve.step * steps, kBackoffDelayMax);
}

// base * factor^(n - 1) by binary exponentiation: O(log n) multiplications, each an exactly
// rounded IEEE operation. It stops as soon as the result must reach the cap: the factor is at
// least 1, so no later multiplication can bring a partial power back down.
Duration Ceiling(const config::ExponentialBackoff& curve, int64_t attempts_made, int64_t) {
  const double base = static_cast<double>(curve.base.micros());
  const double cap = static_cast<double>(curve.cap.micros());
  const Duration capped = std::min(curve.cap, kBackoffDelayMax);
  double power = 1;
  double square = curve.factor;
  for (int64_t exponent = attempts_made - 1; exponent > 0; exponent >>= 1) {
    if (exponent & 1) {
      power *= square;
      if (base * power >= cap) return capped;
    }
    if (exponent > 1) {
      square *= square;
      // A later bit of the exponent multiplies power (>= 1) by square or more.
      if (base * square >= cap) return capped;
    }
  }
  return std::min(RoundedDelay(base * power), capped);
}

// Sidekiq's random term in seconds from its r. job_retry.rb: rand(10) * (count + 1) up to 7.x;
// rand(10 * (count + 1)) from 8.0.
int64_t SidekiqTermS(config::SidekiqRandomTerm term, int64_t attempts_made, int64_t sidekiq_rand) {
  return term == config::SidekiqRandomTerm::kFullRange
             ? sidekiq_rand
             : sidekiq_rand * (SidekiqCount(attempts_made) + 1);
}

// How many values r is drawn from under `term` (see backoff.h's table).
int64_t TermRandCount(config::SidekiqRandomTerm term, int64_t attempts_made) {
  return term == config::SidekiqRandomTerm::kFullRange
             ? kSidekiqRandTen * (SidekiqCount(attempts_made) + 1)
             : kSidekiqRandTen;
}

Duration Ceiling(const config::SidekiqBackoff& curve, int64_t attempts_made, int64_t sidekiq_rand) {
  const int64_t count = SidekiqCount(attempts_made);
  const int64_t random_s = SidekiqTermS(curve.random_term, attempts_made, sidekiq_rand);
  const int64_t seconds = count * count * count * count + 15 + random_s;
  const int64_t seconds_max = kBackoffDelayMax.micros() / kMicrosPerSecond;
  return Duration::Seconds(std::min(seconds, seconds_max));
}

}  // namespace

int64_t SidekiqRandCount(const config::Backoff::Curve& curve, int64_t attempts_made) {
  DRAINSIM_CHECK(attempts_made >= 1);
  const auto* sidekiq = std::get_if<config::SidekiqBackoff>(&curve);
  if (sidekiq == nullptr) return kSidekiqRandTen;
  return TermRandCount(sidekiq->random_term, attempts_made);
}

int64_t SidekiqRandCount(const config::Backoff& policy, int64_t attempts_made) {
  DRAINSIM_CHECK(attempts_made >= 1);
  if (policy.jitter.kind == config::JitterKind::kSidekiq) {
    return TermRandCount(policy.jitter.random_term, attempts_made);
  }
  return SidekiqRandCount(policy.curve, attempts_made);
}

int64_t SidekiqJitterMaxS(const config::Jitter& jitter, int64_t attempts_made) {
  DRAINSIM_CHECK(jitter.kind == config::JitterKind::kSidekiq);
  return SidekiqTermS(jitter.random_term, attempts_made,
                      TermRandCount(jitter.random_term, attempts_made) - 1);
}

Duration BackoffCeiling(const config::Backoff::Curve& curve, int64_t attempts_made,
                        int64_t sidekiq_rand) {
  DRAINSIM_CHECK(attempts_made >= 1);
  DRAINSIM_CHECK(sidekiq_rand >= 0);
  DRAINSIM_CHECK(sidekiq_rand < SidekiqRandCount(curve, attempts_made));
  return std::visit(
      [&](const auto& alternative) {
        CheckCurve(alternative);
        return Ceiling(alternative, attempts_made, sidekiq_rand);
      },
      curve);
}

Duration BackoffDelay(const config::Backoff& policy, int64_t attempts_made, BackoffState& state,
                      engine::Rng& rng) {
  // Invariant (1): both draws happen first, unconditionally and in this order.
  const int64_t sidekiq_rand = SidekiqRand(rng.NextU64(), SidekiqRandCount(policy, attempts_made));
  const double u = rng.NextDouble();

  const config::Jitter& jitter = policy.jitter;
  // With "sidekiq" jitter r is the jitter's; the curve (never sidekiq then) ignores it.
  const bool jitter_takes_r = jitter.kind == config::JitterKind::kSidekiq;
  const double ceiling = static_cast<double>(
      BackoffCeiling(policy.curve, attempts_made, jitter_takes_r ? 0 : sidekiq_rand).micros());
  Duration delay;
  switch (jitter.kind) {
    case config::JitterKind::kNone:
      delay = RoundedDelay(ceiling);
      break;
    case config::JitterKind::kFull:
      delay = RoundedDelay(ceiling * u);
      break;
    case config::JitterKind::kEqual:
      delay = RoundedDelay(ceiling / 2 + (ceiling / 2) * u);
      break;
    case config::JitterKind::kProportional:
      DRAINSIM_CHECK(jitter.low >= 0);  // also refuses NaN
      DRAINSIM_CHECK(jitter.low <= jitter.high);
      DRAINSIM_CHECK(jitter.high <= 100);
      delay = RoundedDelay(ceiling * (jitter.low + (jitter.high - jitter.low) * u));
      break;
    case config::JitterKind::kFullWholeSeconds: {
      // Celery: random.randrange(int(countdown) + 1), a whole second in 0..floor(ceiling).
      const int64_t whole_s = static_cast<int64_t>(ceiling) / kMicrosPerSecond;
      const auto pick =
          std::min(static_cast<int64_t>(u * static_cast<double>(whole_s + 1)), whole_s);
      delay = Duration::Seconds(pick);
      break;
    }
    case config::JitterKind::kSidekiq:
      delay = RoundedDelay(ceiling + static_cast<double>(SidekiqTermS(jitter.random_term,
                                                                      attempts_made, sidekiq_rand) *
                                                         kMicrosPerSecond));
      break;
    case config::JitterKind::kDecorrelated: {
      const auto* curve = std::get_if<config::ExponentialBackoff>(&policy.curve);
      DRAINSIM_CHECK(curve != nullptr);
      // Before the first retry, and after a replay reset, the previous delay counts as base.
      const Duration previous = std::max(state.previous, curve->base);
      const double base = static_cast<double>(curve->base.micros());
      const double high = static_cast<double>(previous.micros()) * kDecorrelatedGrowth;
      delay = std::min(RoundedDelay(base + (high - base) * u), curve->cap);
      DRAINSIM_CHECK(delay >= curve->base);
      break;
    }
  }
  DRAINSIM_CHECK(delay >= Duration::Zero());
  DRAINSIM_CHECK(delay <= kBackoffDelayMax);
  state.previous = delay;
  return delay;
}

}  // namespace drainsim::model
