// `drainsim tune`: the largest (or smallest) value of one scenario field for which every
// constraint holds with the requested confidence, found by a coarse scan then bisection on
// replicated runs.
//
// A constraint is METRIC<=BOUND, METRIC>=BOUND or METRIC==BOUND, METRIC as in metric_spec.h
// ("live_p99_ms@drains<=250", "refilled==0"). At a candidate value, over its R replications:
//   <=  holds iff the one-sided upper confidence bound, mean + t(confidence, R-1) * sd / sqrt(R),
//       is <= BOUND (the metric is below the bound with that confidence);
//   >=  iff the one-sided lower bound is >= BOUND;
//   ==  iff every replication measured exactly BOUND (an interval for equality says nothing);
// and never when the metric was undefined in some replication (as `expect`: undefined fails).
// With R = 1 there is no interval and the single value is compared.
//
// The search assumes one threshold: when maximizing, the constraints hold at every value below
// some point of the range and fail above it (minimizing: the mirror image). It evaluates nine
// evenly spaced values from the end being optimised (the top when maximizing) until one holds,
// then bisects between it and the failing value before it down to the resolution. Values lie on
// the grid LOW + k * resolution (and HIGH itself). Every candidate runs the same replication
// seeds (common random numbers across candidates, so noise does not reorder neighbours).
//
// Contract:
//  (1) Deterministic, and identical for every --jobs (the evaluations are in a fixed order).
//  (2) found iff some evaluated value held; then `best` held, and when it is not the range's end,
//      `first_failing` is the next grid value toward that end and failed.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/metric_spec.h"
#include "experiments/results/tune_result.h"
#include "experiments/runner.h"
#include "sim/base/expected.h"
#include "sim/config/config.h"

namespace drainsim::experiments {

// "live_p99_ms<=250" -> {live_p99_ms, <=, 250}, or why not.
base::Expected<Constraint> ParseConstraint(const std::string& text);

// 10^floor(log10((high - low) / 100)): about a hundredth of the range, a round number.
double DefaultResolution(double low, double high);

// Builds the scenario for one value, or says why the loader refuses it.
using ScenarioAt = std::function<base::Expected<config::Scenario>(double value)>;

// About the most evaluations the search makes: the scan's values, then bisection of the widest
// gap down to the resolution (for a progress line).
double ExpectedEvaluations(const TuneSpec& spec);

// Runs the search, or says why a candidate's scenario was refused.
base::Expected<TuneResult> Tune(const TuneSpec& spec, const ScenarioAt& scenario_at,
                                const RunnerOptions& options);

}  // namespace drainsim::experiments
