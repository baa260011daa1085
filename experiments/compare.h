// Paired comparison of two scenarios (`drainsim compare A.json B.json --replications N`):
// common random numbers, paired differences with Student-t intervals, and a verdict per metric;
// for outcomes a run may never reach, the shares that reached them and rank tests
// (compare_censored.h).
//
// Replication i of A and replication i of B run with the same seed, ReplicationSeed(base, i).
// The model draws every fate from a stream of (seed, component, entity) — a message's arrival,
// whether it is poison, whether attempt k fails, how long it takes (docs/MODEL.md) — so wherever
// the two scenarios share those elements, the two runs see the same fates, and the difference
// B - A measures the policy, not the luck. With `independent`, B runs with IndependentSeed(base,
// i) instead: the same estimator without common random numbers, to see what they buy.
//
// Contract:
//  (1) The difference of a metric is over the replications where it has a value in both runs
//      (the others are counted as undefined pairs); its interval is mean(d) +- t * sd(d) /
//      sqrt(n), the paired-t interval. Means and percentiles are over the runs with a value, and
//      every output says over how many ("1689.5 over 2 of 30").
//  (2) Verdict, by the paired t interval ("paired t"): "no significant difference" iff the
//      interval holds 0 (a self-comparison gives exactly 0 with an interval of width 0, hence
//      this verdict). Otherwise, for a metric with a direction (metric_spec.h), "A better" or
//      "B better"; for one without, "differs". "undefined" when no pair has a value, "too few
//      pairs" with one pair.
//  (3) A metric whose undefined value means "never" (metric_spec.h, UndefinedMeansNever) also
//      gets the reached shares and paired tests of compare_censored.h, in every output. When
//      some run of either side never reached it, a mean over the others is not the comparison,
//      and the verdict is the signed-rank test's instead ("signed rank"): "no significant
//      difference" iff p >= 1 - confidence; otherwise the side with the larger rank sum is the
//      later one ("never" the latest of all), worse for a lower-is-better metric.
//  (4) A pure function of its inputs, like every experiment output: identical for every --jobs.
//      ComparisonResultOf computes the result (experiments/results/comparison_result.h) and
//      reports/compare_report.h renders it.
//  (5) The gate (compare_gate.h): with --fail-if-worse, exit_code is 1 iff B is worse than A on
//      some gated metric by the verdict of (2) or (3), else 0. Every output says which metrics
//      were judged and the verdict of each; comment.md (the pull-request comment,
//      reports/compare_comment.h) is always written, and with `markdown` it is also stdout
//      (the file list then goes to stderr, so that stdout can be posted as it is).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "experiments/compare_censored.h"
#include "experiments/experiment.h"
#include "experiments/results/comparison_result.h"
#include "experiments/results/statistics.h"
#include "experiments/runner.h"

namespace drainsim::experiments {

// The seed of replication i for side A (b_side false) or B.
uint64_t ComparisonSeed(const Comparison& c, bool b_side, int64_t replication);

// REQUIRES: a.size() == b.size() >= 1; every record has values for `metrics`
MetricComparison CompareMetric(const std::vector<RunRecord>& a, const std::vector<RunRecord>& b,
                               size_t metric, Better better, double confidence,
                               bool undefined_means_never);

// Every metric compared (CompareMetric) and the gate judged (compare_gate.h): what
// reports/compare_report.h renders. REQUIRES: a.size() == b.size() == c.replications
ComparisonResult ComparisonResultOf(const Comparison& c, const std::vector<RunRecord>& a,
                                    const std::vector<RunRecord>& b);

}  // namespace drainsim::experiments
