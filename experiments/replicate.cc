#include "experiments/replicate.h"

#include <algorithm>
#include <span>

#include "experiments/experiment_result.h"
#include "experiments/seeds.h"
#include "sim/base/check.h"

namespace drainsim::experiments {

namespace {

bool NarrowEnough(std::span<const RunRecord> prefix, size_t metric_count, double width,
                  double confidence) {
  for (size_t m = 0; m < metric_count; ++m) {
    if (!(MetricStatistics(prefix, m, confidence).RelativeHalfWidth() < width)) return false;
  }
  return true;
}

}  // namespace

std::vector<RunRecord> RunReplications(const config::Scenario& scenario,
                                       const std::vector<MetricSpec>& metrics, uint64_t base_seed,
                                       const std::vector<int64_t>& indices,
                                       const RunnerOptions& options) {
  std::vector<Task> tasks;
  tasks.reserve(indices.size());
  for (int64_t index : indices) {
    DRAINSIM_CHECK(index >= 0);
    tasks.push_back({&scenario, ReplicationSeed(base_seed, static_cast<uint64_t>(index))});
  }
  return RunTasks(tasks, metrics, options);
}

std::vector<int64_t> ShardIndices(int64_t count, const std::optional<Shard>& shard) {
  std::vector<int64_t> indices;
  for (int64_t i = 0; i < count; ++i) {
    if (!shard || shard->Holds(i)) indices.push_back(i);
  }
  return indices;
}

ShardRuns RunSweep(const Experiment& e, const std::vector<config::Scenario>& points,
                   const std::vector<MetricSpec>& metrics, const std::optional<Shard>& shard,
                   const RunnerOptions& options) {
  DRAINSIM_CHECK(static_cast<int64_t>(points.size()) == e.PointCount());
  ShardRuns runs;
  runs.indices = ShardIndices(e.RunCount(), shard);
  std::vector<Task> tasks;
  tasks.reserve(runs.indices.size());
  for (int64_t k : runs.indices) {
    tasks.push_back({&points[static_cast<size_t>(k / e.replications)],
                     ReplicationSeed(e.base_seed, static_cast<uint64_t>(k % e.replications))});
  }
  runs.records = RunTasks(tasks, metrics, options);
  for (RunRecord& record : runs.records) {
    record.passed.clear();
    record.measured.clear();
  }
  return runs;
}

CiStopResult RunUntilCiWidth(const config::Scenario& scenario,
                             const std::vector<MetricSpec>& metrics, uint64_t base_seed,
                             double width, int64_t minimum, int64_t maximum, double confidence,
                             const RunnerOptions& options) {
  DRAINSIM_CHECK(width > 0);
  DRAINSIM_CHECK(minimum >= 2);
  DRAINSIM_CHECK(minimum <= maximum);
  CiStopResult result;
  // Batches of at least a few runs per thread keep the threads busy; the decision below looks at
  // every prefix, so the batch size changes only how many runs are made and dropped.
  const int64_t batch = std::max<int64_t>(4 * options.jobs, 8);
  int64_t checked = minimum - 1;  // prefixes of length <= checked are known not to be narrow
  while (static_cast<int64_t>(result.records.size()) < maximum) {
    const int64_t have = static_cast<int64_t>(result.records.size());
    const int64_t want = std::min(maximum, std::max(minimum, have + batch));
    std::vector<int64_t> indices;
    for (int64_t i = have; i < want; ++i) indices.push_back(i);
    std::vector<RunRecord> more = RunReplications(scenario, metrics, base_seed, indices, options);
    for (RunRecord& r : more) result.records.push_back(std::move(r));
    for (int64_t n = checked + 1; n <= want; ++n) {
      const std::span<const RunRecord> prefix(result.records.data(), static_cast<size_t>(n));
      if (NarrowEnough(prefix, metrics.size(), width, confidence)) {
        result.records.resize(static_cast<size_t>(n));
        result.met = true;
        return result;
      }
    }
    checked = want;
  }
  return result;
}

}  // namespace drainsim::experiments
