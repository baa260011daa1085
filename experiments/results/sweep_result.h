// `drainsim sweep` as reports read it (reports/sweep_report.h renders it;
// experiments/experiment_result.h computes it): per grid point and metric the statistics of the
// point's replications.
//
// Contract: plain data.
//  (1) stats[p][m] describes metric m over the replications of grid point p (points in the
//      experiment's grid order, experiments/experiment.h); stats[p].size() == the metrics.
//  (2) undefined_means_never[m] is experiments/metric_spec.h's UndefinedMeansNever of metric m:
//      an undefined value is the outcome "never", not a missing one.
#pragma once

#include <vector>

#include "experiments/results/statistics.h"

namespace drainsim::experiments {

struct SweepResult {
  std::vector<std::vector<Statistics>> stats;  // [point][metric]
  std::vector<bool> undefined_means_never;     // [metric]
};

}  // namespace drainsim::experiments
