// What message groups did to order and to waiting (broker.message_groups; docs/METRICS.md):
//  - an ordering violation: a message acked after a message of its group published later was
//    acked (a replay, a delay or a timed-out copy let a later one overtake it);
//  - a hold: the time one message kept its group from delivering others, from the delivery that
//    made it the group's head until it stopped being in flight or back at the group's front
//    (acked, dead-lettered, parked, expired, delayed, lost). A poison message under SQS holds its
//    group for maxReceiveCount x the visibility timeout;
//  - a partition's lag (broker.partitions only, Track(true)): its messages not yet at rest, i.e.
//    ready, delayed, in flight (a processed record whose offset is not committed included) or
//    waiting for DLQ room; Kafka's consumer lag in records (log-end offset minus committed
//    offset) when offsets are committed per record.
//
// Thread-safety: one run's state; not shared.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/base/check.h"
#include "sim/engine/time.h"

namespace drainsim::model {

class GroupTallies {
 public:
  explicit GroupTallies(int64_t groups)
      : acked_after_(static_cast<size_t>(groups), 0), holds_(static_cast<size_t>(groups)) {}

  void Acked(uint32_t group, uint64_t id) {
    uint64_t& latest = acked_after_[group];  // 1 + the latest id acked; 0: none yet
    if (id + 1 < latest) {
      ++ordering_violations_;
    } else {
      latest = id + 1;
    }
  }
  // A delivery: a new hold unless this message holds its group already.
  void Delivered(uint32_t group, uint64_t id, engine::Instant now) {
    Hold& h = holds_[group];
    if (h.holding && h.holder == id) return;
    h = Hold{id, now, true};
  }
  // The message left the group's head (see above): its hold, if it had one, ends.
  void LeftHead(uint32_t group, uint64_t id, engine::Instant now) {
    Hold& h = holds_[group];
    if (!h.holding || h.holder != id) return;
    h.holding = false;
    Note(now - h.since);
  }

  // Lag bookkeeping, on only for partitions: a message of `group` entered or left the states
  // that count (see above).
  void Track(bool on) { lag_.assign(on ? acked_after_.size() : 0, 0); }
  bool tracking() const { return !lag_.empty(); }
  void Entered(uint32_t group) { ++lag_[group]; }
  void Left(uint32_t group) {
    DRAINSIM_CHECK(lag_[group] > 0);
    --lag_[group];
  }
  const std::vector<int64_t>& lag() const { return lag_; }

  int64_t ordering_violations() const { return ordering_violations_; }
  // The longest hold, counting the ones still going on at `now`.
  engine::Duration HoldMaxAt(engine::Instant now) const {
    engine::Duration longest = hold_max_;
    for (const Hold& h : holds_) {
      if (h.holding && now - h.since > longest) longest = now - h.since;
    }
    return longest;
  }

 private:
  struct Hold {
    uint64_t holder = 0;  // the message's id
    engine::Instant since;
    bool holding = false;
  };
  void Note(engine::Duration held) {
    if (held > hold_max_) hold_max_ = held;
  }

  std::vector<uint64_t> acked_after_;
  std::vector<Hold> holds_;
  std::vector<int64_t> lag_;  // per group; empty unless tracking
  int64_t ordering_violations_ = 0;
  engine::Duration hold_max_;
};

}  // namespace drainsim::model
