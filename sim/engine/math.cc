#include "sim/engine/math.h"

#include <cmath>
#include <limits>

#include "sim/base/check.h"

namespace drainsim::engine {

namespace {
constexpr double kInvSqrt2 = 0.70710678118654752440;
constexpr double kInvSqrt2Pi = 0.39894228040143267794;

// Evaluates c[0] + c[1] x + ... + c[7] x^7 (Horner).
double Poly7(const double (&c)[8], double x) {
  double value = c[7];
  for (int i = 6; i >= 0; --i) value = value * x + c[i];
  return value;
}

// AS 241 coefficients, transcribed from the published algorithm. Numerators then denominators
// (whose constant term is 1) for the three regions: |p - 0.5| <= 0.425; the intermediate tail
// r = sqrt(-ln min(p, 1-p)) <= 5; and the far tail.
constexpr double kA[8] = {3.3871328727963666080e0,  1.3314166789178437745e+2,
                          1.9715909503065514427e+3, 1.3731693765509461125e+4,
                          4.5921953931549871457e+4, 6.7265770927008700853e+4,
                          3.3430575583588128105e+4, 2.5090809287301226727e+3};
constexpr double kB[8] = {1.0,
                          4.2313330701600911252e+1,
                          6.8718700749205790830e+2,
                          5.3941960214247511077e+3,
                          2.1213794301586595867e+4,
                          3.9307895800092710610e+4,
                          2.8729085735721942674e+4,
                          5.2264952788528545610e+3};
constexpr double kC[8] = {1.42343711074968357734e0,  4.63033784615654529590e0,
                          5.76949722146069140550e0,  3.64784832476320460504e0,
                          1.27045825245236838258e0,  2.41780725177450611770e-1,
                          2.27238449892691845833e-2, 7.74545014278341407640e-4};
constexpr double kD[8] = {1.0,
                          2.05319162663775882187e0,
                          1.67638483018380384940e0,
                          6.89767334985100004550e-1,
                          1.48103976427480074590e-1,
                          1.51986665636164571966e-2,
                          5.47593808499534494600e-4,
                          1.05075007164441684324e-9};
constexpr double kE[8] = {6.65790464350110377720e0,  5.46378491116411436990e0,
                          1.78482653991729133580e0,  2.96560571828504891230e-1,
                          2.65321895265761230930e-2, 1.24266094738807843860e-3,
                          2.71155556874348757815e-5, 2.01033439929228813265e-7};
constexpr double kF[8] = {1.0,
                          5.99832206555887937690e-1,
                          1.36929880922735805310e-1,
                          1.48753612908506148525e-2,
                          7.86869131145613259100e-4,
                          1.84631831751005468180e-5,
                          1.42151175831644588870e-7,
                          2.04426310338993978564e-15};
}  // namespace

double NormalCdf(double x) { return 0.5 * std::erfc(-x * kInvSqrt2); }

double NormalUpperTail(double x) { return 0.5 * std::erfc(x * kInvSqrt2); }

double NormalPdf(double x) { return kInvSqrt2Pi * std::exp(-0.5 * x * x); }

double InverseNormalCdf(double p) {
  DRAINSIM_CHECK(p >= 0.0);
  DRAINSIM_CHECK(p <= 1.0);
  const double q = p - 0.5;
  if (std::fabs(q) <= 0.425) {
    const double r = 0.180625 - q * q;
    return q * Poly7(kA, r) / Poly7(kB, r);
  }
  // r is computed from the smaller tail probability: for p near 1, 1 - p is exact in double
  // (Sterbenz), so both tails get full relative accuracy.
  double r = q < 0.0 ? p : 1.0 - p;
  if (r == 0.0) {
    return q < 0.0 ? -std::numeric_limits<double>::infinity()
                   : std::numeric_limits<double>::infinity();
  }
  r = std::sqrt(-std::log(r));
  double z = 0.0;
  if (r <= 5.0) {
    r -= 1.6;
    z = Poly7(kC, r) / Poly7(kD, r);
  } else {
    r -= 5.0;
    z = Poly7(kE, r) / Poly7(kF, r);
  }
  return q < 0.0 ? -z : z;
}

}  // namespace drainsim::engine
