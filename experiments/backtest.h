// `drainsim backtest`: a scenario's replications against a recorded incident's metric series
// (sim/telemetry/metric_series.h). Per series figure (depth, dlq_depth, oldest_age_s) the
// simulated band (2.5%, 50%, 97.5% across replications) at each observed instant, the share of
// the observed points inside it and the error against the median; per single figure (time to
// empty, peak DLQ depth) the observed value against the band of the same figure read the same way
// from each replication. docs/TELEMETRY.md, "drainsim backtest", has the rules.
//
// Contract:
//  (1) Replication r runs with ReplicationSeed(base_seed, r) (experiments/seeds.h); its values
//      are stored by index, so the result is identical for every --jobs.
//  (2) A replication's series is read at the observed instants by linear interpolation between
//      its samples. After its last sample it holds the end state iff the run stopped because
//      nothing was left to happen; otherwise (run.until_s, run.events_max) it has no value there
//      and the observed point is counted in points_beyond_run, not compared.
//  (3) The single figures are computed from the same interpolated series at the same instants,
//      on both sides: the observation and each replication are read by the same rule.
//  (4) Fails (bad input) iff no figure of the observation can be compared, or no observed point
//      lies inside the runs; throws ModelErrorInRun as RunTasks does (experiments/runner.h (3)).
//
// Thread-safety: call from one thread; it starts its own (RunnerOptions::jobs).
#pragma once

#include <cstdint>
#include <vector>

#include "experiments/results/backtest_result.h"
#include "experiments/runner.h"
#include "sim/base/expected.h"
#include "sim/config/config.h"
#include "sim/model/results.h"
#include "sim/telemetry/metric_series.h"

namespace drainsim::experiments {

// REQUIRES: replications >= 2
base::Expected<BacktestResult> RunBacktest(const config::Scenario& scenario,
                                           const telemetry::ObservedSeries& observed,
                                           uint64_t base_seed, int64_t replications,
                                           const BacktestTolerances& tolerances,
                                           const RunnerOptions& options);

// The pieces, for the tests.

// `series`'s figure `name` (depth, dlq_depth, oldest_age_s) at `times_s`: contract (2); NaN where
// it has no value. REQUIRES: times_s increasing, `name` a compared figure
std::vector<double> ResampleRun(const model::Results& results, const std::string& name,
                                const std::vector<double>& times_s);

// The p-quantile (linear between order statistics, R's type 7) of sorted values, +infinity
// allowed. REQUIRES: !sorted.empty(), 0 <= p <= 1
double QuantileSorted(const std::vector<double>& sorted, double p);

}  // namespace drainsim::experiments
