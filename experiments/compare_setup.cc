#include "experiments/compare_setup.h"

#include <algorithm>

#include "experiments/experiment_setup.h"
#include "reports/compare_report.h"
#include "reports/version.h"
#include "sim/base/check.h"

namespace drainsim::experiments {

std::vector<std::string> SharedDefaultMetrics(const nlohmann::json& a, const nlohmann::json& b) {
  std::vector<std::string> names = DefaultMetricNames(a);
  for (const std::string& name : DefaultMetricNames(b)) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  std::vector<std::string> shared;
  for (const std::string& name : names) {
    std::vector<std::string> ignored;
    if (ResolveMetrics(a, {name}, &ignored) && ResolveMetrics(b, {name}, &ignored)) {
      shared.push_back(name);
    }
  }
  return shared;
}

std::optional<std::vector<MetricSpec>> ComparedMetrics(
    const nlohmann::json& a, const nlohmann::json& b,
    const std::optional<std::vector<std::string>>& names, const std::vector<MetricSpec>& gate) {
  std::vector<std::string> compared = names ? *names : SharedDefaultMetrics(a, b);
  // The gated metrics are compared whatever `names` says.
  for (const MetricSpec& spec : gate) {
    if (std::find(compared.begin(), compared.end(), spec.name) == compared.end()) {
      compared.push_back(spec.name);
    }
  }
  std::vector<std::string> errors;
  std::optional<std::vector<MetricSpec>> metrics = ResolveMetrics(a, compared, &errors);
  if (!metrics || metrics->empty()) return std::nullopt;
  return metrics;
}

Comparison ComparisonOf(const LoadedScenario& a, const LoadedScenario& b,
                        const std::vector<MetricSpec>& metrics,
                        const std::vector<MetricSpec>& gate) {
  Comparison c;
  c.a = {a.scenario.name, a.path, a.hash};
  c.b = {b.scenario.name, b.path, b.hash};
  c.drainsim_version = reports::VersionText();
  c.metrics = MetricColumns(metrics);
  for (const MetricSpec& spec : gate) c.gate.push_back(spec.name);
  return c;
}

reports::Rendered RunComparison(const Comparison& c, const config::Scenario& a,
                                const config::Scenario& b, const std::vector<MetricSpec>& metrics,
                                const RunnerOptions& options) {
  DRAINSIM_CHECK(c.metrics.size() == metrics.size());
  std::vector<Task> tasks;
  for (int side = 0; side < 2; ++side) {
    for (int64_t i = 0; i < c.replications; ++i) {
      tasks.push_back({side == 0 ? &a : &b, ComparisonSeed(c, side == 1, i)});
    }
  }
  std::vector<RunRecord> records = RunTasks(tasks, metrics, options);
  const auto middle = records.begin() + c.replications;
  const std::vector<RunRecord> runs_a(records.begin(), middle);
  const std::vector<RunRecord> runs_b(middle, records.end());
  return reports::RenderComparison(c, ComparisonResultOf(c, runs_a, runs_b), runs_a, runs_b);
}

}  // namespace drainsim::experiments
