#include "experiments/results/statistics.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "experiments/results/student_t.h"
#include "sim/base/check.h"

namespace drainsim::experiments {

namespace {

// Nearest rank: the value of rank ceil(p * n), 1-based. `sorted` is in increasing order.
double NearestRank(const std::vector<double>& sorted, int p_percent) {
  const size_t n = sorted.size();
  // ceil(p * n / 100) in integers, so that 0.95 * 20 is exactly rank 19.
  size_t rank = (static_cast<size_t>(p_percent) * n + 99) / 100;
  rank = std::clamp<size_t>(rank, 1, n);
  return sorted[rank - 1];
}

Statistics FromValues(std::vector<double> values, int64_t undefined, double level) {
  DRAINSIM_CHECK(level > 0);
  DRAINSIM_CHECK(level < 1);
  Statistics s;
  s.level = level;
  s.count = static_cast<int64_t>(values.size());
  s.undefined = undefined;
  s.runs = s.count + undefined;
  if (s.count == 0) return s;
  const Eigen::Map<const Eigen::VectorXd> v(values.data(), static_cast<Eigen::Index>(s.count));
  DRAINSIM_CHECK(v.allFinite());
  s.mean = v.mean();
  s.min = v.minCoeff();
  s.max = v.maxCoeff();
  // A constant sample has no spread at all; computing it would leave rounding noise (the mean
  // of three 0.1 is not 0.1), and a self-comparison must say exactly 0.
  const bool constant = s.min == s.max;
  if (constant) s.mean = s.min;
  std::sort(values.begin(), values.end());
  s.p50 = NearestRank(values, 50);
  s.p95 = NearestRank(values, 95);
  s.ci_low = s.ci_high = s.mean;
  if (s.count < 2) return s;
  const double n = static_cast<double>(s.count);
  s.sd = constant ? 0 : std::sqrt((v.array() - s.mean).square().sum() / (n - 1));
  s.half_width = s.sd == 0 ? 0 : StudentTQuantile((1 + level) / 2, s.count - 1) * s.StandardError();
  s.ci_low = s.mean - s.half_width;
  s.ci_high = s.mean + s.half_width;
  return s;
}

}  // namespace

double Statistics::StandardError() const {
  return count < 1 ? 0 : sd / std::sqrt(static_cast<double>(count));
}

double Statistics::RelativeHalfWidth() const {
  if (!has_interval()) return std::numeric_limits<double>::infinity();
  if (half_width == 0) return 0;
  if (mean == 0) return std::numeric_limits<double>::infinity();
  return half_width / std::abs(mean);
}

double Statistics::UpperBound(double confidence) const {
  DRAINSIM_CHECK(has_interval());
  DRAINSIM_CHECK(confidence >= 0.5);
  DRAINSIM_CHECK(confidence < 1);
  if (sd == 0) return mean;
  return mean + StudentTQuantile(confidence, count - 1) * StandardError();
}

double Statistics::LowerBound(double confidence) const {
  DRAINSIM_CHECK(has_interval());
  DRAINSIM_CHECK(confidence >= 0.5);
  DRAINSIM_CHECK(confidence < 1);
  if (sd == 0) return mean;
  return mean - StudentTQuantile(confidence, count - 1) * StandardError();
}

Statistics Describe(std::span<const std::optional<double>> values, double level) {
  std::vector<double> defined;
  defined.reserve(values.size());
  int64_t undefined = 0;
  for (const std::optional<double>& value : values) {
    if (value) {
      defined.push_back(*value);
    } else {
      ++undefined;
    }
  }
  return FromValues(std::move(defined), undefined, level);
}

Statistics DescribeDifferences(std::span<const std::optional<double>> a,
                               std::span<const std::optional<double>> b, double level) {
  DRAINSIM_CHECK(a.size() == b.size());
  std::vector<double> differences;
  differences.reserve(a.size());
  int64_t undefined = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] && b[i]) {
      differences.push_back(*b[i] - *a[i]);
    } else {
      ++undefined;
    }
  }
  return FromValues(std::move(differences), undefined, level);
}

std::optional<double> UnpairedHalfWidth(const Statistics& a, const Statistics& b) {
  if (!a.has_interval() || !b.has_interval()) return std::nullopt;
  const double va = a.sd * a.sd / static_cast<double>(a.count);
  const double vb = b.sd * b.sd / static_cast<double>(b.count);
  if (va + vb == 0) return 0.0;
  const double df =
      (va + vb) * (va + vb) /
      (va * va / static_cast<double>(a.count - 1) + vb * vb / static_cast<double>(b.count - 1));
  const int64_t df_floor = std::max<int64_t>(1, static_cast<int64_t>(std::floor(df)));
  return StudentTQuantile((1 + a.level) / 2, df_floor) * std::sqrt(va + vb);
}

}  // namespace drainsim::experiments
