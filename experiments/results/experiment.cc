#include "experiments/results/experiment.h"

#include "sim/base/check.h"

namespace drainsim::experiments {

using nlohmann::json;

int64_t Experiment::PointCount() const {
  int64_t count = 1;
  for (const Axis& axis : axes) count *= static_cast<int64_t>(axis.values.size());
  return count;
}

std::vector<json> Experiment::PointValues(int64_t point) const {
  DRAINSIM_CHECK(point >= 0);
  DRAINSIM_CHECK(point < PointCount());
  std::vector<json> values(axes.size());
  for (size_t a = axes.size(); a-- > 0;) {
    const int64_t size = static_cast<int64_t>(axes[a].values.size());
    values[a] = axes[a].values[static_cast<size_t>(point % size)];
    point /= size;
  }
  return values;
}

json ToJson(const Experiment& e) {
  json metrics = json::array();
  for (const MetricColumn& m : e.metrics) {
    metrics.push_back({{"name", m.name}, {"better", std::string(BetterName(m.better))}});
  }
  json columns = json::array();
  for (const ExpectationColumn& c : e.expectation_columns) {
    columns.push_back({{"bound", c.bound}, {"unit", c.unit}});
  }
  json axes = json::array();
  for (const Axis& axis : e.axes)
    axes.push_back({{"pointer", axis.pointer}, {"values", axis.values}});
  return json{{"command", e.command},
              {"scenario",
               {{"name", e.scenario_name}, {"path", e.scenario_path}, {"hash", e.scenario_hash}}},
              {"drainsim_version", e.drainsim_version},
              {"base_seed", e.base_seed},
              {"replications", e.replications},
              {"confidence", e.confidence},
              {"metrics", std::move(metrics)},
              {"expectations", e.expectations},
              {"expectation_columns", std::move(columns)},
              {"vary", std::move(axes)},
              {"until_ci_width", e.stop ? json{{"width", e.stop->width},
                                               {"replications_max", e.stop->replications_max},
                                               {"met", e.stop->met}}
                                        : json(nullptr)}};
}

}  // namespace drainsim::experiments
