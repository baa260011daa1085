#include "experiments/compare_censored.h"

#include <charconv>
#include <limits>
#include <vector>

#include "reports/metrics.h"
#include "sim/base/check.h"

namespace drainsim::experiments {

namespace {

using nlohmann::json;

// `value` with `digits` significant digits, shortest form, locale-independent.
std::string Significant(double value, int digits) {
  char buffer[32];
  const auto [end, error] =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, digits);
  DRAINSIM_CHECK(error == std::errc());
  return std::string(buffer, end);
}

std::string PercentText(double share) { return reports::Decimal(share * 100, 1) + "%"; }

json ProportionJson(const Proportion& p) {
  return json{{"runs", p.n},
              {"reached", p.k},
              {"share", reports::Fixed(p.share)},
              {"ci_low", reports::Fixed(p.low)},
              {"ci_high", reports::Fixed(p.high)}};
}

}  // namespace

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

std::string PValueText(double p) { return Significant(p, 3); }

double PValueJson(double p) {
  const std::string text = Significant(p, 6);
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  DRAINSIM_CHECK(error == std::errc());
  return value;
}

json CensoredJson(const CensoredComparison& c) {
  return json{{"reached_a", ProportionJson(c.reached_a)},
              {"reached_b", ProportionJson(c.reached_b)},
              {"pairs_reached_in_a_only", c.a_only},
              {"pairs_reached_in_b_only", c.b_only},
              {"mcnemar_exact_p", PValueJson(c.mcnemar_p)},
              {"signed_rank",
               {{"nonzero", c.rank.nonzero},
                {"zeros", c.rank.zeros},
                {"w_plus", c.rank.w_plus},
                {"w_minus", c.rank.w_minus},
                {"p", PValueJson(c.rank.p)},
                {"method", c.rank.exact ? "exact" : "normal approximation"}}}};
}

std::vector<std::string> CensoredHeader(double confidence) {
  const std::string wilson = reports::Decimal(confidence * 100, 4) + "% Wilson CI";
  return {"reached A", wilson + " A", "reached B", wilson + " B",
          "A only",    "B only",      "McNemar p", "signed-rank p"};
}

std::vector<std::string> CensoredCells(const CensoredComparison& c) {
  auto reached = [](const Proportion& p) {
    return std::to_string(p.k) + " of " + std::to_string(p.n);
  };
  auto interval = [](const Proportion& p) {
    std::string text = "[";
    text += PercentText(p.low) + ", " + PercentText(p.high) + "]";
    return text;
  };
  return {reached(c.reached_a),    interval(c.reached_a),    reached(c.reached_b),
          interval(c.reached_b),   std::to_string(c.a_only), std::to_string(c.b_only),
          PValueText(c.mcnemar_p), PValueText(c.rank.p)};
}

}  // namespace drainsim::experiments
