// The faults' state during one run (issue 15 step 3: a component of World): which fault windows
// are open, which messages and attempts the per-message and per-attempt faults fate, and what the
// database's settings are under the open windows. World schedules the faults' events, calls
// SetActive at each window edge and applies what the schedule says; the schedule holds the state
// those decisions need and nothing else: no events, no results, no observers.
//
// Invariants:
//  (1) active(f) iff fault f's window opened and has not closed since (SetActive's last call).
//  (2) Every fate draws from Rng::ForStream(seed, kStreamFates + f, .), named by the message (a
//      publish fate) or by (message, execution) (an attempt's fate): one fault's draws never
//      shift another's, and a message's fate does not depend on other messages.
//  (3) A poison fault with `count` and a synthetic_failures fault fate at most `count`
//      messages each, the first eligible ones.
//
// Thread-safety: one run's state; not shared.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/config/faults.h"
#include "sim/engine/rng.h"
#include "sim/engine/time.h"
#include "sim/model/message.h"

namespace drainsim::model {

inline constexpr uint64_t kStreamFates = engine::StreamId("fates");

class FaultSchedule {
 public:
  static constexpr int64_t kAnyKind = -1;

  // `kind_by_fault[f]`: the index of the kind fault f is limited to, or kAnyKind.
  // REQUIRES: kind_by_fault.size() == faults.size(); `faults` outlives the schedule.
  FaultSchedule(const std::vector<config::Fault>& faults, std::vector<int64_t> kind_by_fault,
                uint64_t seed);

  // Poison and bug fates, decided once when `m` is published at `now`.
  void AssignPublishFates(Message& m, engine::Instant now);

  // The error a fault injects into the attempt `m` is starting at `now` (its execution count
  // already bumped), with how long the attempt runs before it fails and which fault it was;
  // nullopt when none does. Synthetic failures pick their messages here (invariant (3)).
  struct Injection {
    config::ErrorClass error;
    engine::Duration fail_after;
    uint16_t fault_index;
  };
  std::optional<Injection> InjectedFailure(Message& m, engine::Instant now);

  // Whether an ack_loss fault eats the ack of `m`'s current execution.
  bool AckLost(const Message& m) const;

  void SetActive(uint32_t fault, bool open);
  bool active(uint32_t fault) const { return active_[fault]; }
  bool any_active() const { return active_count_ > 0; }
  // Open downstream_outage windows: every call answers 503 while there is one.
  bool downstream_outage() const { return downstream_outages_ > 0; }

  // The database under the open windows: slowdown factors multiply, any outage is an outage,
  // the latest-listed open db_connections sets the pool (else `connections`).
  struct DatabaseSettings {
    double slowdown = 1.0;
    bool outage = false;
    int64_t connections = 0;
  };
  DatabaseSettings Database(int64_t connections) const;

 private:
  const std::vector<config::Fault>& faults_;
  const std::vector<int64_t> kind_by_fault_;
  std::vector<engine::Rng::Family> streams_;  // ForStream(seed, kStreamFates + f, .)
  std::vector<bool> active_;
  int64_t active_count_ = 0;
  int64_t downstream_outages_ = 0;
  std::vector<int64_t> count_left_;  // poison / synthetic "count" still to assign
};

}  // namespace drainsim::model
