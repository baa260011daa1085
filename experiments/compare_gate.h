// The gate of `drainsim compare A.json B.json --fail-if-worse METRIC[,METRIC...]`: which
// metrics may gate a pair of scenarios, and the comparison's verdicts read from B's side
// (experiments/results/gate_result.h) for the exit code, compare.json (reports/compare_report.h)
// and the PR comment (reports/compare_comment.h).
//
// Which way is worse is never decided here: it is the metric's `better` (metric_spec.h,
// BetterOf, the one table beside the metric definitions): for a lower-is-better metric
// (duplicates, human_needed, time to empty, latencies) higher is worse; for a higher-is-better
// one (acked: throughput) lower is worse. The statistics are compare's own (compare.h contract
// (2) and (3)): paired t interval, or the signed-rank test when some run never reached an
// instant; at the comparison's --confidence.
//
// Contract:
//  (1) ResolveGateMetrics accepts a name iff it resolves in both scenarios (ResolveMetrics) and
//      its metric has a direction; the error names every bad name, why, and the names that
//      could gate this pair (GateableMetricNames).
//  (2) GateVerdictOf maps "A better" to kWorse and "B better" to kBetter; every other verdict
//      (no significant difference, differs, too few pairs, undefined) never fails a gate.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/compare.h"
#include "experiments/results/gate_result.h"
#include "sim/base/expected.h"

namespace drainsim::experiments {

// The metrics of the `expect` block that have a direction and resolve in both scenarios, in the
// order of the metric enumeration (no kind, whole run): what an error message lists.
std::vector<std::string> GateableMetricNames(const nlohmann::json& a, const nlohmann::json& b);

// The specs of `names` (as --fail-if-worse gives them, already split at commas), or why not
// (contract (1)): "--fail-if-worse dupes: metric: ...\nmetrics that can gate these scenarios:
// ...".
base::Expected<std::vector<MetricSpec>> ResolveGateMetrics(const nlohmann::json& a,
                                                           const nlohmann::json& b,
                                                           const std::vector<std::string>& names);

GateVerdict GateVerdictOf(CompareVerdict verdict);

// The judgement of every compared metric. REQUIRES: results.size() == c.metrics.size(), every
// name of c.gate is a metric of c.metrics.
GateResult JudgeComparison(const Comparison& c, const std::vector<MetricComparison>& results);

}  // namespace drainsim::experiments
