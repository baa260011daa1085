#include "sim/model/downstream.h"

#include "sim/model/retry_after.h"

namespace drainsim::model {

Downstream::Downstream(const config::Downstream& api)
    : rate_limit_per_s_(api.rate_limit_per_s),
      burst_(api.burst),
      retry_after_(api.retry_after),
      clock_skew_(api.clock_skew),
      call_(DurationSampler::Millis(api.call_ms)) {
  if (rate_limit_per_s_) bucket_.emplace(*rate_limit_per_s_, burst_);
}

Downstream::Refusal Downstream::Refuse(engine::Instant now) const {
  Refusal refusal;
  if (retry_after_ != config::RetryAfterFormat::kNone) {
    refusal.ready_at = bucket_->NextAvailable(now);
    refusal.client_wait =
        ClientWaitForRetryAfter(retry_after_, now, *refusal.ready_at, clock_skew_);
  }
  return refusal;
}

void Downstream::LimitRate(engine::Instant now, double rate_per_s, int64_t burst) {
  if (bucket_) {
    bucket_->SetRate(now, rate_per_s, burst);
  } else {
    bucket_.emplace(rate_per_s, burst);  // full: no calls were limited before
  }
}

void Downstream::EndRateLimit(engine::Instant now) {
  if (rate_limit_per_s_) {
    bucket_->SetRate(now, *rate_limit_per_s_, burst_);
  } else {
    bucket_.reset();
  }
}

}  // namespace drainsim::model
