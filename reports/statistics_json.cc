#include "reports/statistics_json.h"

#include "reports/metrics.h"
#include "reports/table.h"

namespace drainsim::reports {

using experiments::Statistics;
using nlohmann::json;

json StatisticsJson(const Statistics& s) {
  auto number = [](bool defined, double value) {
    return defined ? json(Fixed(value)) : json(nullptr);
  };
  const bool any = s.count > 0;
  const bool interval = s.has_interval();
  return json{{"runs", s.runs},
              {"undefined", s.undefined},
              {"mean", number(any, s.mean)},
              {"sd", number(interval, s.sd)},
              {"half_width", number(interval, s.half_width)},
              {"ci_low", number(interval, s.ci_low)},
              {"ci_high", number(interval, s.ci_high)},
              {"p50", number(any, s.p50)},
              {"p95", number(any, s.p95)},
              {"min", number(any, s.min)},
              {"max", number(any, s.max)}};
}

std::string IntervalText(const Statistics& s) {
  if (!s.has_interval()) return "-";
  return "[" + Number(s.ci_low) + ", " + Number(s.ci_high) + "]";
}

std::string SignedNumber(double value) { return (value > 0 ? "+" : "") + Number(value); }

std::string MeanText(const Statistics& s, const std::string& of, bool is_signed) {
  if (s.count == 0) return "- (0 of " + std::to_string(s.runs) + of + ")";
  std::string text = is_signed ? SignedNumber(s.mean) : Number(s.mean);
  if (s.undefined > 0) {
    text += " over " + std::to_string(s.count) + " of " + std::to_string(s.runs) + of;
  }
  return text;
}

std::string DifferenceText(const Statistics& d) {
  if (d.count == 0) return "-";
  std::string text = MeanText(d, " pairs", true);
  if (d.has_interval()) {
    text += " [" + SignedNumber(d.ci_low) + ", " + SignedNumber(d.ci_high) + "]";
  }
  return text;
}

}  // namespace drainsim::reports
