// What `drainsim live` prints and writes: the summary on stdout and live.json.
//
// live.json (sorted keys, one object; wall-clock figures live here, in the side-by-side of the
// same directory (side_by_side_report.h), and never in the report.json of `drainsim run`):
//   live_version, scenario {name, path}, seed, run_id, started_at_utc,
//   services {private_rabbitmq, private_postgres, start_s, rabbitmq_ready_s, postgres_ready_s,
//             stop_s},
//   broker {product, version, queue_type, delivery_limit}, postgres_version,
//   planned, published, acked, dead_lettered, parked, unfinished, lost, lost_ids, double_ids,
//   human_needed (dead_lettered + parked), dlq_by_reason, deliveries, attempts, failures,
//   commits, suppressed, db_timeouts, duplicate_keys, duplicate_executions, executions,
//   fated {count, deliveries_min, deliveries_max}, time_to_empty_s, last_publish_s,
//   throughput_per_s, interrupted, error,
//   drain {started, started_at_s, ended_at_s, replayed, parked, left, last_replay_at_s,
//          dlq_seeded, time_to_empty_s} (only with a drain plan),
//   live_traffic {...} (only with database.live_traffic; live/live_traffic_report.h),
//   simulated {published, acked, dlq_end, parked, human_needed, lost, duplicate_executions,
//              replays, time_to_empty_s},
//   injected {live, simulated} (errors and bug faults; live/injected_report.h),
//   checks [{name, live, simulated, passed}]  (the counts that must agree exactly),
//   faults (live/fault_report.h), broker_restart (live/restart_report.h)
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "live/harness.h"
#include "live/plan.h"

namespace drainsim::live {

struct ServiceFigures {
  bool private_rabbitmq = false;
  bool private_postgres = false;
  double start_s = 0;
  double rabbitmq_ready_s = 0;
  double postgres_ready_s = 0;
  double stop_s = 0;
};

struct Check {
  std::string name;
  int64_t live = 0;
  int64_t simulated = 0;
  bool passed() const { return live == simulated; }
};

// The counts the simulation and the broker must agree on exactly for a run that finished.
std::vector<Check> ExactChecks(const LiveResult& live, const Plan& plan);

void PrintSummary(std::FILE* out, const std::string& scenario_name, const LiveResult& live,
                  const Plan& plan, const ServiceFigures& services,
                  const std::vector<Check>& checks);

// The text of live.json (the caller writes it, as one output set).
std::string LiveJson(const std::string& scenario_name, const std::string& scenario_path,
                     const std::string& started_at_utc, const LiveResult& live, const Plan& plan,
                     const ServiceFigures& services, const std::vector<Check>& checks);

}  // namespace drainsim::live
