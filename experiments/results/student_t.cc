#include "experiments/results/student_t.h"

#include <cmath>

#include "sim/base/check.h"

namespace drainsim::experiments {

namespace {

// The continued fraction of the incomplete beta function, evaluated by the modified Lentz
// method (Numerical Recipes, 2nd ed., betacf). Converges quickly for x < (a + 1) / (a + b + 2).
double BetaContinuedFraction(double a, double b, double x) {
  constexpr int kIterationsMax = 1000;
  constexpr double kEpsilon = 1e-15;
  constexpr double kTiny = 1e-300;
  auto guard = [](double v) { return std::abs(v) < kTiny ? kTiny : v; };
  const double qab = a + b;
  const double qap = a + 1;
  const double qam = a - 1;
  double c = 1;
  double d = 1 / guard(1 - qab * x / qap);
  double h = d;
  for (int m = 1; m <= kIterationsMax; ++m) {
    const int m2 = 2 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 / guard(1 + aa * d);
    c = guard(1 + aa / c);
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 / guard(1 + aa * d);
    c = guard(1 + aa / c);
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1) < kEpsilon) return h;
  }
  DRAINSIM_CHECK(false);  // does not happen for the arguments used here (df <= 1e7)
  return h;
}

// I_x(a, b), the regularized incomplete beta function.
double RegularizedIncompleteBeta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * BetaContinuedFraction(a, b, x) / a;
  return 1 - front * BetaContinuedFraction(b, a, 1 - x) / b;
}

}  // namespace

double StudentTUpperTail(double t, int64_t df) {
  DRAINSIM_CHECK(t >= 0);
  DRAINSIM_CHECK(df >= 1);
  DRAINSIM_CHECK(df <= 10'000'000);
  const double v = static_cast<double>(df);
  const double t2 = t * t;
  // Two forms of one identity, each used where it keeps its precision: P(|T| < t) =
  // I_{t^2 / (v + t^2)}(1/2, v/2) near the centre, P(|T| > t) = I_{v / (v + t^2)}(v/2, 1/2) in
  // the tail (there v / (v + t^2) would round to 1 for small t).
  if (t2 < v) return (1 - RegularizedIncompleteBeta(0.5, v / 2, t2 / (v + t2))) / 2;
  return RegularizedIncompleteBeta(v / 2, 0.5, v / (v + t2)) / 2;
}

double StudentTQuantile(double p, int64_t df) {
  DRAINSIM_CHECK(p >= 0.5);
  DRAINSIM_CHECK(p < 1);
  DRAINSIM_CHECK(df >= 1);
  const double tail = 1 - p;
  // Bracket [low, high] with P(T > low) >= tail > P(T > high), then halve it: the tail is
  // strictly decreasing in t.
  double low = 0;
  double high = 1;
  while (StudentTUpperTail(high, df) >= tail) {
    low = high;
    high *= 2;
    DRAINSIM_CHECK(high < 1e300);
  }
  for (int i = 0; i < 200 && high - low > 1e-13 * high; ++i) {
    const double middle = (low + high) / 2;
    (StudentTUpperTail(middle, df) >= tail ? low : high) = middle;
  }
  return (low + high) / 2;
}

}  // namespace drainsim::experiments
