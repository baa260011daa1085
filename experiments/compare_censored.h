// `drainsim compare` for outcomes a run may never reach (metric_spec.h, UndefinedMeansNever:
// time_to_empty_s, time_to_quiet_s, the alerts' first times). "Never" is an outcome, later than
// any instant, and for a lower-is-better time the worst one: it is not left out.
//
// Per metric and side: how many runs reached it, with its Wilson interval; over the pairs
// (replication i of A and of B share their seed, compare.h), McNemar's exact test on reached /
// not reached, and the Wilcoxon signed-rank test on B - A with "never" as +infinity.
//
// Why the signed-rank test, paired, rather than Mann-Whitney on the two samples: under the null
// hypothesis that the policy changes nothing, A's and B's outcome in one pair are exchangeable
// (with common random numbers they meet the same fates; with --independent they are independent
// draws of one distribution), so each nonzero difference is equally likely to be positive or
// negative given the magnitudes, which is exactly the signed-rank test's permutation
// distribution, ties and infinite magnitudes included. Pairing keeps what common random numbers
// buy; Mann-Whitney would throw it away. Zero differences (both never, or the same instant) say
// nothing about direction and are dropped.
//
// Contract:
//  (1) reached_x.k + (runs where x never reached it) = reached_x.n = the replications.
//  (2) a_only + b_only + (pairs where both or neither reached it) = the replications.
//  (3) rank is over every replication: both reached, B - A; only A reached, +infinity (B
//      later); only B, -infinity; neither, 0.
//  (4) Pure: the same values give the same figures.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "experiments/paired_tests.h"

namespace drainsim::experiments {

// REQUIRES: a.size() == b.size() >= 1, 0 < confidence < 1
CensoredComparison CompareCensored(std::span<const std::optional<double>> a,
                                   std::span<const std::optional<double>> b, double confidence);

}  // namespace drainsim::experiments
