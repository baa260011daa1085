// The drain plans' state during one run (issue 15 step 3: a component of World): when each plan
// starts, which dead letters it selects, the entries it has listed and not replayed yet, its pace
// (token bucket, the drainer's own time per replay, the adaptive rate), and the figures that
// judge it. World coordinates: it schedules the ticks and adjustments these say are due, sorts the
// DLQ into a starting plan's list, replays the messages and keeps their records; the plans hold
// the state those decisions need and nothing else: no events, no messages, no observers.
//
// Drains run one at a time, in order of their index among those due; each message is replayed at
// most once per drain.
// Invariants:
//  (1) At most one plan is active; an active plan has started and not ended.
//  (2) listed_count(d) is the number of current entries of d's list: List adds one, Unlist and
//      TakeListed take one off; stale entries (DropListed) were already taken off by Unlist.
//  (3) Selected reads bits resolved once in the constructor: no name compares per message.
//  (4) The drainer draws from Rng::ForStream(seed, kStreamDrainer, d) and nothing else does.
//  (5) replays_in_pipeline() counts replayed messages not yet terminal or dead-lettered again:
//      ReplayEntered adds one, ReplayLeft takes one off, never below zero.
//
// Thread-safety: one run's state; not shared.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "sim/base/check.h"
#include "sim/config/drains.h"
#include "sim/config/faults.h"
#include "sim/engine/rng.h"
#include "sim/engine/time.h"
#include "sim/model/durations.h"
#include "sim/model/histogram.h"
#include "sim/model/message.h"
#include "sim/model/results.h"
#include "sim/model/token_bucket.h"

namespace drainsim::model {

inline constexpr uint64_t kStreamDrainer = engine::StreamId("drainer");

// What the database has done since the run began, for a drain's baseline and its utilisation.
struct DatabaseTotals {
  double busy_connection_s = 0;
  double capacity_connection_s = 0;
  int64_t timeouts = 0;
};

class DrainPlans {
 public:
  // `kind_names[k]`: the name of kind index k. `redrive_rate_max_per_s`: the broker's cap on a
  // drain's pace (Broker::redrive_rate_max_per_s). REQUIRES: `drains` and `faults` are a loaded
  // scenario's (config/drains.h's invariants hold); `drains` outlives the plans.
  DrainPlans(const std::vector<config::Drain>& drains, const std::vector<config::Fault>& faults,
             const std::vector<std::string>& kind_names,
             std::optional<double> redrive_rate_max_per_s, uint64_t seed);

  uint32_t size() const { return static_cast<uint32_t>(plans_.size()); }
  // When plan d is due to start: start_at, or start_after_fix after the latest bug fix.
  engine::Instant start_at(uint32_t d) const { return plans_[d].start_at; }

  // Whether plan d replays `m` (its DLQ reason, last error class and kind), invariant (3).
  bool Selected(uint32_t d, const Message& m) const {
    const Plan& plan = plans_[d];
    return (plan.reasons >> static_cast<int>(m.dlq_reason) & 1) != 0 &&
           (plan.errors >> static_cast<int>(m.last_error) & 1) != 0 && plan.kinds[m.kind_index];
  }

  // ---- starting and ending ---------------------------------------------------------------
  void MarkDue(uint32_t d) { plans_[d].due = true; }
  // The first plan that is due and has not started, when none is active.
  std::optional<uint32_t> NextToStart() const;
  // Plan d becomes the active one at `now`: its pace is set up (an adaptive plan starts at its
  // minimum rate, and its latency and timeout counts start afresh from `db`). REQUIRES: d is due,
  // not started, and no plan is active. `db`: nullopt without a database.
  void Start(uint32_t d, engine::Instant now, const std::optional<DatabaseTotals>& db);
  // Plan d ends: false if it had ended already. The active plan ending leaves none active.
  bool End(uint32_t d);
  bool started(uint32_t d) const { return plans_[d].started; }
  bool ended(uint32_t d) const { return plans_[d].ended; }
  bool IsActive(uint32_t d) const { return active_ == static_cast<int32_t>(d); }
  bool any_active() const { return active_ >= 0; }
  // The active plan's index, or -1.
  int32_t active() const { return active_; }
  const std::optional<engine::Instant>& first_start() const { return first_start_; }

  // ---- the list of what a plan replays ---------------------------------------------------
  // Adds `entry` to plan d's list (invariant (2)).
  void List(uint32_t d, const DlqEntry& entry) {
    plans_[d].listed.push_back(entry);
    ++plans_[d].listed_count;
  }
  // A message plan d listed left the DLQ (expired, parked) or was listed by another plan.
  void Unlist(uint32_t d) {
    --plans_[d].listed_count;
    DRAINSIM_CHECK(plans_[d].listed_count >= 0);
  }
  // The oldest entry plan d has not replayed or dropped yet; nullptr when there is none.
  const DlqEntry* NextListed(uint32_t d) const {
    return plans_[d].listed.empty() ? nullptr : &plans_[d].listed.front();
  }
  // Drops the oldest entry: stale, already taken off by Unlist.
  void DropListed(uint32_t d) { plans_[d].listed.pop_front(); }
  int64_t listed_count(uint32_t d) const { return plans_[d].listed_count; }
  bool LimitReached(uint32_t d) const;

