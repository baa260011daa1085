// The live traffic's figures (live/live_traffic.h) as drainsim live prints them and as live.json
// and report.json's `live` section write them (`live_traffic`):
//   {issued, queries, errors, timeouts, refusals, shed, p50_ms, p99_ms, max_ms, window_end_s,
//    late_issues, where_latency_went {issue_lag_p50_ms, issue_lag_p99_ms, pool_wait_p50_ms,
//    pool_wait_p99_ms, overhead_p50_ms, overhead_p99_ms}}
// `queries` and what follows count the queries completed by `window_end_s` (the run's last
// settle; null when the run never settled: then every query); `issued` counts every arrival.
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "live/live_traffic.h"
#include "sim/model/results.h"

namespace drainsim::live {

nlohmann::json LiveTrafficJson(const LiveTrafficFigures& figures);

// "issue lag p50 0.1 ms, p99 3.4 ms; pool wait ...; beyond the drawn sleep ..." (report.md's
// closing note for a latency outside its interval).
std::string WhereLatencyWentText(const LiveTrafficFigures& figures);

// One line, "live traffic: ...", beside the simulation of the same seed. Nothing without it.
void PrintLiveTraffic(std::FILE* out, const LiveTrafficFigures& figures,
                      const model::Results& simulated);

}  // namespace drainsim::live
