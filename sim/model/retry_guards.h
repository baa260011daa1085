// The retry policy's guards (issue 15 step 3: components of World): the retry budget and the
// circuit breaker, each with its own state. They decide; World acts on what they decide
// (schedules the half-open event, counts openings, restarts consumption).
//
// RetryBudget (Finagle's RetryBudget): within the sliding `window`, retries may number at most
// `ratio` x successes + `burst`.
// Invariants:
//  (1) Without a budget in the scenario, Allow is always true and nothing is kept.
//  (2) Only retries and successes inside the window ending now count; older ones are dropped.
//
// CircuitBreaker: closed -> open when, within the sliding `window`, at least `attempts_min`
// outcomes were recorded and failures are at least `error_rate_open` of them; open -> half-open
// after `open` (World's kBreakerHalfOpen event); half-open lets `half_open_probes` deliveries
// through: that many successes close it, a failure opens it again.
// Invariants:
//  (3) Without a breaker in the scenario, the state stays kClosed and nothing is kept.
//  (4) probes() holds only deliveries of the current half-open period; it is empty otherwise.
//  (5) Outcomes recorded while open (stale copies finishing) change nothing.
//
// Thread-safety: one run's state; not shared.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "sim/config/retry.h"
#include "sim/engine/time.h"
#include "sim/model/message.h"

namespace drainsim::model {

class RetryBudget {
 public:
  explicit RetryBudget(const std::optional<config::RetryBudget>& spec) : spec_(spec) {}

  // Whether one more retry fits the budget at `now`; if it does, it is counted.
  bool Allow(engine::Instant now);
  void RecordSuccess(engine::Instant now) {
    if (spec_) successes_.push_back(now);
  }

 private:
  std::optional<config::RetryBudget> spec_;
  std::deque<engine::Instant> retries_;
  std::deque<engine::Instant> successes_;
};

class CircuitBreaker {
 public:
  enum class State : uint8_t { kClosed, kOpen, kHalfOpen };
  // What an outcome changed, for World to act on.
  enum class Change : uint8_t {
    kNone,
    kOpened,    // closed -> open: one more opening; half-open is due after `open`
    kReopened,  // half-open -> open on a probe's failure: half-open is due after `open` again
    kClosed,    // half-open -> closed: consumption resumes
  };

  explicit CircuitBreaker(const std::optional<config::CircuitBreaker>& spec) : spec_(spec) {}

  Change RecordOutcome(engine::Instant now, bool success);
  // The open period ended: true iff the breaker was open and is now half-open.
  bool HalfOpen();
  // Whether the broker may hand out one more delivery now.
  bool AllowsDelivery() const;
  // A delivery handed out while half-open is a probe: it uses a permit.
  void NoteDelivery(const Delivery& delivery);
  // A probe vanished without an outcome (its worker crashed, its channel closed): its permit
  // comes back. True iff `delivery` was a probe of the current half-open period.
  bool ProbeVanished(const Delivery& delivery);

  State state() const { return state_; }
  int64_t probes_left() const { return probes_left_; }

 private:
  struct Outcome {
    engine::Instant at;
    bool success;
  };
  std::optional<config::CircuitBreaker> spec_;
  State state_ = State::kClosed;
  std::deque<Outcome> outcomes_;
  int64_t failures_ = 0;
  int64_t probes_left_ = 0;
  int64_t probe_successes_ = 0;
  // The deliveries the current half-open period let through as probes, until they vanish
  // without an outcome; at most half_open_probes plus the permits given back, and searched only
  // while half-open.
  std::vector<Delivery> probes_;
};

}  // namespace drainsim::model
