// Live traffic for real (issue 14): a load generator issuing the scenario's live queries
// (`database.live_traffic`) against the run's PostgreSQL, its latencies recorded.
//
// What the model does (sim/model/world_metrics.cc LiveQuery / RecordLive, sim/model/database.h)
// and what this does, decision by decision:
//  - Arrivals: Poisson at rate_per_s from the plan's time 0, each with a service time drawn from
//    query_ms, on the stream (seed, "live", 0) in the model's order (the query's draw, then the
//    gap to the next): the live run issues the very queries of the simulation of the same seed.
//    No arrival at or after run.until_s.
//  - The pool: the model has ONE database, a FIFO of database.connections shared by the
//    workers' queries and the live ones; so a live query takes a connection from the workers'
//    pool (live/pg_pool.h), not one of its own; PgPool serves its waiters first come, first
//    served, as the model's queue.
//  - The query is `SELECT pg_sleep(d)`: d held in the server on that connection, as the
//    handler's db_op_ms (live/handler.cc).
//  - The statement timeout bounds wait + service (the model's): a query that waited a
//    millisecond or more for a connection runs with statement_timeout = timeout_ms less the
//    whole milliseconds waited (a SET before, the pool's value restored after:
//    LoweredTimeoutMs); a query still without a connection at arrival + timeout_ms is a
//    timeout.
//  - Latency: from the query's PLANNED arrival instant to its completion, so that a query the
//    generator issued late, or that waited for a connection, shows the wait, as the model's
//    (enqueue to completion). A timed-out query counts at its measured time (about timeout_ms).
//  - Errors: timeouts (cancelled by statement_timeout, or no connection in time) and refusals
//    (any other failure: a db_outage, a dead connection), as the model's live_errors.
//
// Contract:
//  (1) LiveArrivals is deterministic: the same (traffic, seed) gives the same arrivals.
//  (2) Bounded: at most kLiveOutstandingMax queries waiting to be issued at once; an arrival
//      beyond it is shed (counted as a refusal, no latency; the model never sheds). The
//      executors are min(4 x database.connections, kLiveExecutorsMax) threads: a live backlog up
//      to that waits at the pool beside the workers' queries (as in the model's one queue);
//      beyond it, for an executor (the issue lag).
//  (3) RunLiveTraffic returns once `stop` is set (or until_s passed) and every query issued has
//      completed; each query completes within its timeout plus one round trip.
//  (4) SummariseLiveTraffic keeps the queries completed at or before `end_s` (the run's last
//      settle: the simulation stops there, and its later live queries never complete).
//
// Thread-safety: RunLiveTraffic starts and joins its own threads; the rest is pure.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "live/pg_pool.h"
#include "sim/config/config.h"
#include "sim/engine/rng.h"
#include "sim/model/durations.h"

namespace drainsim::live {

inline constexpr size_t kLiveOutstandingMax = 10'000;
inline constexpr int kLiveExecutorsMax = 64;
// Refused above this rate (live/plan.cc): every query's latency is kept in memory, and one
// client on this machine's 2 cores issues at most a few thousand pg round trips per second.
inline constexpr double kLiveRateMaxPerS = 2'000;

struct LiveArrival {
  int64_t at_us = 0;     // from the plan's time 0
  int64_t query_us = 0;  // the pg_sleep
  bool operator==(const LiveArrival&) const = default;
};

// The model's arrivals (contract (1)).
class LiveArrivals {
 public:
  LiveArrivals(const config::LiveTraffic& traffic, uint64_t seed);
  // The next arrival; nullopt once the next would be at or after `until_us`.
  std::optional<LiveArrival> Next(int64_t until_us);

 private:
  double rate_per_s_;
  model::DurationSampler query_;
  engine::Rng rng_;
  int64_t next_us_ = 0;
  bool ended_ = false;
};

// The statement timeout of a query that waited `waited_us` from its planned arrival to a pool
// connection: nullopt while the wait is under a millisecond (the pool's timeout_ms stands, and
// the query pays no SET round trip), else timeout_ms less the whole milliseconds waited (<= 0:
// already timed out). The bound is thus exact to within a millisecond.
std::optional<int64_t> LoweredTimeoutMs(int64_t timeout_ms, int64_t waited_us);

enum class LiveOutcome : uint8_t { kOk, kTimeout, kRefused, kShed };

struct LiveQuery {
  int64_t arrival_us = 0;  // planned
  int64_t done_us = 0;     // measured completion, from the plan's time 0
  LiveOutcome outcome = LiveOutcome::kOk;
  // Where its time went: an executor took it (issued), it had a connection (acquired; done_us
  // when it never had one), and the pg_sleep it asked for.
  int64_t issued_us = 0, acquired_us = 0, query_us = 0;
};

struct LiveTrafficRun {
  std::vector<LiveQuery> queries;  // in completion order
  int64_t late_issues = 0;         // issued more than 10 ms after the planned arrival
};

// REQUIRES: pool != nullptr; scenario.database->live_traffic
LiveTrafficRun RunLiveTraffic(const config::Scenario& scenario, uint64_t seed, PgPool* pool,
                              std::chrono::steady_clock::time_point start,
                              const std::atomic<bool>& stop);

struct LiveTrafficFigures {
  bool present = false;                                      // the scenario has live traffic
  int64_t issued = 0;                                        // every arrival of the run
  int64_t queries = 0;                                       // completed at or before end_s
  int64_t errors = 0, timeouts = 0, refusals = 0, shed = 0;  // of those
  std::optional<double> p50_ms, p99_ms, max_ms;              // of those
  std::optional<double> end_s;                               // the window's end
  int64_t late_issues = 0;
  // Where the latency went, over the same queries (p50 / p99 in ms): planned arrival -> an
  // executor took it; -> a pool connection; and the rest of the query beyond its drawn sleep
  // (round trip, pg_sleep's rounding up, wake-ups; completed queries only).
  std::optional<double> issue_lag_p50_ms, issue_lag_p99_ms;
  std::optional<double> pool_wait_p50_ms, pool_wait_p99_ms;
  std::optional<double> overhead_p50_ms, overhead_p99_ms;
};

LiveTrafficFigures SummariseLiveTraffic(const LiveTrafficRun& run, std::optional<double> end_s);

}  // namespace drainsim::live
