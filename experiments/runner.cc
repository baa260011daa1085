#include "experiments/runner.h"

#include <mutex>

#include "experiments/parallel.h"
#include "reports/expectations.h"
#include "sim/base/check.h"

namespace drainsim::experiments {

ModelErrorInRun::ModelErrorInRun(const std::string& scenario_name_in, uint64_t seed_in,
                                 const model::ModelError& error_in)
    : std::runtime_error("model error (a drainsim bug) in the run of scenario '" +
                         scenario_name_in + "' with seed " + std::to_string(seed_in) +
                         ": invariant " + error_in.invariant + " broken: " + error_in.detail),
      scenario_name(scenario_name_in),
      seed(seed_in),
      error(error_in) {}

RunRecord Record(const model::Results& results, const config::Scenario& scenario,
                 const std::vector<MetricSpec>& metrics) {
  RunRecord record;
  record.seed = results.seed;
  record.fingerprint = results.fingerprint;
  record.values.reserve(metrics.size());
  for (const MetricSpec& metric : metrics) record.values.push_back(MeasureMetric(results, metric));
  for (const reports::Verdict& verdict : reports::EvaluateExpectations(results, scenario.expect)) {
    record.passed.push_back(verdict.passed);
    record.measured.push_back(verdict.measured);
  }
  return record;
}

std::vector<RunRecord> RunTasks(const std::vector<Task>& tasks,
                                const std::vector<MetricSpec>& metrics,
                                const RunnerOptions& options) {
  std::vector<RunRecord> records(tasks.size());
  std::vector<std::optional<model::ModelError>> model_errors(tasks.size());
  std::mutex progress_mutex;
  size_t done = 0;
  ParallelFor(tasks.size(), options.jobs, [&](size_t i) {
    const Task& task = tasks[i];
    DRAINSIM_CHECK(task.scenario != nullptr);
    const model::Results results = model::RunSimulation(*task.scenario, task.seed, options.run);
    records[i] = Record(results, *task.scenario, metrics);
    model_errors[i] = results.model_error;
    if (options.on_done) {
      const std::lock_guard<std::mutex> lock(progress_mutex);
      options.on_done(++done, tasks.size());
    }
  });
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (model_errors[i])
      throw ModelErrorInRun(tasks[i].scenario->name, tasks[i].seed, *model_errors[i]);
  }
  return records;
}

}  // namespace drainsim::experiments
