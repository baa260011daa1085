// The scenario's names for the base layer's JSON integer helpers (sim/base/json_integers.h:
// why a seed above 2^53 is written as a string), kept so that the loader and dump need no edit.
#pragma once

#include "sim/base/json_integers.h"

namespace drainsim::scenario {

using base::kJsonExactIntegerMax;
using base::Uint64Json;

}  // namespace drainsim::scenario
