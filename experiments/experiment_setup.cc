#include "experiments/experiment_setup.h"

#include "reports/expectations.h"
#include "reports/metrics.h"
#include "reports/version.h"

namespace drainsim::experiments {

std::vector<MetricColumn> MetricColumns(const std::vector<MetricSpec>& specs) {
  std::vector<MetricColumn> columns;
  for (const MetricSpec& spec : specs) columns.push_back({spec.name, spec.better});
  return columns;
}

Experiment ExperimentOf(const std::string& command, const LoadedScenario& loaded,
                        uint64_t base_seed, int64_t replications, double confidence,
                        const std::vector<MetricSpec>& metrics) {
  Experiment e;
  e.command = command;
  e.scenario_name = loaded.scenario.name;
  e.scenario_path = loaded.path;
  e.scenario_hash = loaded.hash;
  e.drainsim_version = reports::VersionText();
  e.base_seed = base_seed;
  e.replications = replications;
  e.confidence = confidence;
  e.metrics = MetricColumns(metrics);
  return e;
}

void AddExpectations(const config::Scenario& scenario, Experiment* e) {
  for (const config::Expectation& x : scenario.expect) {
    e->expectations.push_back(reports::ExpectationText(x));
    e->expectation_columns.push_back(
        {reports::BoundsText(reports::ExpectationBounds(x)),
         std::string(reports::UnitOf(reports::ExpectationMetricName(x)))});
  }
}

}  // namespace drainsim::experiments
