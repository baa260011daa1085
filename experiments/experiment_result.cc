#include "experiments/experiment_result.h"

#include <optional>

#include "experiments/metric_spec.h"
#include "experiments/seeds.h"
#include "reports/metrics.h"
#include "reports/sweep_report.h"
#include "sim/base/check.h"

namespace drainsim::experiments {

namespace {

ReplicatedMetric MetricOf(const Experiment& e, const std::vector<RunRecord>& records, size_t m) {
  ReplicatedMetric metric;
  metric.name = e.metrics[m].name;
  // The unit is the metric's, without its :KIND and @WINDOW.
  metric.unit = reports::UnitOf(metric.name.substr(0, metric.name.find_first_of(":@")));
  metric.better = e.metrics[m].better;
  metric.stats = MetricStatistics(records, m, e.confidence);
  for (const RunRecord& record : records) {
    if (record.values[m]) metric.values.push_back(*record.values[m]);
  }
  return metric;
}

ReplicatedExpectation ExpectationOf(const Experiment& e, const std::vector<RunRecord>& records,
                                    size_t x) {
  ReplicatedExpectation expectation;
  expectation.text = e.expectations[x];
  expectation.bound = e.expectation_columns[x].bound;
  expectation.unit = e.expectation_columns[x].unit;
  expectation.runs = static_cast<int64_t>(records.size());
  std::vector<std::optional<double>> measured;
  for (size_t r = 0; r < records.size(); ++r) {
    DRAINSIM_CHECK(x < records[r].passed.size());
    DRAINSIM_CHECK(x < records[r].measured.size());
    if (records[r].passed[x]) {
      ++expectation.passed;
    } else if (!expectation.first_failure) {
      expectation.first_failure = static_cast<int64_t>(r);
      expectation.first_failure_reproduce =
          "drainsim run " + e.scenario_path + " --seed " + std::to_string(records[r].seed);
    }
    measured.push_back(records[r].measured[x]);
  }
  expectation.measured = Describe(measured, e.confidence);
  return expectation;
}

}  // namespace

Statistics MetricStatistics(std::span<const RunRecord> records, size_t m, double confidence) {
  std::vector<std::optional<double>> values;
  values.reserve(records.size());
  for (const RunRecord& r : records) {
    DRAINSIM_CHECK(m < r.values.size());
    values.push_back(r.values[m]);
  }
  return Describe(values, confidence);
}

ReplicationsResult ReplicationsResultOf(const Experiment& e,
                                        const std::vector<RunRecord>& records) {
  DRAINSIM_CHECK(e.axes.empty());
  DRAINSIM_CHECK(static_cast<int64_t>(records.size()) == e.RunCount());
  DRAINSIM_CHECK(e.expectation_columns.size() == e.expectations.size());
  ReplicationsResult r;
  r.scenario_name = e.scenario_name;
  r.scenario_path = e.scenario_path;
  r.scenario_hash = e.scenario_hash;
  r.drainsim_version = e.drainsim_version;
  r.base_seed = e.base_seed;
  r.replication_0_seed = ReplicationSeed(e.base_seed, 0);
  r.replications = e.replications;
  r.confidence = e.confidence;
  for (size_t m = 0; m < e.metrics.size(); ++m) r.metrics.push_back(MetricOf(e, records, m));
  for (size_t x = 0; x < e.expectations.size(); ++x) {
    r.expectations.push_back(ExpectationOf(e, records, x));
  }
  return r;
}

SweepResult SweepResultOf(const Experiment& e, const std::vector<RunRecord>& records) {
  DRAINSIM_CHECK(!e.axes.empty());
  DRAINSIM_CHECK(static_cast<int64_t>(records.size()) == e.RunCount());
  SweepResult result;
  const size_t r = static_cast<size_t>(e.replications);
  for (int64_t p = 0; p < e.PointCount(); ++p) {
    const std::span<const RunRecord> runs(records.data() + static_cast<size_t>(p) * r, r);
    std::vector<Statistics> row;
    for (size_t m = 0; m < e.metrics.size(); ++m) {
      row.push_back(MetricStatistics(runs, m, e.confidence));
    }
    result.stats.push_back(std::move(row));
  }
  for (const MetricColumn& m : e.metrics) {
    result.undefined_means_never.push_back(UndefinedMeansNever(m.name));
  }
  return result;
}

reports::Rendered RenderExperiment(const Experiment& e, const std::vector<RunRecord>& records,
                                   const reports::ReplicationFormats& formats) {
  if (e.command == "sweep") return reports::RenderSweep(e, records, SweepResultOf(e, records));
  return reports::RenderReplications(e, records, ReplicationsResultOf(e, records), formats);
}

}  // namespace drainsim::experiments