  // ---- pace ------------------------------------------------------------------------------
  // Whether plan d may replay one more message at `now`: nullopt if it may (a token taken), else
  // the instant to try again (the drainer is still on its last replay, or the bucket is empty).
  std::optional<engine::Instant> Pace(uint32_t d, engine::Instant now);
  // The oldest listed entry is replayed at `now` (after Pace said yes): off the list, counted,
  // and the drainer busy for its replay time.
  DlqEntry TakeListed(uint32_t d, engine::Instant now);
  bool tick_scheduled(uint32_t d) const { return plans_[d].tick_scheduled; }
  void set_tick_scheduled(uint32_t d, bool scheduled) { plans_[d].tick_scheduled = scheduled; }

  // ---- the adaptive rate -----------------------------------------------------------------
  // A database query answered after `latency_us` (wait + service): the adaptive plan's signal.
  void RecordDbLatency(int64_t latency_us) { db_latency_us_.Record(latency_us); }
  // AIMD at one adjustment of adaptive plan d: up by increase_per_s x adjust_every when no query
  // timed out (`db_timeouts` is the database's total so far) and the p99 latency since the last
  // adjustment is within the target, else times decrease_factor; within [rate_min, rate_max].
  // Returns when the next adjustment is due, after `now`. REQUIRES: d is adaptive and active.
  engine::Duration Adjust(uint32_t d, engine::Instant now, int64_t db_timeouts);
  double rate_per_s(uint32_t d) const { return plans_[d].rate_per_s; }

  // ---- settling --------------------------------------------------------------------------
  void ReplayEntered() { ++replays_in_pipeline_; }
  void ReplayLeft() {
    --replays_in_pipeline_;
    DRAINSIM_CHECK(replays_in_pipeline_ >= 0);
  }
  int64_t replays_in_pipeline() const { return replays_in_pipeline_; }
  // The active plan has nothing left to replay and its replays have settled: it is done.
  bool ActiveSettled() const {
    return active_ >= 0 && plans_[static_cast<size_t>(active_)].listed_count == 0 &&
           replays_in_pipeline_ == 0;
  }
  // Every plan has started, none has anything left to replay, and every replay has settled.
  bool AllSettled() const;

  // ---- figures ---------------------------------------------------------------------------
  // After each event, with the main queue's length (ready + delayed + in flight): the first
  // time each started plan sees the main queue empty after holding a message.
  void NoteMainQueue(int64_t main_queue, engine::Instant now) {
    if (uncleared_ == 0) return;  // every event passes here: skip the plans' loop
    NoteMainQueueInPlans(main_queue, now);
  }
  // Plan d's figures at `now`: replayed, left, achieved rate, last replay, backlog cleared, and
  // the database's utilisation since it started (`db`: the totals now; nullopt: no database).
  void FillResults(uint32_t d, engine::Instant now, const std::optional<DatabaseTotals>& db,
                   DrainResults& out) const;

 private:
  struct Plan {
    const config::Drain* spec = nullptr;
    engine::Instant start_at;
    // The selection, resolved once: bit r of `reasons` is set iff DLQ reason r is selected, bit
    // e of `errors` iff error class e is; `kinds` by kind index. Every bit set where the plan
    // lists nothing.
    uint32_t reasons = 0;
    uint32_t errors = 0;
    std::vector<bool> kinds;
    bool due = false;  // its start time has come
    bool started = false;
    bool ended = false;
    bool tick_scheduled = false;
    engine::Instant started_at;
    std::deque<DlqEntry> listed;  // oldest first; stale entries are dropped on the way
    int64_t listed_count = 0;     // current entries of `listed`
    int64_t replayed = 0;
    engine::Instant last_replay_at;     // meaningful iff replayed > 0
    std::optional<TokenBucket> bucket;  // null: all at once
    // Drain::replay_ms: the drainer is busy until busy_until after each replay.
    std::optional<DurationSampler> replay_time;
    engine::Rng replay_rng = engine::Rng::Unseeded();
    engine::Instant busy_until;
    double rate_per_s = 0;  // adaptive: the current rate
    double db_busy_at_start = 0;
    double db_capacity_at_start = 0;
    bool main_held = false;  // the main queue held a message since it started
    std::optional<engine::Instant> backlog_cleared_at;
  };

  void SetUpPace(Plan& plan, uint32_t d, engine::Instant now,
                 const std::optional<DatabaseTotals>& db);
  void NoteMainQueueInPlans(int64_t main_queue, engine::Instant now);

  std::vector<Plan> plans_;
  const std::optional<double> redrive_rate_max_per_s_;
  const uint64_t seed_;
  int32_t active_ = -1;
  std::optional<engine::Instant> first_start_;
  int64_t replays_in_pipeline_ = 0;  // invariant (5)
  int32_t uncleared_ = 0;            // started plans without a backlog_cleared_at yet
  Histogram db_latency_us_{5};       // database latency since the last adaptive adjustment
  int64_t db_timeouts_at_adjust_ = 0;
};

}  // namespace drainsim::model
