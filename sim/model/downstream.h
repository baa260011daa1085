// The downstream API the handlers call (issue 15 step 3: a component of World): how long a call
// takes, its rate limit (a token bucket that rate-limit fault windows replace for a while), and
// the Retry-After a refused call's 429 carries. It answers calls that reach it; World decides
// what an answer does to the attempt (its next step, or Fail). An outage is the fault
// schedule's (FaultSchedule::downstream_outage): a call during one never reaches the API.
//
// Invariants:
//  (1) Without a rate limit in force (none configured, no rate-limit window open) every call is
//      admitted and nothing is kept.
//  (2) A refused call's ready_at is the earliest instant a call would be admitted again if
//      nothing else happened (TokenBucket's invariant (3)).
//  (3) Time never goes backwards across calls (TokenBucket's invariant (2)).
//
// Thread-safety: one run's state; not shared.
#pragma once

#include <optional>

#include "sim/config/system.h"
#include "sim/engine/rng.h"
#include "sim/engine/time.h"
#include "sim/model/durations.h"
#include "sim/model/token_bucket.h"

namespace drainsim::model {

class Downstream {
 public:
  explicit Downstream(const config::Downstream& api);

  // One successful call's duration, drawn from the attempt's stream (one draw).
  engine::Duration SampleCall(engine::Rng& rng) const { return call_.Sample(rng); }

  // A 429: the rate limit refused the call.
  struct Refusal {
    // Set iff the API states Retry-After (retry_after is not "none"): when it will admit a call
    // again (invariant (2)), and how long a client reading the header waits (clock skew and
    // the header's rounding included; retry_after.h).
    std::optional<engine::Instant> ready_at;
    std::optional<engine::Duration> client_wait;
  };
  // A call reaching the API at `now` takes a token; true iff it is admitted. (A bool, not an
  // optional Refusal: the call path is hot.)
  bool Admit(engine::Instant now) {
    return !bucket_ || bucket_->TryTake(now);  // invariant (1) first, the common case
  }
  // The 429 of a call Admit refused at `now`. REQUIRES: Admit(now) was false.
  Refusal Refuse(engine::Instant now) const;

  // A rate-limit fault window opens at `now`: `rate_per_s` and `burst` are in force until it
  // closes (tokens accrued so far are kept, capped at the new burst).
  void LimitRate(engine::Instant now, double rate_per_s, int64_t burst);
  // The window closes at `now`: the configured rate limit again, or none.
  void EndRateLimit(engine::Instant now);

 private:
  // The configured limit (rate_limit_per_s unset: none), restored when a window closes.
  const std::optional<double> rate_limit_per_s_;
  const int64_t burst_;
  const config::RetryAfterFormat retry_after_;
  const engine::Duration clock_skew_;
  const DurationSampler call_;
  std::optional<TokenBucket> bucket_;
};

}  // namespace drainsim::model
