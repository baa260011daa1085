#include "tests/validation/stats.h"

#include <cmath>

#include "sim/base/check.h"

namespace drainsim::validation {

double Summary::StandardError() const { return sd / std::sqrt(static_cast<double>(count)); }

double Summary::HalfWidth(double level) const {
  DRAINSIM_CHECK(level > 0);
  DRAINSIM_CHECK(level < 1);
  DRAINSIM_CHECK(count >= 2);
  return StudentTQuantile((1 + level) / 2, count - 1) * StandardError();
}

bool Summary::Contains(double value, double level) const {
  const double half_width = HalfWidth(level);
  return mean - half_width <= value && value <= mean + half_width;
}

Summary Summarize(const Eigen::VectorXd& values) {
  DRAINSIM_CHECK(values.size() >= 2);
  DRAINSIM_CHECK(values.allFinite());
  Summary s;
  s.count = values.size();
  s.mean = values.mean();
  const double n = static_cast<double>(s.count);
  s.sd = std::sqrt((values.array() - s.mean).square().sum() / (n - 1));
  return s;
}

}  // namespace drainsim::validation
