// What a run produced: the figures docs/METRICS.md defines, per kind
// where it matters, and the sampled time series. Reports read this and nothing else.
//
// Units are in the names; instants are seconds from the start of the run. Optional figures
// are unset when undefined (a queue that never emptied has no time_to_empty_s).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/enums.h"
#include "sim/model/histogram.h"
#include "sim/model/message_state.h"

namespace drainsim::model {

// Causes of duplicate executions, in report order.
enum class DuplicateCause : uint8_t {
  kLostAck,
  kCrashAfterCommit,
  kVisibilityTimeout,
  kRedrive,
  kOther,
  kRebalance,  // its Kafka consumer overran max.poll.interval.ms; the partition's next owner ran it
  kOrderingKey,  // a Pub/Sub ordering key: an earlier message of its key came back, so it did too
};
inline constexpr int kDuplicateCauseCount = 7;
const char* DuplicateCauseName(DuplicateCause cause);

struct KindResults {
  int64_t published = 0;
  int64_t acked = 0;
  int64_t attempts = 0;
  int64_t duplicate_executions = 0;
  int64_t duplicates_suppressed = 0;
  int64_t visible_duplicates = 0;
  Histogram message_latency_us;  // first publish -> final ack
};

// One row of the time series, taken every run.sample_every from 0, and one more at the instant
// the run ended (unless it ended on a sampling instant): the last row is the end state.
// Partitions whose lag the series shows one by one (more would make a CSV no one reads; the
// largest lag of all is its own column).
inline constexpr size_t kPartitionLagColumns = 32;

struct Sample {
  double t_s = 0;
  int64_t depth = 0;          // ready in the main queue
  int64_t delayed_depth = 0;  // waiting for a retry
  int64_t dlq_depth = 0;
  int64_t parked = 0;
  int64_t in_flight = 0;
  // Delivered and not settled (broker.ack_pending_max counts these); written to the reports
  // only when the scenario sets ack_pending_max (reports/metrics.h).
  int64_t ack_pending = 0;
  double oldest_age_s = 0;  // oldest message in the pipeline (ready, delayed, in flight)
  double dlq_inflow_per_s = 0;
  double dlq_outflow_per_s = 0;
  int64_t workers_busy = 0;   // worker slots running an attempt
  double db_utilisation = 0;  // over the interval
  int64_t db_queue = 0;       // queries waiting at the sample instant
  double live_p50_ms = 0;     // live queries completed in the interval (0 if none)
  double live_p99_ms = 0;
  double live_errors_per_s = 0;
  // Attempts started in the interval: a message's first execution ever, and every other one
  // (retries, redeliveries, replays): the retry storm's shape over time.
  double first_attempts_per_s = 0;
  double retry_attempts_per_s = 0;
  double downstream_calls_per_s = 0;  // calls to the downstream API made in the interval
  double downstream_429s_per_s = 0;   // of those, answered 429 by its rate limit
  // The inspector: DLQ depth by reason (config::DlqReason order) and by error class
  // (config::ErrorClass order) at the sample instant.
  std::array<int64_t, config::kDlqReasonCount> dlq_by_reason{};
  std::array<int64_t, 4> dlq_by_error{};
  bool drain_active = false;
  double drain_rate_per_s = 0;  // replays in the interval / interval
  bool fault_active = false;
  // With workers.autoscale: the workers able to receive (started, not removed; crashed ones
  // included). Written to the reports only with autoscale (reports/metrics.h), after
  // workers_busy.
  int64_t workers = 0;
  // broker.partitions only (empty and 0 otherwise): the lag of the first kPartitionLagColumns
  // partitions and the largest lag of any partition (group_tallies.h), at the sample instant.
  std::vector<int64_t> partition_lag{};
  int64_t partition_lag_max = 0;
};

// One drain plan's run.
struct DrainResults {
  std::optional<double> started_at_s;  // null: never started (an earlier drain never ended)
  std::optional<double> ended_at_s;    // null: still active when the run stopped
  int64_t replayed = 0;
  int64_t parked = 0;    // unselected DLQ messages parked when it started ("others": park)
  int64_t refilled = 0;  // its replays that were dead-lettered again
  int64_t left = 0;      // selected messages it had not replayed when it ended (its limit)
  // Live queries completed while it was active, at the same precision as the run's figures
  // (Results::live_latency_during_drains_us): with one drain both hold the same queries and
  // must print the same quantiles.
  Histogram live_latency_us;
  double db_utilisation = 0;               // while it was active
  double achieved_rate_per_s = 0;          // replayed / active time (replaying and settling)
  std::optional<double> last_replay_at_s;  // null: it replayed nothing
  // Seconds from its start to the first instant the main queue (ready + delayed + in flight)
  // was empty again, having held a message since the start: the catch-up time. Null: the
  // main queue never held one after the start, or never emptied again before the end.
  std::optional<double> backlog_cleared_s;
};

// Attempts started while one fault window was open (docs/METRICS.md, retry_amplification).
struct FaultWindowAttempts {
  uint32_t fault = 0;  // index in the scenario's faults
  std::string type;    // the fault's type name, e.g. "db_slowdown"
  double from_s = 0;
  double until_s = 0;  // as the scenario gives it; may lie past the run's end
  int64_t attempts = 0;
  int64_t first_attempts = 0;  // a message's first execution ever
};

// Dead-letter metadata of one DLQ message, as the inspector samples it at the end.
struct DlqSample {
  uint64_t id = 0;
  std::string kind;
  std::string key;
  std::string reason;
  std::string error;
  int64_t attempts = 0;  // in its last life
  int64_t failures = 0;  // over all lives
  int64_t replays = 0;
  int64_t dead_letters = 0;  // times dead-lettered over all lives (x-death's count)
  std::string first_reason;  // the first dead-lettering's reason (x-first-death-reason)
  double published_at_s = 0;
  double first_failure_at_s = 0;
  double dead_lettered_at_s = 0;
};

// An invariant of the model that a run broke without stopping: a drainsim bug, never the
// scenario's, and the run's figures are not to be trusted. `drainsim run` exits 3 on one, the
// experiments refuse to average over it, the swarm counts it a correctness failure.
struct ModelError {
  // "quiet_end": the run ended because nothing was left to happen, before run.until_s, with
  // messages not at rest (ready, delayed or in flight): nothing would ever move them again.
  std::string invariant;
  int64_t ready = 0;
  int64_t delayed = 0;
  int64_t in_flight = 0;
  std::string detail;  // one line: what is stuck, when, and the workers' and breaker's state
};

struct Results {
  std::string scenario_name;
  uint64_t seed = 0;
  uint64_t fingerprint = 0;  // hash over the processed event sequence
  int64_t events = 0;
  double ended_at_s = 0;
  bool reached_until = false;       // false: ended early, nothing left to happen
  bool events_max_reached = false;  // stopped by run.events_max: the figures are partial
  // The scenario sets broker.ack_pending_max: the series' ack_pending column is written.
  bool ack_pending_limited = false;

