// An experiment's header (experiments/experiment.h) from a loaded scenario: what `run
// --replications` and `sweep` print and write beside the records, and what the Python module's
// replicate() renders. The front ends choose the values (flags, keyword arguments); this fills
// the header the same way for all of them.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "experiments/experiment.h"
#include "experiments/loaded_scenario.h"
#include "experiments/metric_spec.h"
#include "sim/config/config.h"

namespace drainsim::experiments {

// Each metric's canonical name and direction, in order.
std::vector<MetricColumn> MetricColumns(const std::vector<MetricSpec>& specs);

// The header common to `run --replications` and `sweep`: the scenario's name, path and hash, this
// binary's version, the base seed, replications, confidence and metrics; no expectation, no axis.
Experiment ExperimentOf(const std::string& command, const LoadedScenario& loaded,
                        uint64_t base_seed, int64_t replications, double confidence,
                        const std::vector<MetricSpec>& metrics);

// Adds the scenario's expectations to `e` (`run --replications` judges them in every run): each
// one's text, and the bound and unit the replications' JUnit prints beside it.
void AddExpectations(const config::Scenario& scenario, Experiment* e);

}  // namespace drainsim::experiments
