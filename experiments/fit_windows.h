// Failure probability over time (`drainsim fit`, issue 17): whether an error class's
// probability was constant over the data, and if not, the windows in which it held, so that an
// incident window (a dependency failing from 200 s to 400 s) is fitted as errors faults with
// from_s/until_s rather than one rate over the whole run.
//
// The rule (docs/TELEMETRY.md, "Failure windows"), on a class's trials (the attempts its
// conditional probability counts, experiments/fit.h) by their start time:
//  (1) Bins: [0, end_s) in k equal bins, k = min(failures, successes) / 5 (at least 5 expected
//      failures and successes a bin), at most kArrivalWindowsMax; fewer than 2 bins: not tested.
//  (2) Homogeneity: Pearson's chi-squared of the 2 x k table (failed, not failed by bin), the
//      sum over bins with trials of (f_i - n_i p)^2 / (n_i p (1 - p)), chi-squared with k' - 1
//      degrees of freedom (k' the bins with trials) when p is constant; rejected iff the
//      upper-tail p-value is below 0.05.
//  (3) Windows, only when (2) rejects: binary segmentation (SegmentBins, fit_arrivals.h) with the
//      binomial likelihood ratio of two probabilities against one,
//      2 [L(f1, n1) + L(f2, n2) - L(f, n)], L(f, n) = f ln(f/n) + (n - f) ln(1 - f/n).
//      Then each edge between windows is moved, within one bin either side, to the trial-level
//      split (midway between two trials' starts) where the two windows beside it are likeliest:
//      a bin that straddles the change would otherwise join the window with the failures and
//      dilute its probability.
//  (4) Per window the probability with its Wilson 95% interval.
//
// Contract: pure, deterministic; never throws.
#pragma once

#include <vector>

#include "experiments/results/fit_result.h"

namespace drainsim::experiments {

struct Trial {
  double t_s = 0;  // the attempt's start, seconds from the fit's origin
  bool failed = false;
};

struct FailureWindowsFit {
  FailureHomogeneity homogeneity;
  std::vector<ProbabilityWindow> windows;  // consecutive, covering [0, end_s); one when constant
};

// REQUIRES: end_s > 0; every trial's t_s in [0, end_s) (a later one counts in the last bin).
FailureWindowsFit FitFailureWindows(const std::vector<Trial>& trials, double end_s);

}  // namespace drainsim::experiments
