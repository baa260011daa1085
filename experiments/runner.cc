#include "experiments/runner.h"

#include <mutex>

#include "experiments/parallel.h"
#include "reports/expectations.h"
#include "sim/engine/check.h"

namespace drainsim::experiments {

RunRecord Record(const model::Results& results, const scenario::Scenario& scenario,
                 const std::vector<MetricSpec>& metrics) {
  RunRecord record;
  record.seed = results.seed;
  record.fingerprint = results.fingerprint;
  record.values.reserve(metrics.size());
  for (const MetricSpec& metric : metrics) record.values.push_back(MeasureMetric(results, metric));
  for (const reports::Verdict& verdict : reports::EvaluateExpectations(results, scenario.expect)) {
    record.passed.push_back(verdict.passed);
  }
  return record;
}

std::vector<RunRecord> RunTasks(const std::vector<Task>& tasks,
                                const std::vector<MetricSpec>& metrics,
                                const RunnerOptions& options) {
  std::vector<RunRecord> records(tasks.size());
  std::mutex progress_mutex;
  size_t done = 0;
  ParallelFor(tasks.size(), options.jobs, [&](size_t i) {
    const Task& task = tasks[i];
    DRAINSIM_CHECK(task.scenario != nullptr);
    const model::Results results = model::RunSimulation(*task.scenario, task.seed, options.run);
    records[i] = Record(results, *task.scenario, metrics);
    if (options.on_done) {
      const std::lock_guard<std::mutex> lock(progress_mutex);
      options.on_done(++done, tasks.size());
    }
  });
  return records;
}

}  // namespace drainsim::experiments
