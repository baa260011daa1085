// The database: a pool of connections in front of a FIFO wait queue, shared by the workers'
// queries and the live (non-queue) traffic.
//
// Semantics (docs/MODEL.md, "Database"):
//  - A query's work = base draw x slowdown factor x (1 + overload_factor x waiting/connections),
//    `waiting` taken when the query starts service: an overloaded database does less useful
//    work per second, not the same work later.
//  - Without `cores` a running query does its work at full speed: service time = work. With
//    `cores` K the running queries share K CPUs (processor sharing): each progresses at
//    min(1, K / running), re-rated whenever a query starts or ends, which is how a CPU-bound
//    server behaves (docs/LIVE.md measured it). Among the running queries the least remaining
//    work finishes first; equal ones in the order they started.
//  - The statement timeout bounds wait + service. A query still queued at its deadline leaves
//    the queue; one whose service would run past it holds its connection until the deadline.
//    Either way the caller learns of the timeout exactly at enqueue + timeout.
//  - During an outage queries are refused at once.
//
// Invariants:
//  (1) busy() <= capacity at every service start; a shrunk pool lets running queries finish.
//  (2) Each submitted query completes exactly once (ok, timeout or refused), reported by
//      HandleEvent for the event that ends it; a stale event returns nothing.
//  (3) Queries start service in submission order (FIFO).
//
// Thread-safety: none; owned by one run.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <queue>
#include <vector>

#include "sim/engine/time.h"
#include "sim/engine/timer_fifo.h"
#include "sim/model/events.h"

namespace drainsim::model {

using engine::Duration;
using engine::Instant;

enum class QueryOutcome : uint8_t { kOk, kTimeout, kRefused };

struct QueryCompletion {
  uint64_t owner = 0;  // the caller's token, as given to Submit
  QueryOutcome outcome = QueryOutcome::kOk;
  Duration latency;  // wait + service, or until the timeout / refusal
};

class Database {
 public:
  // REQUIRES: connections >= 1, timeout > 0, overload_factor >= 0, cores (if any) > 0.
  Database(Scheduler& scheduler, int64_t connections, Duration timeout, double overload_factor,
           std::optional<double> cores = std::nullopt);

  // Queues a query needing `service_base` of connection time (before slowdown and overload).
  // Its completion arrives through HandleEvent.
  void Submit(uint64_t owner, Duration service_base);

  // Handles kDbServiceEnd / kDbDeadline; returns the completion it causes, if any.
  std::optional<QueryCompletion> HandleEvent(const Event& event);

  // Fault controls. Each applies from Now() on.
  void SetSlowdown(double factor) { slowdown_ = factor; }
  void SetOutage(bool down) { outage_ = down; }
  void SetCapacity(int64_t connections);

  int64_t capacity() const { return capacity_; }
  int64_t busy() const { return busy_; }
  int64_t waiting() const { return waiting_; }
  // Connection-seconds spent serving, up to Now(): utilisation = busy time / capacity time.
  double busy_connection_seconds() const;
  double capacity_connection_seconds() const;
  int64_t timeouts() const { return timeouts_; }
  int64_t refusals() const { return refusals_; }

 private:
  struct Query {
    uint64_t owner = 0;
    Duration service_base;
    Instant submitted_at;
    uint32_t generation = 0;
    bool queued = false;
    bool running = false;
  };
  uint32_t NewQuery();
  void FreeQuery(uint32_t slot);
  // Starts waiting queries while connections are free; true if any started (under processor
  // sharing the caller then reschedules the earliest end, once for the instant).
  bool StartWaiting();
  // Schedules the end of a query that has started: at once without cores, or by processor
  // sharing (its work joins the shared CPUs; the next completion is rescheduled).
  void ScheduleEnd(uint32_t slot, double work_us);
  // Processor sharing (cores_ set): brings the shared virtual time up to Now() at the rate of
  // the running count before a change; reschedules the earliest completion after one.
  void AdvanceShared();
  void RescheduleShared();
  // The query at the top of shared_tags_ ends: the shared time is brought to its tag.
  void FinishShared(uint32_t slot);
  void Account();  // integrates busy and capacity time up to Now()
  std::optional<uint32_t> DeadlineWake();

  Scheduler& scheduler_;
  int64_t capacity_;
  const Duration timeout_;
  const double overload_factor_;
  const std::optional<double> cores_;
  double slowdown_ = 1.0;
  bool outage_ = false;
  int64_t busy_ = 0;
  int64_t waiting_ = 0;
  struct Waiting {
    uint32_t slot;
    uint32_t generation;
  };
  std::deque<Waiting> queue_;  // may hold queries that left at their deadline (lazy removal)
  // Every query's statement timeout (submission + timeout_), behind one kDbDeadline event;
  // stale once the query completed.
  struct Deadline {
    Instant at;
    uint32_t slot;
    uint32_t generation;
  };
  engine::TimerFifo<Deadline> deadlines_;
  // Processor sharing: every running query has received the same CPU time since it started,
  // `shared_us_` µs of it since the first; a query finishes when that reaches its tag (its
  // start's shared_us_ + its work). The tags of running queries, least first (stale ones,
  // of queries that timed out, are skipped when they surface); one kDbServiceEnd event stands
  // for the least, tagged with `shared_epoch_` so that a rescheduled one is stale.
  struct SharedTag {
    double finish_us;
    uint64_t started;  // start order: ties finish in it
    uint32_t slot;
    uint32_t generation;
    bool operator>(const SharedTag& o) const {
      return finish_us != o.finish_us ? finish_us > o.finish_us : started > o.started;
    }
  };
  std::priority_queue<SharedTag, std::vector<SharedTag>, std::greater<>> shared_tags_;
  double shared_us_ = 0;
  Instant shared_at_;
  uint64_t shared_starts_ = 0;
  uint32_t shared_epoch_ = 0;
  std::vector<Query> queries_;
  std::vector<uint32_t> free_;
  int64_t timeouts_ = 0;
  int64_t refusals_ = 0;
  Instant accounted_until_;
  double busy_us_ = 0;
  double capacity_us_ = 0;
};

}  // namespace drainsim::model
