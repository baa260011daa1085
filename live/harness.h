// One live run: declare the run's topology and tables, start the workers, publish the plan,
// run the drain plan (live/drainer.h), wait until the main queue is empty and the drainer idle,
// stop the drainer and the workers, inspect the DLQ and the parking queue,
// check conservation, delete what it declared.
//
// Topology (names carry the run id, so that a shared broker never mixes runs):
//   RUN.main    classic, or quorum (x-queue-type) when broker.delivery_limit is set or the
//               preset is rabbitmq-quorum, with x-delivery-limit = broker.delivery_limit; its
//               dead letters go to the exchange RUN.dlx (x-dead-letter-exchange)
//   RUN.dlx     fanout exchange -> RUN.dlq
//   RUN.parked  the parking queue (retry classes with action park)
//   RUN.delay.<ms>ms  retry.delivery republish only: one delay queue per delay level, whose
//               expired messages go back to RUN.main (live/retry_plan.h)
// RabbitMQ 3.10 quorum queues count every return (reject, nack, a closed channel) towards
// x-delivery-limit and dead-letter a message whose return makes the count exceed the limit: it
// runs limit + 1 times ("Quorum Queues", poison message handling,
// https://www.rabbitmq.com/docs/3.13/quorum-queues#poison-message-handling). 4.3 and later count
// basic.reject only; the run reports the broker's version, and the command refuses a scenario
// whose counting differs from the broker's.
//
// Contract:
//  (1) Conservation: every confirmed publish (the DLQ backlog put there before the start
//      included) ends in exactly one of acked, dead_lettered (found
//      in the DLQ), parked (found in the parking queue), unfinished (still in the main queue,
//      or in a delay queue, when the wait ran out), or it is lost and listed in lost_ids. An id found in two places
//      is listed in double_ids (a broker or harness bug; expected empty).
//  (2) Every loop is bounded: publishing by the plan's length and options.wall_max_s, the wait
//      for the queue to empty by options.settle_max_s, the inspection by the queues' lengths.
//  (3) The run's queues, exchange and tables are deleted at the end, also after an error or a
//      stop, as long as the broker and the database still answer.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "live/broker_restart.h"
#include "live/db_work_report.h"
#include "live/drainer.h"
#include "live/live_traffic.h"
#include "live/plan.h"

namespace drainsim::live {

struct LiveOptions {
  std::string amqp_url;
  std::string postgres_url;   // "" when no kind touches the database
  std::string events_path;    // live-events.jsonl
  double wall_max_s = 600;    // the whole run (publishing + waiting), wall seconds
  double settle_max_s = 120;  // after the last publish: the wait for the main queue to empty
  // The private broker's control (live/broker_restart.h); null with --amqp, where a scenario
  // with broker_restart is refused before the run.
  std::optional<BrokerControl> broker_control;
  // --db-work and the private server's pinned CPUs (live/db_cpu.h; reported in live.json).
  DbWork db_work = DbWork::kSleep;
  std::vector<int> db_cpus;
};

struct LiveResult {
  std::string run_id;
  std::string broker_product, broker_version, postgres_version;
  bool quorum = false;
  std::optional<int64_t> delivery_limit;
  int64_t planned = 0;
  int64_t published = 0;  // confirmed by the broker
  int64_t acked = 0;
  int64_t dead_lettered = 0;  // in the DLQ at the end
  int64_t parked = 0;
  int64_t unfinished = 0;  // still in the main queue
  int64_t lost = 0;
  std::vector<uint64_t> lost_ids;
  std::vector<uint64_t> double_ids;
  std::map<std::string, int64_t> dlq_by_reason;  // x-death reason
  int64_t deliveries = 0, attempts = 0, failures = 0, commits = 0, suppressed = 0;
  // republish: how the delay queues hand their copies back (live/topology.h: "at-least-once"
  // or "at-most-once"; empty without delay queues), and the copies received twice and not run
  // (live/run_state.h (7)).
  std::string delay_dead_letter;
  int64_t duplicate_copies = 0;
  int64_t db_timeouts = 0;          // the workers' and the live traffic's (within its window)
  LiveTrafficFigures live_traffic;  // database.live_traffic (live/live_traffic.h)
  // Faults for real (live/fault_plan.h, run_state.h): crashes of any point, crashes between
  // commit and ack, acks withheld, channels the broker closed, settles dropped with their
  // channel, handlers a crash rolled back, and the fated messages' later commits/suppressions.
  int64_t crashes = 0, crash_after_commit = 0, acks_lost = 0, channel_closes = 0;
  int64_t settles_dropped = 0, rolled_back = 0;
  int64_t duplicates_after_fault = 0, suppressed_after_fault = 0;
  // Attempts failed by an errors fault and by a bug fault (live/attempt_fates.h).
  int64_t errors_failed = 0, bug_failed = 0;
  // broker_restart (live/broker_restart.h): the restarts as they happened, the connections the
  // clients lost and opened again, and the publishes sent again after a lost confirm.
  RestartFigures restart;
  int64_t connections_lost = 0, reconnects = 0, publishes_resent = 0;
  int64_t duplicate_keys = 0, duplicate_executions = 0, executions = 0;
  // The downstream API (live/downstream_calls.h): calls made, answered 429, answered 503, with
  // no answer (never expected); and what the server counted (requests answered 400 included).
  bool has_downstream = false;
  int64_t downstream_calls = 0, downstream_429s = 0, downstream_503s = 0, downstream_errors = 0;
  int64_t downstream_server_400s = 0, downstream_connections = 0;
  int64_t fated = 0;  // messages the plan fated to fail
  int64_t fated_deliveries_min = 0, fated_deliveries_max = 0;
  // Run start -> the last settle before the main queue stayed empty with nothing in flight.
  std::optional<double> time_to_empty_s;
  double last_publish_s = 0;
  double throughput_per_s = 0;  // (acked + dead-lettered + parked) / time_to_empty_s
  // The DLQ backlog put there before the run (included in `published`), and the drain plan.
  int64_t dlq_seeded = 0;
  bool drain_planned = false;
  DrainFigures drain;
  // The drain's start -> the run's last settle (time_to_empty_s): the simulation's
  // time_to_empty_s when the drain's replays are what settles last, as in live-drain.json.
  // Null, as the simulation's, when the drain left selected messages unreplayed (its limit).
  std::optional<double> drain_time_to_empty_s;
  DbWorkFigures db_work;     // --db-work: the statements' measured times (live/db_cpu.h)
  bool interrupted = false;  // Ctrl-C / SIGTERM
  std::string error;         // an operating error (the run is not valid)
};

LiveResult RunLive(const config::Scenario& scenario, const Plan& plan, const LiveOptions& options);

}  // namespace drainsim::live
