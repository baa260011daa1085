// Plausibility warnings: values the loader accepts that are almost certainly a unit mistake or a
// contradiction, such as a database timeout below the query time or a drain faster than the
// workers can ever consume. A warning never stops a run; `drainsim check --strict` makes it an
// error. docs/SCENARIO.md lists the rules.
//
// Contract:
//  (1) Pure: the same scenario gives the same warnings, in the same order.
//  (2) Each warning has the JSON pointer of the value to look at and says what the value
//      implies, with the figures it was compared with.
//  (3) Every rule is sound at no load: a bound it compares with is one the run cannot beat
//      (a quantile lower bound of an attempt's time, an upper bound of throughput), so a warning
//      is never about something that merely might happen.
//
// Thread-safety: reentrant.
#pragma once

#include <vector>

#include "sim/config/config.h"
#include "sim/scenario/load.h"

namespace drainsim::scenario {

// REQUIRES: `s` came from the loader (drains[i] is /drains/i of the file).
std::vector<Problem> PlausibilityWarnings(const config::Scenario& s);

}  // namespace drainsim::scenario
