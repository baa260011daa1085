#include "sim/model/live_traffic.h"

#include <cmath>

namespace drainsim::model {

LiveTraffic::LiveTraffic(const config::LiveTraffic& spec, uint64_t seed)
    : rate_per_s_(spec.rate_per_s),
      query_(DurationSampler::Millis(spec.query_ms)),
      rng_(engine::Rng::ForStream(seed, kStreamLive, 0)) {}

LiveTraffic::Query LiveTraffic::Arrive(engine::Instant now) {
  Query query;
  query.owner = kOwnerBit | static_cast<uint64_t>(sequence_++);
  query.service = query_.Sample(rng_);
  query.next_at = engine::Instant::Never();
  const double gap_us = std::nearbyint(-std::log(rng_.NextOpenDouble()) / rate_per_s_ * 1e6);
  if (gap_us < static_cast<double>(engine::kInputMicrosMax)) {
    query.next_at = now + engine::Duration::Micros(static_cast<int64_t>(gap_us));
  }
  return query;
}

}  // namespace drainsim::model
