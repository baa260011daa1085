// What one run measures as it goes (issue 15 step 3: a component of World): the Results being
// built, the time series' rows with the counts of the interval since the last row, the time
// averages, the DLQ inspector's counts by (reason, error class), the tallies behind
// human_needed_by_reason, and the per-kind figures. World notifies it of what happened and fills
// the columns only it can see (the ledger's counts, the oldest message, busy slots); the metrics
// keep the rest and fill Results. Nothing here changes the run.
//
// Invariants:
//  (1) A series row's rates are over the interval since the previous row (none for the first
//      row); the interval counts restart at every row.
//  (2) The inspector's count of each (reason, error class) is the number of dead-lettered
//      messages with that DLQ reason and last error, never below zero: World reports a message's
//      entry to the DLQ and its leaving with the same reason and error.
//  (3) Human-needed tallies are kept by enum index while the run lasts; keys ("parked:transient")
//      are built once, by TakeResults: no JSON words are looked up per message.
//
// Thread-safety: one run's state; not shared.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/base/check.h"
#include "sim/config/enums.h"
#include "sim/config/expect.h"
#include "sim/engine/time.h"
#include "sim/model/drain_plan.h"
#include "sim/model/histogram.h"
#include "sim/model/message.h"
#include "sim/model/results.h"

namespace drainsim::model {

class RunMetrics {
 public:
  // REQUIRES: `alerts` outlives the metrics.
  RunMetrics(const std::string& scenario_name, uint64_t seed, size_t kind_count,
             const config::Alerts& alerts);

  // The figures counted where they happen (World writes the plain tallies itself).
  Results& results() { return results_; }
  const Results& results() const { return results_; }

  // ---- as the run goes: inline, every event passes some of these ---------------------------
  // The ready and in-flight counts held for `held_us` since the last event: the time averages.
  void Hold(int64_t held_us, int64_t ready, int64_t in_flight) {
    const auto held = static_cast<double>(held_us);
    const auto ready_count = static_cast<double>(ready);
    ready_area_us_ += held * ready_count;
    in_system_area_us_ += held * (ready_count + static_cast<double>(in_flight));
  }
  // After each event, with the main queue's length (ready + delayed + in flight) and the DLQ's:
  // when the backlog first cleared, and since when the system has been quiet (both empty).
  void AfterEvent(engine::Instant now, int64_t main_queue, int64_t dead_lettered) {
    if (main_queue > 0) {
      main_held_ = true;
    } else if (main_held_ && !backlog_cleared_at_) {
      backlog_cleared_at_ = now;
    }
    if (main_queue != 0 || dead_lettered != 0) {
      quiet_since_.reset();
    } else if (!quiet_since_) {
      quiet_since_ = now;
    }
  }
  void Published(uint32_t kind) {
    ++results_.published;
    ++kinds_[kind].published;
  }
  // An attempt started: `first` iff it is the message's first execution ever.
  void AttemptStarted(uint32_t kind, bool first) {
    ++results_.attempts;
    results_.first_attempts += first ? 1 : 0;
    ++(first ? interval_.first_attempts : interval_.retry_attempts);
    ++kinds_[kind].attempts;
  }
  // The database's queue seen at `waiting` queries (after a submit): its maximum.
  void DbQueueSeen(int64_t waiting) {
    results_.db_queue_max = std::max(results_.db_queue_max, waiting);
  }
  void DownstreamCalled() {
    ++results_.downstream_calls;
    ++interval_.downstream_calls;
  }
  void DownstreamRateLimited() {  // a 429
    ++results_.downstream_429s;
    ++interval_.downstream_429s;
  }
  void Acked(uint32_t kind, int64_t latency_us) {
    results_.message_latency_us.Record(latency_us);
    KindResults& kind_results = kinds_[kind];
    ++kind_results.acked;
    kind_results.message_latency_us.Record(latency_us);
  }
  // The work ran again for a key that had already committed; `visible` without idempotency.
  void DuplicateExecuted(uint32_t kind, DuplicateCause cause, bool visible);
  void DuplicateSuppressed(uint32_t kind) {  // a claim found the row
    ++results_.duplicates_suppressed;
    ++kinds_[kind].duplicates_suppressed;
  }

  // ---- the DLQ ------------------------------------------------------------------------------
  // A dead letter arrived (dead-lettered, or a duplicate of one); `replayed_by_drain`: the drain
  // whose replay died again, or -1.
  void DeadLettered(int32_t replayed_by_drain) {
    ++results_.dlq_inflow;
    ++interval_.dlq_inflow;
    if (replayed_by_drain >= 0) {
      ++results_.refilled;
      ++results_.drains[static_cast<size_t>(replayed_by_drain)].refilled;
    }
  }
  // A best-effort dead-letter topic delivered a dead letter twice: a new message of `kind`.
  void DlqDuplicated(uint32_t kind) {
    Published(kind);
    ++results_.dlq_duplicates;
    DeadLettered(-1);
  }
  void Replayed() {  // a drain moved a dead letter back to the main queue
    ++results_.replays;
    ++results_.dlq_outflow;
    ++interval_.dlq_outflow;
    ++interval_.replays;
  }
  // The inspector (invariant (2)): `m` entered (+1) or left (-1) the DLQ.
  void InspectDlq(const Message& m, int delta) {
    int64_t& count =
        dlq_by_reason_error_[static_cast<size_t>(m.dlq_reason)][static_cast<size_t>(m.last_error)];
    count += delta;
    DRAINSIM_CHECK(count >= 0);
  }

