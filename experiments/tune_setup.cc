#include "experiments/tune_setup.h"

#include <cmath>
#include <optional>
#include <vector>

#include "experiments/metric_spec.h"
#include "experiments/scenario_edit.h"
#include "sim/scenario/load.h"

namespace drainsim::experiments {

bool IsIntegerGrid(double low, double high, double resolution) {
  auto integral = [](double value) { return std::floor(value) == value; };
  return integral(low) && integral(high) && integral(resolution);
}

base::Status ResolveConstraints(const nlohmann::json& document, TuneSpec* spec) {
  std::vector<std::string> names;
  for (const Constraint& c : spec->constraints) names.push_back(c.metric);
  std::vector<std::string> errors;
  std::optional<std::vector<MetricSpec>> metrics = ResolveMetrics(document, names, &errors);
  std::string lines;
  for (const std::string& error : errors) {
    lines += (lines.empty() ? "" : "\n") + std::string("--constraint ") + error;
  }
  if (!metrics) return base::Failure{lines};
  if (metrics->size() != names.size()) return base::Failure{"a metric is constrained twice"};
  for (size_t i = 0; i < names.size(); ++i) spec->constraints[i].metric = (*metrics)[i].name;
  spec->metrics = std::move(*metrics);
  return {};
}

ScenarioAt ScenarioAtFor(const nlohmann::json& document, const std::string& path,
                         const TuneSpec& spec) {
  return [document, path, spec](double value) -> base::Expected<config::Scenario> {
    const Edit edit{spec.pointer, ValueJson(spec, value)};
    const base::Expected<nlohmann::json> edited = ApplyEdits(document, {edit});
    if (!edited) return base::Failure{"--param " + edited.error()};
    scenario::LoadResult result = scenario::LoadScenarioText(edited->dump());
    if (!result.ok()) {
      std::string error;
      for (const scenario::Problem& p : result.problems) {
        error += (error.empty() ? "" : "\n") + path + ": --param " + EditText(edit) + ": " +
                 (p.pointer.empty() ? "" : p.pointer + ": ") + p.message;
      }
      return base::Failure{error};
    }
    return std::move(*result.scenario);
  };
}

base::Status CheckEnds(const TuneSpec& spec, const ScenarioAt& scenario_at) {
  for (double end : {spec.low, spec.high}) {
    const base::Expected<config::Scenario> s = scenario_at(end);
    if (!s) return base::Failure{s.error()};
  }
  return {};
}

}  // namespace drainsim::experiments
