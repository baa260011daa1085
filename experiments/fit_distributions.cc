// The distribution fits of experiments/fit.h: lognormal by maximum likelihood, the empirical
// table, Kolmogorov-Smirnov distances, Wilson and Garwood intervals.
#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/lognormal.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <functional>

#include "experiments/fit.h"
#include "sim/base/check.h"

namespace drainsim::experiments {

namespace {

// sup |ECDF - F| over sorted data, F's left limit at each point given by `cdf_left`.
double KsDistance(const std::vector<double>& sorted, const std::function<double(double)>& cdf,
                  const std::function<double(double)>& cdf_left) {
  const auto n = static_cast<double>(sorted.size());
  double d = 0;
  for (size_t i = 0; i < sorted.size(); ++i) {
    // Ties: the ECDF jumps once, at the last of equal values; before the first it is i / n.
    if (i + 1 < sorted.size() && sorted[i + 1] == sorted[i]) continue;
    size_t first = i;
    while (first > 0 && sorted[first - 1] == sorted[i]) --first;
    d = std::max(d, std::abs(static_cast<double>(i + 1) / n - cdf(sorted[i])));
    d = std::max(d, std::abs(cdf_left(sorted[i]) - static_cast<double>(first) / n));
  }
  return d;
}

// The CDF of an empirical table as the engine samples it (sim/engine/distributions.cc): an atom
// of the first row's probability at its value, linear between rows. `strict`: the left limit.
double TableCdf(const std::vector<std::pair<double, double>>& rows, double x, bool strict) {
  const auto below = [&](double v) { return strict ? v < x : v <= x; };
  if (!below(rows.front().second)) return 0;
  size_t j = 0;
  while (j + 1 < rows.size() && below(rows[j + 1].second)) ++j;
  if (j + 1 == rows.size()) return 1;
  const auto [p0, v0] = rows[j];
  const auto [p1, v1] = rows[j + 1];
  if (v1 <= v0) return p0;
  return p0 + (p1 - p0) * std::min(1.0, (x - v0) / (v1 - v0));
}

}  // namespace

MeanFit FitMean(const std::vector<double>& values) {
  DRAINSIM_CHECK(!values.empty());
  MeanFit fit;
  fit.n = static_cast<int64_t>(values.size());
  const auto n = static_cast<double>(values.size());
  double sum = 0;
  for (const double x : values) {
    DRAINSIM_CHECK(x >= 0);
    sum += x;
  }
  fit.mean = sum / n;
  if (values.size() < 2) return fit;
  double squares = 0;
  for (const double x : values) squares += (x - fit.mean) * (x - fit.mean);
  const boost::math::students_t t(n - 1);
  const double half = boost::math::quantile(t, 0.975) * std::sqrt(squares / (n - 1) / n);
  fit.interval = Interval95{std::max(0.0, fit.mean - half), fit.mean + half};
  return fit;
}

LognormalFit FitLognormal(const std::vector<double>& durations_ms) {
  DRAINSIM_CHECK(durations_ms.size() >= 2);
  DRAINSIM_CHECK(durations_ms.front() > 0);
  const auto n = static_cast<double>(durations_ms.size());
  double sum = 0;
  for (const double x : durations_ms) sum += std::log(x);
  LognormalFit fit;
  fit.mu = sum / n;
  double squares = 0;
  for (const double x : durations_ms) squares += (std::log(x) - fit.mu) * (std::log(x) - fit.mu);
  fit.sigma = std::sqrt(squares / n);
  const boost::math::students_t t(n - 1);
  const double half = boost::math::quantile(t, 0.975) * std::sqrt(squares / (n - 1) / n);
  fit.mu_interval = {fit.mu - half, fit.mu + half};
  const boost::math::chi_squared chi(n - 1);
  fit.sigma_interval = {std::sqrt(squares / boost::math::quantile(chi, 0.975)),
                        std::sqrt(squares / boost::math::quantile(chi, 0.025))};
  if (fit.sigma > 0) {
    const boost::math::lognormal model(fit.mu, fit.sigma);
    const auto cdf = [&](double x) { return boost::math::cdf(model, x); };
    fit.ks = KsDistance(durations_ms, cdf, cdf);
  } else {
    fit.ks = 1;  // every duration equal: no lognormal has them all
  }
  return fit;
}

EmpiricalFit FitEmpirical(const std::vector<double>& durations_ms) {
  DRAINSIM_CHECK(!durations_ms.empty());
  const size_t n = durations_ms.size();
  const size_t rows = std::min(kEmpiricalRows, n);
  EmpiricalFit fit;
  // The minimum with the ECDF's first step, then the quantiles at i / rows (order statistics).
  fit.points.push_back({1.0 / static_cast<double>(n), durations_ms.front()});
  for (size_t i = 1; i <= rows; ++i) {
    const double p = static_cast<double>(i) / static_cast<double>(rows);
    if (p <= fit.points.back().first) continue;
    const size_t rank = std::max<size_t>(1, (i * n + rows - 1) / rows);  // ceil(p n)
    fit.points.push_back({p, durations_ms[rank - 1]});
  }
  fit.points.back().first = 1.0;
  const auto cdf = [&](double x) { return TableCdf(fit.points, x, false); };
  const auto cdf_left = [&](double x) { return TableCdf(fit.points, x, true); };
  fit.ks = KsDistance(durations_ms, cdf, cdf_left);
  return fit;
}

std::vector<CdfPoint> CdfCurve(const std::vector<double>& durations_ms, const HandlerFit& fit) {
  DRAINSIM_CHECK(fit.empirical.has_value());
  const size_t n = durations_ms.size();
  std::vector<CdfPoint> out;
  for (size_t i = 0; i <= 100; ++i) {
    const size_t rank = std::max<size_t>(1, (i * n + 99) / 100);  // ceil(i n / 100), at least 1
    CdfPoint p;
    p.value_ms = durations_ms[rank - 1];
    p.data = static_cast<double>(rank) / static_cast<double>(n);
    if (fit.lognormal && fit.lognormal->sigma > 0) {
      p.lognormal = boost::math::cdf(
          boost::math::lognormal(fit.lognormal->mu, fit.lognormal->sigma), p.value_ms);
    }
    p.table = TableCdf(fit.empirical->points, p.value_ms, false);
    if (out.empty() || out.back().value_ms < p.value_ms) out.push_back(p);
  }
  return out;
}

Interval95 Wilson95(int64_t successes, int64_t trials) {
  DRAINSIM_CHECK(trials > 0);
  DRAINSIM_CHECK(successes >= 0 && successes <= trials);
  const double z = boost::math::quantile(boost::math::normal(), 0.975);
  const auto n = static_cast<double>(trials);
  const double p = static_cast<double>(successes) / n;
  const double denominator = 1 + z * z / n;
  const double center = (p + z * z / (2 * n)) / denominator;
  const double half = z / denominator * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n));
  return {std::max(0.0, center - half), std::min(1.0, center + half)};
}

Interval95 Garwood95(int64_t count) {
  DRAINSIM_CHECK(count >= 0);
  const auto k = static_cast<double>(count);
  const double low =
      count == 0 ? 0 : boost::math::quantile(boost::math::chi_squared(2 * k), 0.025) / 2;
  const double high = boost::math::quantile(boost::math::chi_squared(2 * k + 2), 0.975) / 2;
  return {low, high};
}

}  // namespace drainsim::experiments
