#include "sim/model/live_traffic.h"

namespace drainsim::model {

LiveTraffic::LiveTraffic(const config::LiveTraffic& spec, uint64_t seed)
    : rate_per_s_(spec.rate_per_s),
      query_(DurationSampler::Millis(spec.query_ms)),
      rng_(engine::Rng::ForStream(seed, kStreamLive, 0)) {}

}  // namespace drainsim::model
