#include "reports/recovery.h"

#include <algorithm>

#include "reports/metrics.h"

namespace drainsim::reports {

namespace {

constexpr double kWorkSlack = 10;
constexpr double kAgeSlackS = 1;
constexpr double kLiveSlackMs = 10;

double Work(const model::Sample& s) {
  return static_cast<double>(s.depth + s.delayed_depth + s.in_flight);
}

double Limit(double baseline, double slack) { return std::max(2 * baseline, baseline + slack); }

bool Back(const model::Sample& s, const Recovery& b, bool live) {
  if (Work(s) > Limit(b.baseline_work, kWorkSlack)) return false;
  if (s.oldest_age_s > Limit(b.baseline_age_s, kAgeSlackS)) return false;
  return !live || s.live_p99_ms <= Limit(b.baseline_live_p99_ms, kLiveSlackMs);
}

}  // namespace

Recovery RecoveryOf(const model::Results& r) {
  Recovery out;
  if (r.fault_windows.empty()) {
    out.why = "no fault window";
    return out;
  }
  double first_start_s = r.fault_windows.front().from_s;
  for (const model::FaultWindowAttempts& w : r.fault_windows) {
    first_start_s = std::min(first_start_s, w.from_s);
    out.last_window_end_s = std::max(out.last_window_end_s, w.until_s);
  }
  if (out.last_window_end_s >= r.ended_at_s) {
    out.why = "a fault window was still open when the run ended";
    return out;
  }
  bool any = false;
  for (const model::Sample& s : r.series) {
    if (s.t_s <= 0 || s.t_s > first_start_s) continue;
    any = true;
    out.baseline_work = std::max(out.baseline_work, Work(s));
    out.baseline_age_s = std::max(out.baseline_age_s, s.oldest_age_s);
    out.baseline_live_p99_ms = std::max(out.baseline_live_p99_ms, s.live_p99_ms);
  }
  if (!any) {
    out.why = "no sample before the first fault window: no baseline";
    return out;
  }
  // The last sample from which every later one is back: scan from the end.
  std::optional<double> back_from_s;
  for (auto it = r.series.rbegin(); it != r.series.rend(); ++it) {
    if (it->t_s < out.last_window_end_s || !Back(*it, out, r.has_live_traffic)) break;
    back_from_s = it->t_s;
  }
  if (back_from_s) out.time_to_recover_s = *back_from_s - out.last_window_end_s;
  // Back at all, however slowly, is not metastable: the system healed itself once the trigger
  // was gone. Slow recoveries are common under a retry budget (metastable-budget.json takes
  // 20 s to 1520 s over seeds 1..20); time_to_recover_s says how slow.
  if (out.time_to_recover_s) {
    out.metastable = false;
  } else if (r.ended_at_s - out.last_window_end_s >= kHorizonS) {
    out.metastable = true;
  } else {
    out.why = "the run ended less than 300 s after the last fault window";
  }
  if (!out.time_to_recover_s && out.why.empty()) out.why = "not back by the end of the run";
  return out;
}

std::string RecoveryText(const Recovery& recovery, const model::Results& r) {
  if (!recovery.time_to_recover_s && !recovery.metastable) return "not judged: " + recovery.why;
  std::string text;
  if (recovery.time_to_recover_s) {
    text = "back " + Decimal(*recovery.time_to_recover_s, 1) + " s after the last fault window";
  } else {
    text = "not back by the end";
  }
  if (recovery.metastable && *recovery.metastable) {
    const model::Sample& last = r.series.back();
    text = "metastable: " + text + " (work " + Decimal(Work(last), 0) + ", baseline " +
           Decimal(recovery.baseline_work, 0) + "; oldest age " + Decimal(last.oldest_age_s, 1) +
           " s, baseline " + Decimal(recovery.baseline_age_s, 1) + " s)";
  }
  return text;
}

}  // namespace drainsim::reports
