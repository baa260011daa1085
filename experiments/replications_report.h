// The output of `drainsim run SCENARIO --replications N`: per metric the mean, standard
// deviation, confidence interval (Student t), p50, p95, min, max and the number of runs where it
// was undefined; per expectation the replications that passed. On stdout as a table, and as
// replications.json, replications.csv (one row per run) and replications.md.
//
// Contract:
//  (1) A pure function of (experiment, records): the unsharded run and the merge of its shards
//      print and write the same bytes.
//  (2) exit_code is 1 iff some expectation failed in at least one replication, else 0.
#pragma once

#include <span>
#include <vector>

#include "experiments/experiment.h"
#include "experiments/results/statistics.h"
#include "experiments/runner.h"
#include "reports/output.h"

namespace drainsim::experiments {

// The statistics of metric `m` over `records`. REQUIRES: m < every record's values.size()
Statistics MetricStatistics(std::span<const RunRecord> records, size_t m, double confidence);

// REQUIRES: records.size() == experiment.RunCount(), experiment.axes empty
reports::Rendered RenderReplications(const Experiment& experiment,
                                     const std::vector<RunRecord>& records);

}  // namespace drainsim::experiments
