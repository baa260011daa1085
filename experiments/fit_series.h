// `drainsim fit`'s arrivals from a metric series (issue 17): the `inflow_per_s` figure of a CSV,
// Prometheus query_range or CloudWatch GetMetricData file (sim/telemetry/metric_series.h) as
// arrival counts per step, fitted by the arrival rules of experiments/fit_arrivals.h.
//
// The rule (docs/TELEMETRY.md, "Arrivals from a metric series"):
//  (1) A point's value is the mean arrival rate over the step from its t_s to the next point's;
//      the points must be equally spaced (to 1e-6 of the step), at least two. The last point's
//      step is the common step, so n points cover [t_0, t_0 + n * step).
//  (2) A step's count is its rate times the step, rounded to a whole message: the series is
//      taken to count every message (Poisson statistics need counts, not rates).
//  (3) Without --window-s: consecutive steps are merged g at a time, g the least that gives at
//      least 5 arrivals a bin on average and at most kArrivalWindowsMax bins (the spans' step
//      (1)); left-over steps join the last bin. Then the dispersion test, segmentation and
//      Garwood intervals of FitArrivalCounts. With --window-s W: W must be a whole number of
//      steps; a Poisson rate per window.
//  (4) Times are the series' own: from_s and until_s are seconds on its t_s axis (CSV: as
//      written; Prometheus, CloudWatch: from the file's earliest timestamp).
//
// Contract: pure, deterministic; never throws; bad input is a Failure "FILE: inflow_per_s: why".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "experiments/results/fit_result.h"
#include "sim/base/expected.h"
#include "sim/telemetry/metric_series.h"

namespace drainsim::experiments {

// The counts of rule (1)-(2).
struct SeriesCounts {
  std::string file;
  double from_s = 0;  // t_0
  double step_s = 0;
  std::vector<int64_t> counts;  // per step, from t_0
};

// Rules (1)-(2), or why the series cannot give arrivals.
base::Expected<SeriesCounts> InflowCounts(const telemetry::ObservedSeries& series);

// Rules (3)-(4): the arrivals of `fit` (a kind's) replaced by the series'; arrivals_from says so.
// REQUIRES: window_s >= 0, series.counts.size() >= 2
base::Status FitSeriesArrivals(const SeriesCounts& series, double window_s, KindFit* fit);

// Every series' arrivals into `result` (FitTelemetry's): each series must have inflow_per_s; its
// kind is `kind` when not empty, else the one kind the traces had. That kind's arrivals are
// replaced (its KindFit added in name order when the traces had none): the series counts every
// message, where traces are often sampled and a span's start is delayed by the queue wait. Two
// series for one kind are a problem. REQUIRES: window_s >= 0
base::Status FitSeriesArrivals(const std::vector<telemetry::ObservedSeries>& series,
                               const std::string& kind, double window_s, FitResult* result);

}  // namespace drainsim::experiments
