// The comparisons of `drainsim backtest` (experiments/backtest.h) once every replication's series
// has been read at the observed instants: the band per instant, the share inside it, and the
// single figures (time to empty, peak DLQ depth) read from the series by one rule on both sides.
// Pure functions of their arguments.
#pragma once

#include <string>
#include <vector>

#include "experiments/results/backtest_result.h"
#include "sim/base/expected.h"

namespace drainsim::experiments {

// True iff `name` is a series figure the model records: depth, dlq_depth, oldest_age_s.
bool IsComparedFigure(const std::string& name);

// One series figure: the observation and each replication's values at the same instants (NaN
// where a replication has none: after its run ended).
struct FigureRuns {
  std::string name;
  std::vector<double> times_s;
  std::vector<double> observed;
  std::vector<std::vector<double>> runs;  // [replication][point]
};

// Fills result->series, result->scalars and result->passed. Fails iff no observed point of any
// figure lies inside every replication's run.
// REQUIRES: every figure's runs hold at least two replications, each as long as `observed`
base::Status CompareAll(const std::vector<FigureRuns>& figures,
                        const BacktestTolerances& tolerances, BacktestResult* result);

// The time to empty of a series at `times_s`: the first instant after its first peak at which it
// is 0; +infinity if it never is again; 0 if it never held anything (nothing to empty).
double TimeToEmpty(const std::vector<double>& times_s, const std::vector<double>& values);

}  // namespace drainsim::experiments
