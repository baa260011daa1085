#include "sim/model/token_bucket.h"

#include <algorithm>
#include <cmath>

#include "sim/base/check.h"

namespace drainsim::model {

using engine::Duration;
using engine::Instant;

namespace {
constexpr double kNanoTokensPerToken = 1e9;
}  // namespace

TokenBucket::TokenBucket(double rate_per_s, int64_t burst)
    : rate_units_per_us_(QuantizedRate(rate_per_s)), burst_(burst) {
  CheckBurst(burst);
  units_ = Capacity();
}

int64_t TokenBucket::QuantizedRate(double rate_per_s) {
  DRAINSIM_CHECK(rate_per_s >= kRatePerSecondMin);  // also refuses NaN
  DRAINSIM_CHECK(rate_per_s <= kRatePerSecondMax);
  const int64_t rate = std::llround(rate_per_s * kNanoTokensPerToken);
  DRAINSIM_CHECK(rate >= 1);
  return rate;
}

void TokenBucket::CheckBurst(int64_t burst) {
  DRAINSIM_CHECK(burst >= 1);
  DRAINSIM_CHECK(burst <= kBurstMax);
}

TokenBucket::Units TokenBucket::UnitsAt(Instant now) const {
  DRAINSIM_CHECK(now >= updated_at_);
  const int64_t elapsed_us = (now - updated_at_).micros();
  const Units deficit = Capacity() - units_;
  // Full once elapsed * rate >= deficit; deciding that by division first keeps the product below
  // deficit + rate, far inside 128 bits, however long the bucket sat idle.
  const Units to_full_us = (deficit + rate_units_per_us_ - 1) / rate_units_per_us_;
  if (elapsed_us >= to_full_us) return Capacity();
  return units_ + static_cast<Units>(rate_units_per_us_) * elapsed_us;
}

void TokenBucket::Refill(Instant now) {
  units_ = UnitsAt(now);
  updated_at_ = now;
}

bool TokenBucket::TryTake(Instant now) {
  Refill(now);
  if (units_ < kUnitsPerToken) return false;
  units_ -= kUnitsPerToken;
  DRAINSIM_CHECK(units_ >= 0);
  return true;
}

Instant TokenBucket::NextAvailable(Instant now) const {
  const Units units = UnitsAt(now);
  if (units >= kUnitsPerToken) return now;
  // The smallest whole number of microseconds after which rate * t covers the missing part:
  // one microsecond less would leave the token incomplete, so this is never early (and, being
  // the smallest, never late).
  const Units missing = kUnitsPerToken - units;
  const Units wait_us = (missing + rate_units_per_us_ - 1) / rate_units_per_us_;
  return now + Duration::Micros(static_cast<int64_t>(wait_us));
}

int64_t TokenBucket::WholeTokens(Instant now) const {
  return static_cast<int64_t>(UnitsAt(now) / kUnitsPerToken);
}

void TokenBucket::SetRate(Instant now, double rate_per_s, int64_t burst) {
  const int64_t rate_units_per_us = QuantizedRate(rate_per_s);
  CheckBurst(burst);
  // What accrued up to now accrued at the old rate and under the old capacity.
  Refill(now);
  rate_units_per_us_ = rate_units_per_us;
  burst_ = burst;
  units_ = std::min(units_, Capacity());
}

double TokenBucket::rate_per_s() const {
  return static_cast<double>(rate_units_per_us_) / kNanoTokensPerToken;
}

}  // namespace drainsim::model
