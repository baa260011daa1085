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

}  // namespace drainsim::reports
