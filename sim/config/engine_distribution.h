// A distribution spec as the engine samples it: the one translation from the configuration's words
// (a lognormal by median and p99, a normal truncated at 0, an empirical table) to
// engine::Distribution, shared by the model's samplers and the loader's plausibility warnings.
#pragma once

#include "sim/engine/distributions.h"
#include "sim/config/distribution.h"

namespace drainsim::config {

// The engine distribution equal to `spec`, with values in the spec's own unit.
// REQUIRES: `spec` passed the loader's checks (distribution.h's invariants).
engine::Distribution ToEngineDistribution(const DistributionSpec& spec);

}  // namespace drainsim::config