  int64_t published = 0;
  int64_t acked = 0;
  int64_t parked = 0;
  int64_t expired = 0;            // all expiries: DLQ retention, DLQ cap, main-queue retention
  int64_t dlq_trimmed = 0;        // of which: the oldest of a full DLQ (broker.dlq_max_length)
  int64_t retention_expired = 0;  // of which: main-queue retention (broker.retention_s)
  int64_t dlq_duplicates = 0;     // second copies of best-effort dead-lettering (published too)
  int64_t rejected = 0;  // publishes refused by a full queue (broker.overflow reject_publish)
  int64_t dlq_end = 0;
  // Discarded by the broker by design, by BrokerLossCause (message_state.h). Conservation:
  // published = acked + parked + expired + dlq_end + rejected + broker_lost + not_terminal_end.
  int64_t broker_lost = 0;
  std::array<int64_t, kBrokerLossCauseCount> broker_lost_by_cause{};
  int64_t lost = 0;  // the simulator's own check: messages in no state, always 0
  // Ready, delayed, in flight or waiting for DLQ room when the run stopped.
  int64_t not_terminal_end = 0;
  // Of not_terminal_end: dead letters the DLQ refused, kept by at-least-once dead-lettering
  // (MessageState::kDeadLetterWaiting). At rest: only room in the DLQ moves them.
  int64_t dead_letter_waiting_end = 0;
  std::optional<ModelError> model_error;  // set iff the run broke a model invariant

