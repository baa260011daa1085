#include "reports/censored_report.h"

#include <charconv>

#include "reports/metrics.h"
#include "sim/base/check.h"

namespace drainsim::reports {

using experiments::CensoredComparison;
using experiments::Proportion;

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

std::string PercentText(double share) { return Decimal(share * 100, 1) + "%"; }

json ProportionJson(const Proportion& p) {
  return json{{"runs", p.n},
              {"reached", p.k},
              {"share", Fixed(p.share)},
              {"ci_low", Fixed(p.low)},
              {"ci_high", Fixed(p.high)}};
}

}  // namespace

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
  const std::string wilson = Decimal(confidence * 100, 4) + "% Wilson CI";
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

}  // namespace drainsim::reports
