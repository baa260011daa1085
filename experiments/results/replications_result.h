// `drainsim run --replications N` as reports read it (reports/replications_report.h,
// reports/replications_junit.h and reports/replications_html.h render it;
// experiments/experiment_result.h computes it): per
// metric its statistics and its values, per expectation how many replications passed and what
// its figure measured over them.
//
// Contract: plain data.
//  (1) metrics[m].values are the defined values of metric m in replication order; their count is
//      stats.count.
//  (2) expectations[x].passed <= runs == replications; first_failure is set iff passed < runs,
//      and is the lowest failing replication index, with the command that reproduces it.
//  (3) expectations[x].measured describes the figure compared with the bound over the
//      replications where it had one (undefined ones are counted in measured.undefined).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "experiments/results/metric.h"
#include "experiments/results/statistics.h"

namespace drainsim::experiments {

struct ReplicatedMetric {
  std::string name;  // canonical NAME[:KIND][@WINDOW]
  std::string unit;  // "s", "ms", "count", ...
  Better better = Better::kNone;
  Statistics stats;
  std::vector<double> values;
};

struct ReplicatedExpectation {
  std::string text;   // "time_to_empty_s <= 1800"
  std::string bound;  // "<= 1800"
  std::string unit;
  int64_t passed = 0;
  int64_t runs = 0;
  std::optional<int64_t> first_failure;
  std::string first_failure_reproduce;  // "drainsim run PATH --seed S"; "" without a failure
  Statistics measured;
};

struct ReplicationsResult {
  std::string scenario_name;
  std::string scenario_path;
  std::string scenario_hash;
  std::string drainsim_version;
  uint64_t base_seed = 0;
  uint64_t replication_0_seed = 0;  // ReplicationSeed(base_seed, 0): what the header reproduces
  int64_t replications = 0;
  double confidence = 0.95;
  std::vector<ReplicatedMetric> metrics;
  std::vector<ReplicatedExpectation> expectations;

  int64_t FailedExpectations() const {
    int64_t failed = 0;
    for (const ReplicatedExpectation& x : expectations) failed += x.passed < x.runs;
    return failed;
  }
};

}  // namespace drainsim::experiments
