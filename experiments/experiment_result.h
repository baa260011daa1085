// What an experiment's records say, before anything is rendered: the statistics of a metric over
// runs, the replications' result (experiments/results/replications_result.h) and the sweep's
// (experiments/results/sweep_result.h); and the output of a replicated run or a sweep, computed
// here and rendered by reports/replications_report.h or reports/sweep_report.h.
//
// Contract:
//  (1) Pure functions of (experiment, records): the unsharded command and the merge of its
//      shards (`drainsim merge`) print and write the same bytes.
//  (2) ReplicationsResultOf: expectation x passed in the replications whose record says so; its
//      first failure is the lowest failing replication index. SweepResultOf: stats[p] are over
//      the records p * replications .. (p + 1) * replications - 1.
//
// Thread-safety: pure functions.
#pragma once

#include <span>
#include <vector>

#include "experiments/results/experiment.h"
#include "experiments/results/replications_result.h"
#include "experiments/results/run_record.h"
#include "experiments/results/statistics.h"
#include "experiments/results/sweep_result.h"
#include "reports/output.h"
#include "reports/replications_report.h"

namespace drainsim::experiments {

// The statistics of metric `m` over `records`. REQUIRES: m < every record's values.size()
Statistics MetricStatistics(std::span<const RunRecord> records, size_t m, double confidence);

// REQUIRES: records.size() == experiment.RunCount(), experiment.axes empty
ReplicationsResult ReplicationsResultOf(const Experiment& experiment,
                                        const std::vector<RunRecord>& records);

// REQUIRES: records.size() == experiment.RunCount(), experiment.axes not empty
SweepResult SweepResultOf(const Experiment& experiment, const std::vector<RunRecord>& records);

// The output of a sweep (command "sweep": reports::RenderSweep) or of a replicated run
// (reports::RenderReplications with `formats`). REQUIRES: records.size() ==
// experiment.RunCount(), and axes iff a sweep
reports::Rendered RenderExperiment(const Experiment& experiment,
                                   const std::vector<RunRecord>& records,
                                   const reports::ReplicationFormats& formats = {});

}  // namespace drainsim::experiments
