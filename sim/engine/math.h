// The standard normal distribution's CDF, upper tail, density and inverse CDF.
//
// The inverse CDF is Wichura's algorithm AS 241 (PPND16, Applied Statistics 37(3), 1988),
// accurate to about 1 part in 10^16 over (0, 1): the project owns it so that lognormal and
// normal samples are the same on every platform. The CDF uses std::erfc, which is correctly
// rounded to within an ulp or two by glibc; it is used for parameters and moments, never on the
// per-sample path.
//
// Invariants:
//  (1) InverseNormalCdf is nondecreasing on [0, 1], with -inf at 0 and +inf at 1.
//  (2) NormalCdf(InverseNormalCdf(p)) == p to about 1e-15 relative (tested).
//
// Thread-safety: pure functions.
#pragma once

namespace drainsim::engine {

// z such that P(Z <= z) = 0.99 for a standard normal Z.
inline constexpr double kNormalQuantile99 = 2.3263478740408408;

// P(Z <= x).
double NormalCdf(double x);
// P(Z > x), accurate in the far upper tail where 1 - NormalCdf(x) would round to 0.
double NormalUpperTail(double x);
// The standard normal density at x.
double NormalPdf(double x);
// The z with P(Z <= z) = p.
// REQUIRES: 0 <= p <= 1 (not NaN)
double InverseNormalCdf(double p);

}  // namespace drainsim::engine
