// The loader's limits that fault field tables share, the chaos swarm's ladders of values, and
// the fields every injected failure has: the vocabulary of sim/config/faults.h's tables.
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>

#include "sim/config/fault_field.h"

namespace drainsim::config {

// The loader's limits on fault fields that the tables share (the swarm respects them too).
struct FaultLimits {
  static constexpr size_t kFaultsMax = 1000;          // faults per scenario
  static constexpr double kFailAfterMsMax = 86400e3;  // fail_after_ms: one day
  static constexpr double kDowntimeSMax = 86400;      // downtime_s, recovery_s: one day
  static constexpr double kCountMax = 1e9;            // synthetic and poison counts
  static constexpr double kSlowdownFactorMin = 1;     // db_slowdown factor
  static constexpr double kSlowdownFactorMax = 1000;
  static constexpr int64_t kConnectionsMax = 100'000;  // db_connections connections
  static constexpr double kCrashRatePerHMax = 1e6;     // worker_crash rate_per_h
  // worker_crash count: workers.count's maximum (the loader checks it against workers.count).
  static constexpr double kCrashCountMax = 100'000;
  static constexpr double kBurstMax = 1e9;  // downstream_rate_limit burst
  // A token bucket's rates (model::TokenBucket): a token every 31.7 years up to a thousand per
  // microsecond; the downstream_rate_limit fault uses all of it.
  static constexpr double kTokenRatePerSMin = 1e-9;
  static constexpr double kTokenRatePerSMax = 1e9;
};

// The swarm's ladders (chaos/fault_draw.cc): 1-2-5 steps, log-uniform enough to reach both the
// barely noticeable and the brutal, and exact in decimal so a dumped variant reads as drawn.
inline constexpr double kSwarmProbabilities[] = {0.001, 0.002, 0.005, 0.01, 0.02,
                                                 0.05,  0.1,   0.2,   0.5,  1.0};
inline constexpr double kSwarmPoisonFractions[] = {0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1};
inline constexpr double kSwarmCrashRatesPerH[] = {1, 2, 5, 10, 20, 50, 100, 200};
inline constexpr double kSwarmSlowdownFactors[] = {1.5, 2, 5, 10, 25, 50, 100};
inline constexpr double kSwarmRateLimitsPerS[] = {0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50};
// Up to the seed's 30 s "failing slowly": long enough to outlast a visibility timeout.
inline constexpr double kSwarmFailAfterMs[] = {0, 10, 100, 1000, 5000, 30000};
inline constexpr double kSwarmDowntimeS[] = {0, 1, 5, 30, 60, 120};

namespace fields {
using K = FieldKind;
using S = SwarmDraw;
using L = FaultLimits;
// The fields every injected failure shares: the error class the handler sees (the struct gives
// the type's default) and how long the failing attempt runs first.
template <typename F>
constexpr auto InjectedFields() {
  return std::tuple{
      Optional("error", &F::error, K::kEnum)
          .Doc("Error class the handler sees on a failing attempt; picks the retry route (see "
               "retry.classes).")
          .Swarm(S::kDraw)
          .Fuzz(50),
      Nullable("fail_after_ms", &F::fail_after, K::kMillis, Closed(0, L::kFailAfterMsMax))
          .Doc("How long a failing attempt runs before it fails, in milliseconds, holding its "
               "worker slot (not a database connection); 0 to 86400000. Set it to a timeout "
               "(30000) to model failing slowly; null fails right after validation. Default: null.")
          .Swarm(S::kCoin, kSwarmFailAfterMs)
          .Fuzz(30, 0, 100, 30000)};
}
}  // namespace fields

}  // namespace drainsim::config
