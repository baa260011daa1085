#include "sim/engine/distributions.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "sim/base/check.h"
#include "sim/engine/math.h"

namespace drainsim::engine {

namespace {
bool WithinMax(double x) {
  // False for NaN and infinities too.
  return std::fabs(x) <= Distribution::kParameterAbsMax;
}

template <typename... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <typename... F>
Overloaded(F...) -> Overloaded<F...>;
}  // namespace

Distribution::Distribution(Params params, double mean, double variance)
    : params_(std::move(params)), mean_(mean), variance_(variance) {
  DRAINSIM_CHECK(std::isfinite(mean_));
  DRAINSIM_CHECK(std::isfinite(variance_));
  DRAINSIM_CHECK(variance_ >= 0.0);
}

Distribution Distribution::Constant(double value) {
  DRAINSIM_CHECK(WithinMax(value));
  return Distribution(ConstantParams{value}, value, 0.0);
}

Distribution Distribution::Uniform(double low, double high) {
  DRAINSIM_CHECK(WithinMax(low));
  DRAINSIM_CHECK(WithinMax(high));
  DRAINSIM_CHECK(low <= high);
  const double width = high - low;
  return Distribution(UniformParams{low, high}, low + 0.5 * width, width * width / 12.0);
}

Distribution Distribution::Exponential(double mean) {
  DRAINSIM_CHECK(WithinMax(mean));
  DRAINSIM_CHECK(mean > 0.0);
  return Distribution(ExponentialParams{mean}, mean, mean * mean);
}

Distribution Distribution::LogNormal(double mu, double sigma) {
  DRAINSIM_CHECK(std::fabs(mu) <= kLogNormalMuAbsMax);
  DRAINSIM_CHECK(sigma > 0.0);
  DRAINSIM_CHECK(sigma <= kLogNormalSigmaMax);
  const double s2 = sigma * sigma;
  // Var = (e^{s^2} - 1) e^{2 mu + s^2}; expm1 keeps precision for small sigma.
  return Distribution(LogNormalParams{mu, sigma}, std::exp(mu + 0.5 * s2),
                      std::expm1(s2) * std::exp(2.0 * mu + s2));
}

Distribution Distribution::LogNormalFromMedianP99(double median, double p99) {
  DRAINSIM_CHECK(median > 0.0);
  DRAINSIM_CHECK(p99 > median);
  DRAINSIM_CHECK(std::isfinite(p99));
  const double mu = std::log(median);
  const double sigma = (std::log(p99) - mu) / kNormalQuantile99;
  return LogNormal(mu, sigma);
}

Distribution Distribution::Normal(double mean, double sd, bool truncate_at_zero) {
  DRAINSIM_CHECK(WithinMax(mean));
  DRAINSIM_CHECK(WithinMax(sd));
  DRAINSIM_CHECK(sd > 0.0);
  if (!truncate_at_zero) {
    return Distribution(NormalParams{mean, sd, false, 1.0}, mean, sd * sd);
  }
  DRAINSIM_CHECK(mean >= -kNormalTruncationSdMax * sd);
  // Standardized truncation point alpha = (0 - mean) / sd; kept mass Q(alpha) = P(Z > alpha).
  // With lambda = phi(alpha) / Q(alpha) (the inverse Mills ratio), the truncated moments are
  // mean + sd lambda and sd^2 (1 + alpha lambda - lambda^2).
  const double alpha = -mean / sd;
  const double kept_mass = NormalUpperTail(alpha);
  DRAINSIM_CHECK(kept_mass > 0.0);
  const double lambda = NormalPdf(alpha) / kept_mass;
  const double variance_factor = std::max(0.0, 1.0 + alpha * lambda - lambda * lambda);
  return Distribution(NormalParams{mean, sd, true, kept_mass}, mean + sd * lambda,
                      sd * sd * variance_factor);
}

Distribution Distribution::Empirical(std::vector<EmpiricalPoint> table) {
  DRAINSIM_CHECK(!table.empty());
  DRAINSIM_CHECK(table.size() <= kEmpiricalPointsMax);
  DRAINSIM_CHECK(table.front().cumulative_probability >= 0.0);
  DRAINSIM_CHECK(table.back().cumulative_probability == 1.0);
  for (std::size_t i = 0; i < table.size(); ++i) {
    DRAINSIM_CHECK(WithinMax(table[i].value));
    if (i > 0) {
      DRAINSIM_CHECK(table[i].cumulative_probability > table[i - 1].cumulative_probability);
      DRAINSIM_CHECK(table[i].value >= table[i - 1].value);
    }
  }
  // The atom carries the first probability; segment i (between points i-1 and i) carries
  // p_i - p_{i-1}, spread uniformly over [v_{i-1}, v_i].
  double mean = table[0].cumulative_probability * table[0].value;
  for (std::size_t i = 1; i < table.size(); ++i) {
    const double mass = table[i].cumulative_probability - table[i - 1].cumulative_probability;
    mean += mass * 0.5 * (table[i - 1].value + table[i].value);
  }
  // Central second moment, computed about the mean to avoid E[X^2] - mean^2 cancellation.
  // For X uniform on [a, b], E[(X - m)^2] = ((a-m)^2 + (a-m)(b-m) + (b-m)^2) / 3.
  const double a0 = table[0].value - mean;
  double variance = table[0].cumulative_probability * a0 * a0;
  for (std::size_t i = 1; i < table.size(); ++i) {
    const double mass = table[i].cumulative_probability - table[i - 1].cumulative_probability;
    const double a = table[i - 1].value - mean;
    const double b = table[i].value - mean;
    variance += mass * (a * a + a * b + b * b) / 3.0;
  }
  return Distribution(EmpiricalParams{std::move(table)}, mean, variance);
}

double Distribution::Quantile(double p) const {
  DRAINSIM_CHECK(p >= 0.0);
  DRAINSIM_CHECK(p <= 1.0);
  return std::visit(
      Overloaded{
          [](const ConstantParams& c) { return c.value; },
          [p](const UniformParams& u) { return u.low + (u.high - u.low) * p; },
          // -mean ln(1 - p); log1p keeps precision for small p.
          [p](const ExponentialParams& e) { return -e.mean * std::log1p(-p); },
          [p](const LogNormalParams& l) { return std::exp(l.mu + l.sigma * InverseNormalCdf(p)); },
          [p](const NormalParams& n) {
            if (!n.truncated) return n.mean + n.sd * InverseNormalCdf(p);
            // The bottom of the support, exactly (the formula below rounds to within an ulp).
            if (p == 0.0) return 0.0;
            // Solve P(Z > z) = (1 - p) Q(alpha) for z: the p-quantile of Z given Z > alpha.
            // Working with the upper tail keeps full precision when alpha is large, where
            // Phi(alpha) would round to 1. The clamp absorbs rounding at p = 0.
            const double z = -InverseNormalCdf((1.0 - p) * n.kept_mass);
            return std::max(0.0, n.mean + n.sd * z);
          },
          [p](const EmpiricalParams& e) {
            const auto& points = e.points;
            // The first point with cumulative probability >= p.
            const auto it = std::lower_bound(points.begin(), points.end(), p,
                                             [](const EmpiricalPoint& point, double q) {
                                               return point.cumulative_probability < q;
                                             });
            DRAINSIM_CHECK(it != points.end());  // the last probability is 1 and p <= 1
            if (it == points.begin()) return it->value;
            const EmpiricalPoint& lo = *(it - 1);
            const EmpiricalPoint& hi = *it;
            const double fraction = (p - lo.cumulative_probability) /
                                    (hi.cumulative_probability - lo.cumulative_probability);
            return lo.value + (hi.value - lo.value) * fraction;
          },
      },
      params_);
}

}  // namespace drainsim::engine
