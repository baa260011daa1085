// The side-by-side of `drainsim live --replications N` (issue 14): which figures are compared,
// how each is measured on the live side and on the simulated side, the N simulated
// replications, and the comparisons (live/comparison.h).
//
// The figures, in report order (docs/METRICS.md defines them, with the same names):
//   published, attempts, human_needed, dlq_end, parked, unfinished, lost, duplicate_executions,
//   db_timeouts (with a database), duplicates_suppressed (with a broker_restart: the claim
//   kinds' redeliveries a claim row stopped): counts, tolerance 0;
//   main_queue_settled_s: the last settle (ack, dead-letter, park) of a main-queue message,
//     from the plan's time 0, provided the main queue (ready + delayed + in flight) stayed empty
//     from then to the end. The live run measures it as live.json's time_to_empty_s; the
//     simulation, by a run observer watching the same transitions. It is NOT the simulation's
//     time_to_empty_s, which counts from the first drain's start.
//   replays, time_to_empty_s (with a drain): the drain's replays (a count) and the simulation's
//     time_to_empty_s against the live drain's planned start -> last settle (a wall time);
//   live_errors, live_p50_ms, live_p99_ms (with database.live_traffic): the live traffic's
//     errors (a count) and latency quantiles over the queries completed by the run's last
//     settle (live/live_traffic.h), tolerance latency_tolerance_ms; without live traffic the two
//     quantiles are rows "not compared".
//   time_to_empty_s without a drain: a row "not compared" with the reason.
//
// Contract:
//  (1) Replication i runs with experiments::ReplicationSeed(seed, i): the seeds of `drainsim run
//      SCENARIO --seed SEED --replications N`, so any replication can be rerun alone. Values are
//      stored by index: the simulated side is identical for every `jobs`.
//  (2) Nothing of the live run reaches the simulated side: RunSimulatedSide sees the scenario
//      and seeds only.
//  (3) A replication that broke a model invariant is never compared with: RunSimulatedSide
//      throws experiments::ModelErrorInRun for the lowest such index.
//  (4) main_queue[r][k] is the replication's last sampled row at or before k * sample_every_s,
//      where sample_every_s is the scenario's run.sample_every_s, or a whole multiple of it that
//      keeps the grid within 10,000 steps.
//
// Thread-safety: call from one thread; RunSimulatedSide starts its own (`jobs`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "live/comparison.h"
#include "live/harness.h"
#include "live/where_time_went.h"
#include "sim/config/config.h"
#include "sim/model/results.h"

namespace drainsim::live {

struct SimulatedSide {
  uint64_t base_seed = 0;
  int64_t replications = 0;
  std::vector<std::string> names;                          // the compared figures, in order
  std::vector<std::vector<std::optional<double>>> values;  // [figure][replication]
  // The main queue (ready + delayed + in flight) at every instant k * sample_every_s, per
  // replication, up to the latest end of any replication; a replication that ended earlier
  // keeps its end state. For the HTML chart's band (contract (4)).
  double sample_every_s = 0;
  std::vector<std::vector<double>> main_queue;  // [replication][sample]
  // The model's queue wait (ready -> delivery, every delivery) per replication, p50 and p99 in
  // ms, empty optional when nothing was delivered: what the live publish -> first delivery is
  // set beside (live/where_time_went.h), not a compared figure.
  std::vector<std::optional<double>> queue_wait_p50_ms, queue_wait_p99_ms;
};

// The queue wait's p50 and p99, means over the replications that delivered anything.
SimulatedWait SimulatedWaitOf(const SimulatedSide& side);

// The figures compared for `scenario` (the names of SimulatedSide::names).
std::vector<std::string> ComparedFigures(const config::Scenario& scenario);

// The simulation's main_queue_settled_s for a finished run: `last_settle_s` is the instant of
// the run's last transition out of ready / delayed / in flight into any other state (null if
// none); it counts iff nothing was ready, delayed or in flight at the end.
std::optional<double> SimulatedSettled(const model::Results& results,
                                       std::optional<double> last_settle_s);

// REQUIRES: replications >= 1, 1 <= jobs <= experiments::kJobsMax
SimulatedSide RunSimulatedSide(const config::Scenario& scenario, uint64_t base_seed,
                               int64_t replications, int jobs);

struct SideBySideOptions {
  double time_tolerance_s = 0.1;  // widens the interval of wall-time figures (README, METRICS)
  // Widens the interval of the live traffic's latencies: pg_sleep waits in whole milliseconds
  // (it rounds each wait up) plus a loopback round trip; fixed beforehand (docs/METRICS.md).
  double latency_tolerance_ms = 1.0;
  double level = 0.95;
};

// One row per figure of ComparedFigures, then the rows not compared.
std::vector<Comparison> CompareSides(const config::Scenario& scenario, const LiveResult& live,
                                     const SimulatedSide& simulated,
                                     const SideBySideOptions& options);

}  // namespace drainsim::live
