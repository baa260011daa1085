// What a comparison (experiments/compare.h) runs: the metrics both scenarios can report, and
// both sides' replications on common random numbers. `drainsim compare` and the Python module's
// compare() choose the values (flags, keyword arguments) and call these, so that both give the
// same compare.json for the same scenarios, paths and values.
//
// Contract:
//  (1) The metrics are `names` (or, without names, the defaults both scenarios share: A's
//      DefaultMetricNames first, then B's, each kept iff it resolves in both), then the gated
//      metrics not already among them; resolved against A.
//  (2) RunComparison runs A's replications and B's as one task list (so that they share the
//      threads) with the seeds of ComparisonSeed; like every experiment output, the result is
//      identical for every RunnerOptions::jobs.
//
// Thread-safety: call from one thread; RunComparison starts its own (RunnerOptions::jobs).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/compare.h"
#include "experiments/experiment.h"
#include "experiments/loaded_scenario.h"
#include "experiments/metric_spec.h"
#include "experiments/runner.h"
#include "reports/output.h"

namespace drainsim::experiments {

// Default metric names valid in both scenarios, A's defaults first, then B's.
std::vector<std::string> SharedDefaultMetrics(const nlohmann::json& a, const nlohmann::json& b);

// Contract (1). `names` are canonical names that resolve in both (nullopt: the shared defaults);
// `gate` the resolved --fail-if-worse metrics. nullopt iff no metric applies to both.
std::optional<std::vector<MetricSpec>> ComparedMetrics(
    const nlohmann::json& a, const nlohmann::json& b,
    const std::optional<std::vector<std::string>>& names, const std::vector<MetricSpec>& gate);

// A comparison's header: both sides' names, paths and hashes, this binary's version, the
// metrics' columns and the gate's names. The front end sets the rest (base_seed, replications,
// confidence, independent, markdown).
Comparison ComparisonOf(const LoadedScenario& a, const LoadedScenario& b,
                        const std::vector<MetricSpec>& metrics,
                        const std::vector<MetricSpec>& gate);

// Contract (2), rendered by reports::RenderComparison. REQUIRES: c.metrics are `metrics`' columns
reports::Rendered RunComparison(const Comparison& c, const config::Scenario& a,
                                const config::Scenario& b, const std::vector<MetricSpec>& metrics,
                                const RunnerOptions& options);

}  // namespace drainsim::experiments
