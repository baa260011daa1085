// From a scenario's distribution spec to durations drawn during a run.
//
// The scenario keeps distributions as the user wrote them, in the unit of their field
// (`db_op_ms` in milliseconds); the engine samples unit-free doubles. A DurationSampler joins
// the two: it owns the engine distribution and the unit, and rounds each draw to the
// microsecond. Each Sample() consumes exactly one uniform draw (see engine::Distribution).
#pragma once

#include "sim/config/distribution.h"
#include "sim/config/engine_distribution.h"
#include "sim/engine/distributions.h"
#include "sim/engine/rng.h"
#include "sim/engine/time.h"

namespace drainsim::model {

class DurationSampler {
 public:
  // `micros_per_unit`: 1000 for a `_ms` field, 1e6 for a `_s` field. The model uses Millis.
  DurationSampler(const config::DistributionSpec& spec, double micros_per_unit)
      : distribution_(config::ToEngineDistribution(spec)), micros_per_unit_(micros_per_unit) {}

  // The sampler of a `_ms` field's spec (every distribution field of the format is one): the
  // unit is bound here, once, not passed by hand at each use.
  static DurationSampler Millis(const config::DistributionSpec& spec_ms) {
    return DurationSampler(spec_ms, 1e3);
  }

  // One draw, rounded to the microsecond, never negative, capped at 100 years.
  engine::Duration Sample(engine::Rng& rng) const;

 private:
  engine::Distribution distribution_;
  double micros_per_unit_;
};

}  // namespace drainsim::model
