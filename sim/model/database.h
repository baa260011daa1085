// The database: a pool of connections in front of a FIFO wait queue, shared by the workers'
// queries and the live (non-queue) traffic.
//
// Semantics (docs/MODEL.md, "Database"):
//  - Service time = base draw x slowdown factor x (1 + overload_factor x waiting/connections),
//    `waiting` taken when the query starts service: an overloaded database does less useful
//    work per second, not the same work later.
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
#include <optional>
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
  // REQUIRES: connections >= 1, timeout > 0, overload_factor >= 0.
  Database(Scheduler& scheduler, int64_t connections, Duration timeout, double overload_factor);

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
  void StartWaiting();
  void Account();  // integrates busy and capacity time up to Now()
  std::optional<uint32_t> DeadlineWake();

  Scheduler& scheduler_;
  int64_t capacity_;
  const Duration timeout_;
  const double overload_factor_;
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
  std::vector<Query> queries_;
  std::vector<uint32_t> free_;
  int64_t timeouts_ = 0;
  int64_t refusals_ = 0;
  Instant accounted_until_;
  double busy_us_ = 0;
  double capacity_us_ = 0;
};

}  // namespace drainsim::model
