// What the side-by-side of `drainsim live --replications N` prints and writes: the table on
// stdout, report.json (sections `live`, `simulated`, `comparison`) and report.md with a closing
// note that gives, for every figure outside, the measured gap.
//
// report.json (sorted keys):
//   report_version, kind "live side-by-side", scenario {name, path}, seed, run_id,
//   method {interval "prediction", level, formula, exact, time_tolerance_s},
//   live {FIGURE: value or null, ..., broker_version, postgres_version, started_at_utc,
//         where_time_went {last_publish_lag_s, publish_lag_max_s, first_delivery_p50_ms,
//                          first_delivery_p99_ms, first_delivery_max_ms, delivered, and when the
//                          simulation delivered anything simulated_queue_wait_p50_ms and _p99_ms}
//                          (null when live-events.jsonl was unread)},
//   simulated {replications, base_seed, seeds, figures {FIGURE: statistics + values}},
//   comparison [{metric, unit, live, simulated_mean, simulated_sd, simulated_min, simulated_max,
//                interval_low, interval_high, tolerance, exact, verdict, gap, note}],
//   verdict ("agree" | "disagree"), exit_code
//
// Contract:
//  (1) Pure functions of their arguments; numbers rounded as report.json rounds them.
//  (2) `gap` is how far the live value lies beyond the interval widened by the tolerance (live
//      minus the nearer bound; positive above, negative below); null unless outside with both
//      sides defined.
//  (3) When main_queue_settled_s is outside, the closing note says where the live time went
//      (live/where_time_went.h): the model's missing delays, measured.
#pragma once

#include <string>
#include <vector>

#include "live/comparison.h"
#include "live/harness.h"
#include "live/side_by_side.h"
#include "live/where_time_went.h"

namespace drainsim::live {

struct SideBySideRun {
  std::string scenario_name;
  std::string scenario_path;
  uint64_t seed = 0;
  std::string started_at_utc;
  const LiveResult* live = nullptr;          // not owned
  const SimulatedSide* simulated = nullptr;  // not owned
  SideBySideOptions options;
  std::vector<Comparison> rows;
  WhereTimeWent where;  // from live-events.jsonl (ok false: not read)
  int exit_code = 0;    // of the comparison alone: 0 agree, 1 disagree
};

// The gap of contract (2).
std::optional<double> Gap(const Comparison& c);

std::string SideBySideText(const SideBySideRun& run);
std::string SideBySideJson(const SideBySideRun& run);
std::string SideBySideMarkdown(const SideBySideRun& run);

}  // namespace drainsim::live
