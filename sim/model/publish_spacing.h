// When the k-th publish of a paced stream happens: shared by the model (producers.cc) and
// the chaos swarm, which clips paced fanouts to its safety phase (chaos/plan.cc) and must
// count exactly the publishes the model makes before an instant.
//
// Invariants:
//  (1) Spaced(start, k, rate) = start + round(k * 1e6 / rate) microseconds (ties to even),
//      computed from k rather than by adding gaps, so rounding never accumulates.
//  (2) Non-decreasing in k; Instant::Never() once the offset passes engine::kInputMicrosMax.
//
// Thread-safety: a pure function.
#pragma once

#include <cmath>
#include <cstdint>

#include "sim/engine/time.h"

namespace drainsim::model {

// REQUIRES: k >= 0; rate_per_s > 0.
inline engine::Instant Spaced(engine::Instant start, int64_t k, double rate_per_s) {
  const double offset_us = std::nearbyint(static_cast<double>(k) * 1e6 / rate_per_s);
  if (offset_us > static_cast<double>(engine::kInputMicrosMax)) return engine::Instant::Never();
  return start + engine::Duration::Micros(static_cast<int64_t>(offset_us));
}

}  // namespace drainsim::model