  // ---- human needed (invariant (3)) ---------------------------------------------------------
  void ParkedByPolicy(config::ErrorClass error) { ++parked_by_error_[static_cast<size_t>(error)]; }
  void FailedWithoutDlq(config::DlqReason reason) {
    ++failed_by_reason_[static_cast<size_t>(reason)];
  }
  void BrokerLost(BrokerLossCause cause) {
    ++results_.broker_lost_by_cause[static_cast<size_t>(cause)];
  }
  void ParkedByDrain(uint32_t drain) {
    ++results_.drains[drain].parked;
    ++parked_by_drain_;
  }

  // ---- live traffic -------------------------------------------------------------------------
  // A live query answered after `latency_us`; `active_drain`: the drain active then, or -1;
  // `drains_started`: whether any drain has started yet.
  void LiveAnswered(int64_t latency_us, bool ok, int32_t active_drain, bool drains_started) {
    ++results_.live_queries;
    // A timed-out query is a slow answer to its user as well as an error: both are recorded.
    results_.live_latency_us.Record(latency_us);
    live_interval_us_.Record(latency_us);
    if (active_drain >= 0) {
      results_.drains[static_cast<size_t>(active_drain)].live_latency_us.Record(latency_us);
      results_.live_latency_during_drains_us.Record(latency_us);
    } else if (!drains_started) {
      results_.live_latency_before_drains_us.Record(latency_us);
    }
    if (!ok) {
      ++results_.live_errors;
      ++interval_.live_errors;
    }
  }

  // ---- the series (invariant (1)) -----------------------------------------------------------
  // A new row at `now`: `row` holds the columns World fills (FillInstantColumns); the metrics add
  // the inspector's, the interval's rates, the database's utilisation since the last row (`db`:
  // its totals now, nullopt without one) and the live latency, and note the alerts.
  void AddRow(engine::Instant now, Sample row, const std::optional<DatabaseTotals>& db);
  // Whether the last row was taken at `now`.
  bool HasRowAt(engine::Instant now) const {
    return !results_.series.empty() && !(last_sample_at_ < now);
  }
  // REQUIRES: HasRowAt(now). The last row, for World to bring its columns up to now.
  Sample& last_row() { return results_.series.back(); }
  // After World refilled the last row's columns: the inspector's too, what was counted since the
  // row was taken added to its interval's rates, and the alerts noted again. (Live latency and
  // utilisation over no time change nothing.)
  void BringLastRowUpToDate();
  size_t rows() const { return results_.series.size(); }

  // ---- the end ------------------------------------------------------------------------------
  // The Results, moved out, with what the metrics kept: the kinds by name (`kind_names[k]`: kind
  // index k's), the time averages over [0, now], the human-needed keys (`dlq_by_reason`: the
  // dead letters left, by reason), and the time to quiet and the backlog's clearing.
  Results TakeResults(engine::Instant now, const std::vector<std::string>& kind_names,
                      const std::array<int64_t, config::kDlqReasonCount>& dlq_by_reason);

 private:
  // Counts since the last row, made rates at the next one.
  struct IntervalCounts {
    int64_t live_errors = 0;
    int64_t dlq_inflow = 0;
    int64_t dlq_outflow = 0;
    int64_t first_attempts = 0;
    int64_t retry_attempts = 0;
    int64_t downstream_calls = 0;
    int64_t downstream_429s = 0;
    int64_t replays = 0;
  };
  static constexpr size_t kErrorClassCount = 4;

  void FillInspectorColumns(Sample& row) const;
  // Adds the counts since the last row, as rates over `interval_s`, and restarts them.
  void AddIntervalCounts(Sample& row, double interval_s);
  void NoteRow(const Sample& row);  // alerts and maxima

  const config::Alerts& alerts_;
  Results results_;
  std::vector<KindResults> kinds_;  // by kind index; keyed by name in TakeResults
  IntervalCounts interval_;
  Histogram live_interval_us_{5};
  engine::Instant last_sample_at_ = engine::Instant::Zero();
  double db_busy_at_last_sample_ = 0;
  double db_capacity_at_last_sample_ = 0;
  double ready_area_us_ = 0;      // integral of the ready count over time
  double in_system_area_us_ = 0;  // integral of ready + in flight over time
  bool main_held_ = false;        // the main queue has held a message
  std::optional<engine::Instant> backlog_cleared_at_;
  std::optional<engine::Instant> quiet_since_;
  // The sidecar inspector's view: DLQ messages by (reason, error class), kept as they move.
  std::array<std::array<int64_t, kErrorClassCount>, config::kDlqReasonCount> dlq_by_reason_error_{};
  // Results::human_needed_by_reason as it grows, by enum index: parked by the policy (by error
  // class), failed with no DLQ (by reason), parked by a drain.
  std::array<int64_t, kErrorClassCount> parked_by_error_{};
  std::array<int64_t, config::kDlqReasonCount> failed_by_reason_{};
  int64_t parked_by_drain_ = 0;
};

}  // namespace drainsim::model
