// The Python module's keyword values checked as the CLI checks its flags, and turned into what
// the experiments take. Each check throws std::invalid_argument (Python's ValueError) with the
// CLI's wording, the flag named as the keyword.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/metric_spec.h"
#include "experiments/runner.h"
#include "reports/output.h"

namespace drainsim::python {

// REQUIRES of the experiments, as the CLI enforces them: 1 <= replications <= kReplicationsMax,
// 1 <= jobs <= kJobsMax, 0.5 <= confidence < 1.
void CheckReplications(int64_t replications);
void CheckConfidence(double confidence);

// A runner on `jobs` threads, with the default run options (no audit, no observer).
experiments::RunnerOptions RunnerOptionsFor(int jobs);

// The metrics `names` asks for, or the scenario's defaults (DefaultMetricNames) when nullopt, as
// `drainsim run --replications` resolves --metric.
std::vector<experiments::MetricSpec> MetricsFor(
    const nlohmann::json& document, const std::optional<std::vector<std::string>>& names);

// The canonical names of `names`, each checked in both scenarios (compare's --metric).
std::vector<std::string> MetricNamesInBoth(const nlohmann::json& a, const nlohmann::json& b,
                                           const std::vector<std::string>& names);

// The text of the output file `name`. REQUIRES: `rendered` has it
std::string FileText(const reports::Rendered& rendered, const std::string& name);

}  // namespace drainsim::python
