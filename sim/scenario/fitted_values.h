// `drainsim fit`'s provenance in a scenario file: the `fitted` member beside a fitted value
// (sim/config/fitted.h; docs/TELEMETRY.md). The loader accepts it beside a distribution's name,
// in an `errors` fault and in a `poisson` schedule, checks it like any other member, and keeps
// it here rather than in the typed configuration: the model never reads it, a run never depends
// on it, and the scenario hash (over DumpCanonical) ignores it. `drainsim dump` writes it back.
//
// Contract:
//  (1) LoadScenarioTextWithFitted(t).load is LoadScenarioText(t); `fitted` is empty unless it
//      loaded.
//  (2) DumpCanonicalWithFitted(s, {}) == DumpCanonical(s); with the provenance of a load, the
//      dump loads back to the same scenario and the same provenance (load -> dump -> load).
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "sim/config/fitted.h"
#include "sim/scenario/load.h"

namespace drainsim::scenario {

// By the JSON pointer of the object holding the fitted value: "/kinds/job/handler/cpu_ms",
// "/faults/0", "/producers/0/poisson"; an errors fault's `fail_after_fitted` (the provenance of
// its fail_after_ms) by its own pointer, "/faults/0/fail_after_fitted".
using FittedValues = std::map<std::string, config::Fitted>;

struct FittedLoad {
  LoadResult load;
  FittedValues fitted;
};

FittedLoad LoadScenarioTextWithFitted(std::string_view text);

// The canonical dump with each provenance written back beside its value.
std::string DumpCanonicalWithFitted(const config::Scenario& scenario, const FittedValues& fitted);

}  // namespace drainsim::scenario
