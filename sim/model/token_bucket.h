// A token bucket: at most `burst` tokens, refilled at `rate_per_s`, one token per admitted
// request. Used by the downstream API's rate limit and by "drip" and "adaptive" drains.
//
// Exact arithmetic: the bucket counts femto-tokens (10^-15 token) in a 128-bit integer, and the
// rate is held as a whole number of nano-tokens per second, which is the same number of
// femto-tokens per microsecond. Refilling over t microseconds adds exactly rate * t units, so
// there is no floating drift: after a million tokens the next one is still due at exactly the
// microsecond the rate says, never one early. The only rounding is at SetRate and construction:
// the rate is rounded to the nearest 10^-9 token/s, so rates with up to nine decimals (20/s,
// 0.3/s, 1e-9/s) are exact and others are off by less than 5e-10 token/s.
//
// A full bucket accrues nothing, the partly grown next token included (the usual token bucket,
// min(burst, tokens + rate * dt)): after any idle period, requests are again spaced at least
// 1 / rate apart once the burst is spent, which is what burst 1 ("strictly spaced") promises.
//
// Invariants:
//  (1) 0 <= tokens <= burst at every instant (fractions of a token included).
//  (2) Time never goes backwards: every call's `now` is at or after the latest instant passed to
//      TryTake or SetRate, and at or after Instant::Zero(), when the bucket starts full.
//  (3) NextAvailable(now) is the earliest instant t >= now at which TryTake(t) would succeed if
//      nothing else happened: TryTake succeeds at it, and fails at every earlier instant.
//  (4) A greedy taker (TryTake at every NextAvailable) from instant 0 takes `burst` tokens at 0,
//      then: if burst >= 2 and rate_per_s <= 1e6, its k-th further token at exactly
//      ceil(k / rate), so burst + floor(rate * T) tokens over [0, T]; if burst == 1, one token
//      every ceil(1 / rate) microseconds (the bucket is full for the fraction of a microsecond
//      the clock cannot resolve).
//
// Thread-safety: none; a bucket is a value owned by one run.
#pragma once

#include <cstdint>

#include "sim/engine/time.h"

namespace drainsim::model {

class TokenBucket {
 public:
  // A token every 31.7 years: slower than any run, and the rate's resolution.
  static constexpr double kRatePerSecondMin = 1e-9;
  // A thousand tokens per microsecond: the simulated clock cannot space requests closer.
  static constexpr double kRatePerSecondMax = 1e9;
  static constexpr int64_t kBurstMax = 1'000'000'000'000;

  // Full at Instant::Zero().
  // REQUIRES: kRatePerSecondMin <= rate_per_s <= kRatePerSecondMax; 1 <= burst <= kBurstMax
  TokenBucket(double rate_per_s, int64_t burst);

  // Takes one token if there is one at `now`; true iff it took one.
  // REQUIRES: invariant (2)
  bool TryTake(engine::Instant now);

  // The earliest instant, at or after `now`, at which TryTake would succeed (invariant (3)).
  // REQUIRES: invariant (2)
  engine::Instant NextAvailable(engine::Instant now) const;

  // Whole tokens available at `now`: how many TryTake calls at `now` would succeed.
  // REQUIRES: invariant (2)
  int64_t WholeTokens(engine::Instant now) const;

  // Changes the rate and the capacity from `now` on (a rate-limit fault, an adaptive drain's
  // step). Tokens accrued up to `now` at the old rate are kept, capped at the new burst, and so
  // is a partly accrued token.
  // REQUIRES: invariant (2); the same bounds as the constructor
  void SetRate(engine::Instant now, double rate_per_s, int64_t burst);

  // The rate in effect, after rounding to the nearest 10^-9 token/s.
  double rate_per_s() const;
  int64_t burst() const { return burst_; }

 private:
  // Femto-tokens.
  using Units = __int128;
  static constexpr Units kUnitsPerToken = 1'000'000'000'000'000;

  static int64_t QuantizedRate(double rate_per_s);
  static void CheckBurst(int64_t burst);
  Units Capacity() const { return static_cast<Units>(burst_) * kUnitsPerToken; }
  // The units held at `now`, capped at Capacity(), without changing the bucket.
  Units UnitsAt(engine::Instant now) const;
  void Refill(engine::Instant now);

  // Nano-tokens per second == femto-tokens per microsecond; at least 1.
  int64_t rate_units_per_us_;
  int64_t burst_;
  Units units_;
  engine::Instant updated_at_ = engine::Instant::Zero();
};

}  // namespace drainsim::model
