#include "sim/model/durations.h"

#include <algorithm>
#include <cmath>

namespace drainsim::model {

engine::Duration DurationSampler::Sample(engine::Rng& rng) const {
  const double micros = std::nearbyint(distribution_.Sample(rng) * micros_per_unit_);
  const double capped = std::clamp(micros, 0.0, static_cast<double>(engine::kInputMicrosMax));
  return engine::Duration::Micros(static_cast<int64_t>(capped));
}

}  // namespace drainsim::model
