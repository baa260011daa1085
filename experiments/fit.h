// `drainsim fit`'s computation: telemetry (sim/telemetry/otlp_read.h) to fitted parameters
// (experiments/results/fit_result.h). The statistics are Boost.Math's distributions.
//
// The rules (docs/TELEMETRY.md, "drainsim fit"):
//  - Handler time: the durations of finished attempts that did not fail, in ms. Lognormal by
//    maximum likelihood (mu = mean of ln x, sigma = its root mean square deviation), intervals
//    exact for lognormal data (Student's t for mu, chi-squared for sigma); an empirical table of
//    kEmpiricalRows quantiles (and the minimum). Each gets its Kolmogorov-Smirnov distance to the
//    data. Chosen: the lognormal iff its distance is at most the Kolmogorov 5% critical value
//    1.358 / sqrt(n) (the data do not reject it), else the table.
//  - Failures: per error class, in ErrorClass order then by name, the probability conditional
//    on the earlier classes not having failed the attempt, with a Wilson 95% interval. Censored
//    attempts (still running at the end) are left out; attempts failed by a class that is not a
//    scenario class (worker_crashed) are no trial for the scenario classes after it. The time to
//    fail (fail_after_ms): the mean of the class's failed attempts' durations with Student's t
//    95% interval.
//  - Database statements (telemetry::StatementSpan), matched to their process spans by key: per
//    kind, the latency of those that did not fail, by the handler time's rules; the most common
//    count per successful attempt. A kind with statements has its handler time taken as each
//    successful attempt's duration less its statements' (at least 0).
//  - Attempts per message: spans per messaging.message.id.
//  - Arrivals: a message arrives at its first attempt's start (the publish time is not in the
//    spans; the queue wait delays it). Origin: the first arrival, floored to whole seconds.
//    Windows of window_s seconds (0: one window to the last arrival, ceiled; at most
//    kArrivalWindowsMax, widened if need be); a Poisson rate per window with Garwood's exact 95%
//    interval.
//
// Contract: deterministic (kinds by name, classes in the order above); never throws.
#pragma once

#include <cstddef>
#include <vector>

#include "experiments/results/fit_result.h"
#include "sim/telemetry/otlp_read.h"

namespace drainsim::experiments {

inline constexpr size_t kEmpiricalRows = 32;
// Arrival windows at most: a narrower --window-s over a long span of data is widened to
// span / kArrivalWindowsMax (FitResult::window_s says the width used), so that memory stays
// bounded whatever the timestamps are.
inline constexpr size_t kArrivalWindowsMax = 10'000;

// REQUIRES: window_s >= 0
FitResult FitTelemetry(const telemetry::TelemetrySet& set, double window_s);

// The pieces, for tests.
// REQUIRES: durations_ms sorted ascending, every one > 0, size >= 2
LognormalFit FitLognormal(const std::vector<double>& durations_ms);
// REQUIRES: durations_ms sorted ascending, not empty
EmpiricalFit FitEmpirical(const std::vector<double>& durations_ms);
// Wilson's 95% interval for `successes` of `trials`. REQUIRES: 0 <= successes <= trials, trials > 0
Interval95 Wilson95(int64_t successes, int64_t trials);
// The chart's points of a handler fit (CdfPoint). REQUIRES: durations_ms sorted, fit.empirical
std::vector<CdfPoint> CdfCurve(const std::vector<double>& durations_ms, const HandlerFit& fit);
// Garwood's exact 95% interval for a Poisson mean given `count` events.
Interval95 Garwood95(int64_t count);
// The mean with Student's t 95% interval (n - 1 degrees of freedom), its low end at least 0.
// REQUIRES: values not empty, every one >= 0
MeanFit FitMean(const std::vector<double>& values);

}  // namespace drainsim::experiments
