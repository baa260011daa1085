// Statistics of independent replications: the mean of R per-run figures and Student-t
// confidence intervals for it.
//
// Each replication is one run of the same scenario with its own seed (1..R), so the R figures
// are independent and identically distributed; within a run the figure is an average over many
// messages, so by the central limit theorem it is close to normal, and
//   mean +- t((1 + level) / 2, R - 1) * sd / sqrt(R)
// is a confidence interval of that level for its expectation (sd: the sample standard
// deviation, divisor R - 1).
//
// Invariants:
//  (1) StudentTQuantile(p, df) (experiments/results/student_t.h) is computed, not looked up;
//      theory_test.cc checks it against the standard table of t(0.975, df) for df 1..40 and
//      against a numerical integration of the density.
//  (2) HalfWidth(level) >= 0, is 0 iff every value is the same, and grows with the level.
//
// Thread-safety: pure functions.
#pragma once

#include <Eigen/Dense>
#include <cstdint>

#include "experiments/results/student_t.h"

namespace drainsim::validation {

// Student's t lives in the experiments library, which computes the confidence intervals of
// `drainsim run --replications`; the validation suite checks it (theory_test.cc).
using experiments::StudentTQuantile;
using experiments::StudentTUpperTail;

struct Summary {
  int64_t count = 0;  // replications
  double mean = 0;    // of the replication figures
  double sd = 0;      // sample standard deviation (divisor count - 1)

  double StandardError() const;
  // t((1 + level) / 2, count - 1) * sd / sqrt(count). REQUIRES: 0 < level < 1
  double HalfWidth(double level) const;
  // True iff value lies in mean +- HalfWidth(level).
  bool Contains(double value, double level) const;
};

// REQUIRES: values.size() >= 2, every value finite
Summary Summarize(const Eigen::VectorXd& values);

}  // namespace drainsim::validation
