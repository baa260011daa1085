// The output of `drainsim sweep`: per grid point and metric the statistics of its replications.
// On stdout a table (one row per point, mean +- half-width per metric); in --out DIR sweep.json,
// sweep.csv (one row per point and metric, every statistic), sweep.md and one chart per metric,
// sweep-METRIC.svg: its mean against the first varied parameter, the confidence interval as
// dashed bounds, one line per combination of the other parameters (reports/svg_chart.h).
//
// Contract: a pure function of (experiment, records, result), like replications_report.h: the
// unsharded sweep and the merge of its shards print and write the same bytes (the result is
// experiments/experiment_result.h's SweepResultOf).
#pragma once

#include <string>
#include <vector>

#include "experiments/results/experiment.h"
#include "experiments/results/run_record.h"
#include "experiments/results/statistics.h"
#include "experiments/results/sweep_result.h"
#include "reports/output.h"

namespace drainsim::reports {

// REQUIRES: records.size() == experiment.RunCount(), experiment.axes not empty, `result` is
// experiments::SweepResultOf(experiment, records)
Rendered RenderSweep(const experiments::Experiment& experiment,
                     const std::vector<experiments::RunRecord>& records,
                     const experiments::SweepResult& result);

// "sweep-live_p99_ms-drains.svg": the chart file of a metric (':' and '@' become '-').
std::string ChartFileName(const std::string& metric);

// One point's cell in sweep.md and on stdout: "12.5 ±0.3", and how many runs had no value —
// for an instant a run may never reach (experiments/metric_spec.h, UndefinedMeansNever) "never in 3
// of 30", as `compare` counts them, since never is the worst outcome, not a missing one; for the
// other metrics "(3 undef)".
std::string SweepCell(const experiments::Statistics& s, bool undefined_means_never);

}  // namespace drainsim::reports
