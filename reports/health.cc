#include "reports/health.h"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string_view>

#include "reports/metrics.h"

namespace drainsim::reports {

namespace {

bool Covered(const std::vector<Verdict>& verdicts, std::initializer_list<std::string_view> names) {
  return std::any_of(verdicts.begin(), verdicts.end(), [&](const Verdict& v) {
    return std::find(names.begin(), names.end(), v.metric) != names.end();
  });
}

struct Stretch {
  double from_s = 0;
  double until_s = 0;
  double length_s() const { return until_s - from_s; }
};

// The longest run of consecutive samples whose interval had the database at least
// kSaturatedUtilisation busy; a sample's utilisation covers the interval since the previous
// sample (or since 0).
std::optional<Stretch> LongestSaturation(const std::vector<model::Sample>& series) {
  std::optional<Stretch> best;
  std::optional<Stretch> current;
  double previous_s = 0;
  for (const model::Sample& s : series) {
    if (s.db_utilisation >= kSaturatedUtilisation) {
      if (!current) current = Stretch{previous_s, s.t_s};
      current->until_s = s.t_s;
      if (!best || current->length_s() > best->length_s()) best = current;
    } else {
      current.reset();
    }
    previous_s = s.t_s;
  }
  return best;
}

std::string Minutes(double seconds) { return Decimal(seconds / 60, 1) + " min"; }

}  // namespace

std::vector<Finding> HealthFindings(const model::Results& r, const std::vector<Verdict>& verdicts) {
  std::vector<Finding> out;
  if (r.has_database &&
      !Covered(verdicts, {"db_utilisation", "db_queue", "db_queue_max", "db_timeouts"})) {
    const std::optional<Stretch> s = LongestSaturation(r.series);
    if (s && s->length_s() >= kSaturatedForS) {
      out.push_back({"db_saturated", "database saturated (at least 99% busy) for " +
                                         Minutes(s->length_s()) + " (" + Decimal(s->from_s, 1) +
                                         "-" + Decimal(s->until_s, 1) + " s)"});
    }
  }
  if (r.has_live_traffic && r.live_errors > 0 &&
      !Covered(verdicts, {"live_errors", "live_errors_per_s", "live_p50_ms", "live_p99_ms"})) {
    out.push_back({"live_errors", std::to_string(r.live_errors) + " of " +
                                      std::to_string(r.live_queries) +
                                      " live queries failed (timed out or refused)"});
  }
  if (r.human_needed > 0 && !Covered(verdicts, {"human_needed", "parked", "dlq_depth"})) {
    out.push_back({"human_needed", std::to_string(r.human_needed) +
                                       " messages need a human (parked or left in the DLQ)"});
  }
  if (r.refilled > 0 && !Covered(verdicts, {"refilled", "dlq_inflow", "dlq_inflow_per_s"})) {
    out.push_back({"dlq_refilled", std::to_string(r.refilled) +
                                       " replayed messages were dead-lettered again (the DLQ "
                                       "refilled)"});
  }
  if (r.retry_amplification && *r.retry_amplification > kAmplificationMax &&
      !Covered(verdicts,
               {"attempts", "attempts_per_success", "retry_amplification", "wasted_worker_s"})) {
    out.push_back({"retry_amplification",
                   "retries multiplied the work: " + Decimal(*r.retry_amplification, 3) +
                       " attempts per first attempt (" + std::to_string(r.attempts) + " over " +
                       std::to_string(r.first_attempts) + ")"});
  }
  return out;
}

std::string FindingsLine(const std::vector<Finding>& findings) {
  if (findings.empty()) return "";
  std::string out = "not covered by any expectation: ";
  for (size_t i = 0; i < findings.size(); ++i) {
    if (i > 0) out += "; ";
    out += findings[i].text;
  }
  return out;
}

}  // namespace drainsim::reports