  // broker.message_groups (0: none, and the two below are not reported). ordering_violations:
  // acks of a message after a later-published message of its group was acked; group_hold_max_s:
  // the longest one message kept its group from delivering others, counting holds still going
  // on at the end (group_tallies.h).
  int64_t message_groups = 0;
  // broker.partitions (0: none): a topic's partitions are groups owned by one consumer each, and
  // the two figures above and below are theirs.
  int64_t partitions = 0;
  int64_t rebalances = 0;  // with partitions: the group's rebalances (broker.session_timeout)
  int64_t ordering_violations = 0;
  double group_hold_max_s = 0;
  // workers.lambda_esm (false: none, and the three below are not reported). throttles: receives
  // whose invocation was throttled (every execution environment busy): each counted toward
  // maxReceiveCount without the message being processed. dead_lettered_unprocessed: messages
  // dead-lettered that never ran (every receive of theirs throttled). esm_pollers_end: the
  // pollers at the end of the run.
  bool lambda_esm = false;
  int64_t throttles = 0;
  int64_t dead_lettered_unprocessed = 0;
  int64_t esm_pollers_end = 0;
  // workers.autoscale (false: none, and the figures below are not reported; docs/METRICS.md,
  // "autoscale"). scale_ups, scale_downs: decisions that changed the workers wanted. workers_max:
  // the most workers with a pod at once (starting, receiving or draining). workers_end: the
  // workers wanted at the end. worker_s: the pods' time, from the decision that added each to
  // the end of its grace period or of the run (start-up and draining included). returned:
  // prefetched copies removed workers gave back. kills: attempts still running when a removed
  // worker's grace period ended, killed as by a crash.
  bool autoscale = false;
  int64_t autoscale_scale_ups = 0;
  int64_t autoscale_scale_downs = 0;
  int64_t autoscale_workers_max = 0;
  int64_t autoscale_workers_end = 0;
  double autoscale_worker_s = 0;
  int64_t autoscale_returned = 0;
  int64_t autoscale_kills = 0;

  int64_t attempts = 0;
  // Attempts that were a message's first execution ever (not a retry, redelivery or replay):
  // retry_amplification = attempts / first_attempts (Brooker: N retries cost up to 1 + N times
  // the work). Null iff first_attempts == 0.
  int64_t first_attempts = 0;
  std::optional<double> retry_amplification;
  std::vector<FaultWindowAttempts> fault_windows;  // one per fault with a window, in order
  // The instants of worker crashes drawn at random (worker_crash with rate_per_h), so that the
  // charts mark every strike; the first kStrikesKept of them (memory stays bounded), and how
  // many there were in all. Crashes at a fixed at_s are in the scenario already.
  static constexpr size_t kStrikesKept = 1000;
  std::vector<double> crash_strikes_s;
  int64_t crash_strikes = 0;
  int64_t successes = 0;
  std::array<int64_t, 4> failures_by_class{};  // config::ErrorClass order
  std::array<int64_t, kDuplicateCauseCount> duplicates_by_cause{};
  int64_t duplicate_executions = 0;
  int64_t duplicates_suppressed = 0;
  int64_t visible_duplicates = 0;
  std::map<std::string, int64_t> human_needed_by_reason;  // parked + left in the DLQ
  int64_t human_needed = 0;
  int64_t refilled = 0;
  int64_t replays = 0;
  int64_t dlq_inflow = 0;
  int64_t dlq_outflow = 0;
  double wasted_worker_s = 0;
  int64_t breaker_openings = 0;
  int64_t downstream_calls = 0;
  int64_t downstream_429s = 0;
  // Calls made before the instant a 429's Retry-After named (skewed clocks cause them).
  int64_t calls_before_retry_after = 0;

  Histogram message_latency_us;
  Histogram queue_wait_us;
  // Time averages over [0, ended_at]: messages ready (waiting in the main queue), and ready
  // plus in flight (in the system, as queueing theory counts it when prefetch is 1).
  double ready_mean = 0;
  double in_system_mean = 0;
  std::map<std::string, KindResults> kinds;

  double oldest_age_max_s = 0;
  // Which alerts the scenario configured: an alert that is off never fires, and reports leave
  // it out rather than print "never".
  bool age_alert_on = false;
  bool depth_alert_on = false;
  bool dlq_depth_alert_on = false;
  std::optional<double> age_alert_first_s;
  std::optional<double> depth_alert_first_s;
  std::optional<double> dlq_depth_alert_first_s;
  std::optional<double> time_to_empty_s;
  std::optional<double> time_to_quiet_s;
  // The first instant the main queue (ready + delayed + in flight) was empty after it had held
  // a message: the catch-up time from the run's start. Null: it never emptied (or never held
  // a message).
  std::optional<double> backlog_cleared_s;

  bool has_database = false;
  double db_utilisation = 0;
  int64_t db_queue_max = 0;
  int64_t db_timeouts = 0;
  int64_t db_refusals = 0;
  bool has_live_traffic = false;
  Histogram live_latency_us;
  Histogram live_latency_during_drains_us;
  int64_t live_queries = 0;
  int64_t live_errors = 0;

  std::vector<DrainResults> drains;
  // The inspector at the end: DLQ messages by "reason/error" and by kind, and the metadata of
  // the oldest few (at most 20), without draining anything.
  std::map<std::string, int64_t> dlq_by_reason_error;
  std::map<std::string, int64_t> dlq_by_kind;
  std::vector<DlqSample> dlq_sample;
  Histogram live_latency_before_drains_us;

  std::vector<Sample> series;
};

}  // namespace drainsim::model
