#include "live/live_traffic_report.h"

#include <string>

#include "reports/metrics.h"

namespace drainsim::live {

namespace {

nlohmann::json Real(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json();
}

std::string Ms(const std::optional<double>& value) {
  if (!value) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.3f ms", *value);
  return text;
}

}  // namespace

nlohmann::json LiveTrafficJson(const LiveTrafficFigures& f) {
  return {{"issued", f.issued},
          {"queries", f.queries},
          {"errors", f.errors},
          {"timeouts", f.timeouts},
          {"refusals", f.refusals},
          {"shed", f.shed},
          {"p50_ms", Real(f.p50_ms)},
          {"p99_ms", Real(f.p99_ms)},
          {"max_ms", Real(f.max_ms)},
          {"window_end_s", Real(f.end_s)},
          {"late_issues", f.late_issues},
          {"where_latency_went",
           {{"issue_lag_p50_ms", Real(f.issue_lag_p50_ms)},
            {"issue_lag_p99_ms", Real(f.issue_lag_p99_ms)},
            {"pool_wait_p50_ms", Real(f.pool_wait_p50_ms)},
            {"pool_wait_p99_ms", Real(f.pool_wait_p99_ms)},
            {"overhead_p50_ms", Real(f.overhead_p50_ms)},
            {"overhead_p99_ms", Real(f.overhead_p99_ms)}}}};
}

std::string WhereLatencyWentText(const LiveTrafficFigures& f) {
  return "issue lag (planned arrival -> an executor) p50 " + Ms(f.issue_lag_p50_ms) + ", p99 " +
         Ms(f.issue_lag_p99_ms) + "; wait for a pool connection p50 " + Ms(f.pool_wait_p50_ms) +
         ", p99 " + Ms(f.pool_wait_p99_ms) +
         "; the query beyond its drawn sleep (round trip, pg_sleep's whole milliseconds) p50 " +
         Ms(f.overhead_p50_ms) + ", p99 " + Ms(f.overhead_p99_ms);
}

void PrintLiveTraffic(std::FILE* out, const LiveTrafficFigures& f,
                      const model::Results& simulated) {
  if (!f.present) return;
  std::fprintf(out,
               "live traffic: %lld queries by the last settle (%lld issued), p50 %s, p99 %s, "
               "max %s, %lld errors (%lld timeouts, %lld refused, %lld shed)\n",
               static_cast<long long>(f.queries), static_cast<long long>(f.issued),
               Ms(f.p50_ms).c_str(), Ms(f.p99_ms).c_str(), Ms(f.max_ms).c_str(),
               static_cast<long long>(f.errors), static_cast<long long>(f.timeouts),
               static_cast<long long>(f.refusals), static_cast<long long>(f.shed));
  std::fprintf(out,
               "  where it went (p50 / p99): issue lag %s / %s, pool wait %s / %s, beyond the "
               "drawn sleep %s / %s\n",
               Ms(f.issue_lag_p50_ms).c_str(), Ms(f.issue_lag_p99_ms).c_str(),
               Ms(f.pool_wait_p50_ms).c_str(), Ms(f.pool_wait_p99_ms).c_str(),
               Ms(f.overhead_p50_ms).c_str(), Ms(f.overhead_p99_ms).c_str());
  const model::Histogram& h = simulated.live_latency_us;
  std::fprintf(out,
               "simulated live traffic (same seed, one run): %lld queries, p50 %s, p99 %s, "
               "%lld errors\n",
               static_cast<long long>(simulated.live_queries),
               Ms(reports::HistogramStat(h, reports::Stat::kP50, 1e3)).c_str(),
               Ms(reports::HistogramStat(h, reports::Stat::kP99, 1e3)).c_str(),
               static_cast<long long>(simulated.live_errors));
}

}  // namespace drainsim::live
