// Statistics for outcomes that may never happen in a run (a DLQ that never emptied has no
// time_to_empty_s), used by `drainsim compare` (experiments/compare_censored.h): the share of
// runs that reached an outcome with its Wilson score interval, McNemar's exact test on paired
// reached / not-reached outcomes, and the Wilcoxon signed-rank test on paired differences that
// may be infinite ("never" is later than any instant).
//
// Contract:
//  (1) WilsonInterval(k, n, level): the Wilson score interval, z the normal quantile
//      (1 + level) / 2 (Boost.Math): centre (k + z^2/2) / (n + z^2), half-width
//      z / (n + z^2) * sqrt(k (n - k) / n + z^2 / 4); exactly 0 below for k = 0 and 1 above for
//      k = n. Unlike k/n +- z sqrt(p(1-p)/n) it is never degenerate at 0 or n.
//  (2) McNemarExactP(a_only, b_only): the two-sided exact McNemar test: under the null the
//      discordant pairs fall on either side with probability 1/2, so p = min(1, 2 P(X <=
//      min(a_only, b_only))), X ~ Binomial(a_only + b_only, 1/2) (Boost.Math); 1 with no
//      discordant pair.
//  (3) WilcoxonSignedRank(d): zero differences are dropped (Wilcoxon's method); the others are
//      ranked by |d| with midranks for ties (infinite magnitudes tie with each other and rank
//      above every finite one). W+ is the sum of the ranks of positive differences. p is
//      two-sided, min(1, 2 min(P(W+ <= w), P(W+ >= w))): for n <= kSignedRankExactMax nonzero
//      differences from the exact permutation distribution of W+ given the ranks (every sign
//      equally likely: exact with ties too), above it from the normal approximation with the
//      tie correction of the variance and no continuity correction.
//  (4) Deterministic: the same inputs give the same bits.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <span>

#include "experiments/results/comparison_result.h"

namespace drainsim::experiments {

// REQUIRES: 0 <= k <= n, n >= 1, 0 < level < 1
Proportion WilsonInterval(int64_t k, int64_t n, double level);

// REQUIRES: a_only >= 0, b_only >= 0
double McNemarExactP(int64_t a_only, int64_t b_only);

inline constexpr int64_t kSignedRankExactMax = 200;

// REQUIRES: no NaN in `differences` (+-infinity allowed)
SignedRank WilcoxonSignedRank(std::span<const double> differences);

}  // namespace drainsim::experiments
