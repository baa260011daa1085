#include "experiments/compare_censored.h"

#include <limits>
#include <vector>

#include "sim/base/check.h"

namespace drainsim::experiments {

CensoredComparison CompareCensored(std::span<const std::optional<double>> a,
                                   std::span<const std::optional<double>> b, double confidence) {
  DRAINSIM_CHECK(a.size() == b.size());
  DRAINSIM_CHECK(!a.empty());
  const double never = std::numeric_limits<double>::infinity();
  CensoredComparison c;
  int64_t reached_a = 0;
  int64_t reached_b = 0;
  std::vector<double> differences;
  differences.reserve(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    reached_a += a[i].has_value();
    reached_b += b[i].has_value();
    if (a[i] && b[i]) {
      differences.push_back(*b[i] - *a[i]);
    } else if (a[i]) {
      ++c.a_only;
      differences.push_back(never);
    } else if (b[i]) {
      ++c.b_only;
      differences.push_back(-never);
    } else {
      differences.push_back(0);
    }
  }
  const auto n = static_cast<int64_t>(a.size());
  c.reached_a = WilsonInterval(reached_a, n, confidence);
  c.reached_b = WilsonInterval(reached_b, n, confidence);
  c.mcnemar_p = McNemarExactP(c.a_only, c.b_only);
  c.rank = WilcoxonSignedRank(differences);
  return c;
}

}  // namespace drainsim::experiments
