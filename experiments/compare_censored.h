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

#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "experiments/paired_tests.h"

namespace drainsim::experiments {

struct CensoredComparison {
  Proportion reached_a;  // Wilson interval at the comparison's confidence
  Proportion reached_b;
  int64_t a_only = 0;  // pairs where only A reached it
  int64_t b_only = 0;  // pairs where only B reached it
  double mcnemar_p = 1;
  SignedRank rank;  // on B - A, "never" = +infinity

  // Some run, on either side, never reached it: the means are then over a subset of the runs.
  bool AnyNever() const { return reached_a.k < reached_a.n || reached_b.k < reached_b.n; }
};

// REQUIRES: a.size() == b.size() >= 1, 0 < confidence < 1
CensoredComparison CompareCensored(std::span<const std::optional<double>> a,
                                   std::span<const std::optional<double>> b, double confidence);

// A p-value as people read it: 3 significant digits ("0.0039", "1", "2.1e-09").
std::string PValueText(double p);
// As compare.json writes it: 6 significant digits.
double PValueJson(double p);

nlohmann::json CensoredJson(const CensoredComparison& c);

// The header of the "reached" table after its metric column, and one row's cells in that order:
// reached A ("2 of 10"), its interval ("[5.7%, 51%]"), the same for B, pairs reached in A only,
// in B only, McNemar's p, the signed-rank p.
std::vector<std::string> CensoredHeader(double confidence);
std::vector<std::string> CensoredCells(const CensoredComparison& c);

}  // namespace drainsim::experiments
