// Student's t distribution: its upper tail and its quantiles, for confidence intervals of the
// mean of a few independent replications (experiments/results/statistics.h) and for the validation
// suite (tests/validation/stats.h), which checks them against the standard tables.
//
// Invariants:
//  (1) StudentTQuantile(p, df) is computed, not looked up: the upper tail of Student's t is
//      P(T > t) = I_{df / (df + t^2)}(df / 2, 1 / 2) / 2 (the regularized incomplete beta, by
//      its continued fraction, Numerical Recipes 6.4), inverted by bisection.
//  (2) Both are deterministic: the same arguments give the same bits on one platform.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>

namespace drainsim::experiments {

// P(T > t) for Student's t with df degrees of freedom, to about 1e-12 absolute (above 1e7
// degrees of freedom lgamma's cancellation would cost digits; use the normal there).
// REQUIRES: t >= 0, 1 <= df <= 1e7
double StudentTUpperTail(double t, int64_t df);

// The p-quantile of Student's t, to about 1e-10. REQUIRES: 0.5 <= p < 1, 1 <= df <= 1e7
double StudentTQuantile(double p, int64_t df);

}  // namespace drainsim::experiments
