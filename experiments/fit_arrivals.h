// The arrival rate chosen from the data (`drainsim fit` without --window-s): one Poisson rate,
// or a piecewise-constant rate when a dispersion test rejects the constant one.
//
// The rule (docs/TELEMETRY.md, "Arrival rate"):
//  (1) Bins: [0, end_s) in k equal bins, k = arrivals / kDispersionCountPerBin (at least 5
//      expected arrivals per bin), clamped to [2, kArrivalWindowsMax].
//  (2) Dispersion: the index of dispersion D = sum (x_i - mean)^2 / mean over the bin counts is
//      chi-squared with k - 1 degrees of freedom for a constant Poisson rate; the constant rate is
//      rejected iff its upper-tail p-value is below 0.05 (one-sided: a changing rate
//      over-disperses).
//  (3) Change points, only when (2) rejects: binary segmentation over the bins. A segment is split
//      at the bin boundary that maximises the Poisson likelihood ratio of two rates against one,
//      iff that maximum exceeds the chi-squared(1) quantile at 1 - 0.05 / m (Bonferroni over its m
//      candidate boundaries), each side at least kSegmentBinsMin bins; at most kSegmentsMax
//      segments. Segments are split in order of position (left first), so the result is
//      deterministic.
//  (4) Per segment a Poisson rate with Garwood's exact 95% interval.
//  (5) Regular arrivals: when D's lower-tail p-value is below kRegularTestLevel (arrival times
//      only, not a series), the arrivals are more even than Poisson ones — a producer publishing at
//      a fixed pace, as drainsim's `constant` schedule does — and the fragment gives a `constant`
//      producer at the rate of (4). The level is 0.1%, not 5%, so that Poisson data turns constant
//      once in a thousand fits, not once in twenty; a fixed-pace producer's index is near 0, far
//      below that threshold (the live run of scenarios/live-retry.json: 0.0000 over 120 bins).
//      At least kRegularBinsMin bins (100 arrivals): over a few bins, equal counts are common
//      for Poisson arrivals too (two bins of a 10-arrival sample are 5 and 5 a quarter of the time).
//      A metric series' counts are averages over its rate window, smoother than the arrivals
//      behind them, so they are no evidence of regularity: FitArrivalCounts never sets it.
// FitArrivalRate bins arrival times by (1); FitArrivalCounts takes bins already counted (a
// metric series' inflow) and applies (2) to (4), so both sources are tested and segmented alike.
//
// Contract: pure, deterministic; never throws.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "experiments/results/fit_result.h"

namespace drainsim::experiments {

inline constexpr double kDispersionCountPerBin = 5;
inline constexpr size_t kSegmentBinsMin = 5;
inline constexpr size_t kSegmentsMax = 16;
inline constexpr double kArrivalTestLevel = 0.05;
inline constexpr double kRegularTestLevel = 0.001;
inline constexpr int64_t kRegularBinsMin = 20;

struct ArrivalRateFit {
  std::vector<ArrivalWindow> segments;  // consecutive, covering [0, end_s)
  ArrivalDispersion dispersion;
  std::vector<int64_t> counts;  // per bin of dispersion.bin_s
};

// REQUIRES: end_s > 0; every arrival in [0, end_s) (a later one counts in the last bin).
ArrivalRateFit FitArrivalRate(const std::vector<double>& arrivals_s, double end_s);

// Steps (2) to (4) on counts already binned (a metric series' inflow, experiments/fit_series.h):
// bin i is [i * bin_s, (i + 1) * bin_s). Step (1) is the caller's.
// REQUIRES: counts.size() >= 2, every count >= 0, bin_s > 0
ArrivalRateFit FitArrivalCounts(std::vector<int64_t> counts, double bin_s);

// Step (3) for any model of the bins (failure windows use it too, experiments/fit_windows.h):
// ratio(from, at, until) is the likelihood-ratio statistic of splitting bins [from, until) at
// `at` (two parameters against one, chi-squared(1) under one). Returns the boundaries, bin
// indices ascending, 0 and bins included.
using SplitRatio = std::function<double(size_t from, size_t at, size_t until)>;
std::vector<size_t> SegmentBins(size_t bins, const SplitRatio& ratio);

// One window [from_s, until_s) with `arrivals` events: its rate and Garwood's interval.
// REQUIRES: until_s > from_s
ArrivalWindow PoissonWindow(double from_s, double until_s, int64_t arrivals);

}  // namespace drainsim::experiments
