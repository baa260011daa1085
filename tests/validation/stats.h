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
//  (1) StudentTQuantile(p, df) is computed, not looked up: the upper tail of Student's t is
//      P(T > t) = I_{df / (df + t^2)}(df / 2, 1 / 2) / 2 (the regularized incomplete beta, by
//      its continued fraction, Numerical Recipes 6.4), inverted by bisection. theory_test.cc
//      checks it against the standard table of t(0.975, df) for df 1..40 and against a
//      numerical integration of the density.
//  (2) HalfWidth(level) >= 0, is 0 iff every value is the same, and grows with the level.
//
// Thread-safety: pure functions.
#pragma once

#include <Eigen/Dense>
#include <cstdint>

namespace drainsim::validation {

// P(T > t) for Student's t with df degrees of freedom, to about 1e-12 absolute (above 1e7
// degrees of freedom lgamma's cancellation would cost digits; use the normal there).
// REQUIRES: t >= 0, 1 <= df <= 1e7
double StudentTUpperTail(double t, int64_t df);

// The p-quantile of Student's t, to about 1e-10. REQUIRES: 0.5 <= p < 1, 1 <= df <= 1e7
double StudentTQuantile(double p, int64_t df);

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
