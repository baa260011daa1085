// What the threads of one live run share: the scenario and plan (read-only), the topology's
// names, the event log, the database pool, and per-message counters.
//
// Invariants:
//  (1) deliveries[id] counts the deliveries of message `id` the workers received (the harness's
//      own count, so attempts are counted the same on classic and quorum queues).
//  (2) in_flight = deliveries received - deliveries settled (acked, rejected, nacked, parked);
//      the run is empty when it is 0 and the main queue has no ready message.
//  (3) acked[id] is set once its ack was sent after a commit (or a claim row that showed the
//      work already done).
//  (4) successes[id] counts the message's commits and claim suppressions (live/fault_plan.h
//      pins crashes between commit and ack and lost acks to them); a delivery whose ack was
//      withheld (a lost ack) stays in in_flight until its channel is gone.
//  (5) executions[id] counts the handler runs of message `id` (its attempts over all lives, as
//      the model's execution number: live/attempt_fates.h pins errors faults to it).
//  (6) worker_down[w] is set while worker w is crashed: its running handlers roll back instead
//      of committing (the process died, its transactions with it).
//  (7) copy_seen[id] is the largest CopyKey (live/worker.h) of a republished copy of message
//      `id` received; a copy received again with a key no larger, not as a redelivery, is a
//      duplicate copy (at-least-once dead-lettering, or a republish sent again): counted in
//      duplicate_copies, acked, not run and not counted in deliveries[id].
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "live/event_log.h"
#include "live/pg_pool.h"
#include "live/plan.h"
#include "sim/config/config.h"

namespace drainsim::live {

struct Topology {
  std::string run_id;  // drainsim_live_PID_HEX: lower case, a valid SQL identifier too
  std::string main_queue, dlq, parking_queue, dlx;
  // republish: the delay queues by delay level in ms (live/retry_plan.h); empty otherwise.
  std::map<int64_t, std::string> delay_queues;
  bool quorum = false;
  std::optional<int64_t> delivery_limit;
};

struct RunState {
  RunState(const config::Scenario& s, const Plan& p, const Topology& t, EventLog* l,
           const std::string& url)
      : scenario(s),
        plan(p),
        topology(t),
        log(l),
        amqp_url(url),
        deliveries(p.messages.size()),
        acked(p.messages.size()),
        successes(p.messages.size()),
        executions(p.messages.size()),
        copy_seen(p.messages.size()),
        worker_down(static_cast<size_t>(s.workers.count)) {}

  const config::Scenario& scenario;
  const Plan& plan;
  const Topology& topology;
  EventLog* log;
  std::string amqp_url;
  PgPool* pool = nullptr;  // null: no kind touches the database

  std::vector<std::atomic<int32_t>> deliveries;
  std::vector<std::atomic<bool>> acked;
  std::vector<std::atomic<int32_t>> successes;
  std::vector<std::atomic<int32_t>> executions;
  std::vector<std::atomic<int64_t>> copy_seen;
  std::vector<std::atomic<bool>> worker_down;
  std::atomic<int64_t> in_flight{0};
  // Wall microseconds (EventLog::Now) of the last delivery received or settled: the run is empty
  // only once nothing has moved for a while, so that a delivery still in a client's socket
  // buffer (neither ready nor counted in flight) is not mistaken for an empty queue.
  std::atomic<int64_t> last_activity_us{0};
  void Touch() { last_activity_us = static_cast<int64_t>(log->Now() * 1e6); }
  std::atomic<int64_t> attempts{0};
  std::atomic<int64_t> failures{0};
  std::atomic<int64_t> commits{0};
  std::atomic<int64_t> suppressed{0};
  std::atomic<int64_t> db_timeouts{0};
  // Faults for real (live/fault_plan.h): crashes (any point), crashes between commit and ack,
  // acks withheld, channels the broker closed (consumer timeout), settles dropped because their
  // channel was gone (their work stands: a redelivery runs it again), handlers rolled back by a
  // crash, and the successes of a fated message after its first fated success.
  std::atomic<int64_t> crashes{0}, crash_after_commit{0}, acks_lost{0}, channel_closes{0};
  std::atomic<int64_t> settles_dropped{0}, rolled_back{0};
  std::atomic<int64_t> duplicates_after_fault{0}, suppressed_after_fault{0};
  // Attempts failed by an errors fault and by a bug fault (live/attempt_fates.h).
  std::atomic<int64_t> errors_failed{0}, bug_failed{0};
  std::atomic<int64_t> unknown_deliveries{0};
  std::atomic<int64_t> duplicate_copies{0};  // (7)  // no drainsim id: not ours (never expected)
  // The downstream API (live/downstream_calls.h): the server's port (0: none) and epoch, and the
  // calls made, those answered 429 and 503, and those that got no answer.
  int downstream_port = 0;
  int64_t downstream_epoch_utc_s = 0;
  std::atomic<int64_t> downstream_calls{0}, downstream_429s{0}, downstream_503s{0};
  std::atomic<int64_t> downstream_errors{0};
  // broker_restart (live/broker_restart.h): the clients reconnect when the broker goes away
  // (live/reconnect.h) instead of failing the run; broker_restarting is set while a restart is
  // under way (the run is never found empty then). Connections the clients lost and opened
  // again, and the publishes sent again because their confirm never came (a duplicate copy
  // when the broker had taken the first).
  bool reconnect = false;
  std::atomic<bool> broker_restarting{false};
  std::atomic<int64_t> connections_lost{0}, reconnects{0}, publishes_resent{0};
  // The run-clock instants at which a worker consumed again after losing its connection (a
  // restart's measured recovery, AttachConsumerReconnects); guarded by consumer_reconnect_mu.
  std::mutex consumer_reconnect_mu;
  std::vector<double> consumer_reconnects_s;
  // The workers whose connection a restart closed and that have not consumed again yet, and
  // the latest reconnect (EventLog µs): the run is not found quiet while one is away nor until
  // kQuietUs after the last came back (harness.cc, WaitEmpty), since copies an expired TTL
  // hands back with at-least-once dead-lettering are counted nowhere until the main queue is
  // back and takes them.
  std::atomic<int64_t> consumers_away{0};
  std::atomic<int64_t> consumer_back_us{0};
  std::atomic<double> run_start_s{
      0};  // EventLog time of the plan's instant 0 (the publishing start)
  std::atomic<bool> workers_done{false};  // set by the harness: finish and disconnect
  std::atomic<bool> failed{false};        // a thread hit an operating error
  std::string first_error;                // guarded by error_mu
  std::mutex error_mu;

  void Fail(const std::string& error) {
    std::lock_guard<std::mutex> lock(error_mu);
    if (first_error.empty()) first_error = error;
    failed = true;
  }
};

}  // namespace drainsim::live
