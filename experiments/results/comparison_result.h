// `drainsim compare`'s result as reports read it (reports/compare_report.h renders it;
// experiments/compare.h computes it and says what the figures mean, experiments/compare_censored.h
// and experiments/paired_tests.h the tests for outcomes a run may never reach): the comparison's
// header, per metric both sides' statistics, the paired difference and a verdict, and the gate.
//
// Contract: plain data.
//  (1) ComparisonResult::metrics[m] is the comparison of Comparison::metrics[m]; its `censored`
//      is set iff the metric's undefined value means "never" (experiments/metric_spec.h).
//  (2) The gate's rows are in the same order (experiments/results/gate_result.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/results/experiment.h"
#include "experiments/results/gate_result.h"
#include "experiments/results/statistics.h"

namespace drainsim::experiments {

struct ComparedScenario {
  std::string name;
  std::string path;
  std::string hash;
};

struct Comparison {
  ComparedScenario a;
  ComparedScenario b;
  std::string drainsim_version;
  uint64_t base_seed = 0;
  int64_t replications = 0;
  double confidence = 0.95;
  bool independent = false;  // B without common random numbers
  std::vector<MetricColumn> metrics;
  std::vector<std::string> gate;  // --fail-if-worse: canonical names, each one of `metrics`
  bool markdown = false;          // --format markdown: stdout is comment.md
};

enum class CompareVerdict : uint8_t {
  kABetter,
  kBBetter,
  kDiffers,
  kNoDifference,
  kTooFew,
  kUndefined
};
inline std::string_view CompareVerdictName(CompareVerdict verdict) {
  switch (verdict) {
    case CompareVerdict::kABetter:
      return "A better";
    case CompareVerdict::kBBetter:
      return "B better";
    case CompareVerdict::kDiffers:
      return "differs";
    case CompareVerdict::kNoDifference:
      return "no significant difference";
    case CompareVerdict::kTooFew:
      return "too few pairs";
    case CompareVerdict::kUndefined:
      return "undefined";
  }
  return "undefined";
}

// What a verdict rests on (experiments/compare.h contract (2) and (3)); kNone with no verdict
// ("undefined").
enum class VerdictBasis : uint8_t { kNone, kPairedT, kSignedRank };
// "-", "paired t", "signed rank"
inline std::string_view VerdictBasisName(VerdictBasis basis) {
  switch (basis) {
    case VerdictBasis::kNone:
      return "-";
    case VerdictBasis::kPairedT:
      return "paired t";
    case VerdictBasis::kSignedRank:
      return "signed rank";
  }
  return "-";
}

// A share with its Wilson interval and the signed-rank test's figures (experiments/paired_tests.h
// computes them).
struct Proportion {
  int64_t k = 0;  // runs with the outcome
  int64_t n = 0;  // runs
  double share = 0;
  double low = 0;  // the Wilson interval at `level`
  double high = 0;
};

struct SignedRank {
  int64_t nonzero = 0;  // differences ranked
  int64_t zeros = 0;    // differences exactly 0, dropped
  double w_plus = 0;    // sum of the ranks of positive differences
  double w_minus = 0;   // of negative ones; w_plus + w_minus = nonzero (nonzero + 1) / 2
  double p = 1;         // two-sided
  bool exact = true;    // false: normal approximation
};

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

struct MetricComparison {
  Statistics a;
  Statistics b;
  Statistics difference;                       // of b - a, paired
  std::optional<double> unpaired_half_width;   // Welch, from a and b: what independent runs give
  std::optional<CensoredComparison> censored;  // iff the metric's undefined means "never"
  CompareVerdict verdict = CompareVerdict::kUndefined;
  VerdictBasis verdict_by = VerdictBasis::kNone;
};

struct ComparisonResult {
  std::vector<MetricComparison> metrics;  // one per Comparison::metrics
  GateResult gate;
};

}  // namespace drainsim::experiments
