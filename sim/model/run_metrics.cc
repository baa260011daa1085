#include "sim/model/run_metrics.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

#include "sim/config/enum_names.h"

namespace drainsim::model {

const char* DuplicateCauseName(DuplicateCause cause) {
  switch (cause) {
    case DuplicateCause::kLostAck:
      return "lost_ack";
    case DuplicateCause::kCrashAfterCommit:
      return "crash_after_commit";
    case DuplicateCause::kVisibilityTimeout:
      return "visibility_timeout";
    case DuplicateCause::kRedrive:
      return "redrive";
    case DuplicateCause::kOther:
      return "other";
    case DuplicateCause::kRebalance:
      return "rebalance";
    case DuplicateCause::kOrderingKey:
      return "ordering_key";
  }
  return "other";
}

namespace {

// Adds the nonzero `counts` (by enumerator of E) to `by_reason` as "PREFIXname" keys.
template <typename E, size_t N>
void AddHumanNeeded(std::string_view prefix, const std::array<int64_t, N>& counts,
                    std::map<std::string, int64_t>& by_reason) {
  for (size_t i = 0; i < N; ++i) {
    if (counts[i] > 0) {
      by_reason[std::string(prefix) + std::string(config::NameOf(static_cast<E>(i)))] += counts[i];
    }
  }
}

}  // namespace

RunMetrics::RunMetrics(const std::string& scenario_name, uint64_t seed, size_t kind_count,
                       const config::Alerts& alerts)
    : alerts_(alerts), kinds_(kind_count) {
  results_.scenario_name = scenario_name;
  results_.seed = seed;
}

void RunMetrics::DuplicateExecuted(uint32_t kind, DuplicateCause cause, bool visible) {
  ++results_.duplicates_by_cause[static_cast<size_t>(cause)];
  ++results_.duplicate_executions;
  KindResults& kind_results = kinds_[kind];
  ++kind_results.duplicate_executions;
  if (visible) {
    ++results_.visible_duplicates;
    ++kind_results.visible_duplicates;
  }
}

void RunMetrics::FillInspectorColumns(Sample& row) const {
  row.dlq_by_reason = {};
  row.dlq_by_error = {};
  for (size_t reason = 0; reason < config::kDlqReasonCount; ++reason) {
    for (size_t error = 0; error < kErrorClassCount; ++error) {
      row.dlq_by_reason[reason] += dlq_by_reason_error_[reason][error];
      row.dlq_by_error[error] += dlq_by_reason_error_[reason][error];
    }
  }
}

void RunMetrics::AddIntervalCounts(Sample& row, double interval_s) {
  // The row at t = 0 closes no interval: what was counted before it (events at t = 0 that ran
  // first) carries over into the first interval rather than being dropped.
  if (interval_s <= 0) return;
  const IntervalCounts& c = interval_;
  row.dlq_inflow_per_s += static_cast<double>(c.dlq_inflow) / interval_s;
  row.dlq_outflow_per_s += static_cast<double>(c.dlq_outflow) / interval_s;
  row.live_errors_per_s += static_cast<double>(c.live_errors) / interval_s;
  row.drain_rate_per_s += static_cast<double>(c.replays) / interval_s;
  row.first_attempts_per_s += static_cast<double>(c.first_attempts) / interval_s;
  row.retry_attempts_per_s += static_cast<double>(c.retry_attempts) / interval_s;
  row.downstream_calls_per_s += static_cast<double>(c.downstream_calls) / interval_s;
  row.downstream_429s_per_s += static_cast<double>(c.downstream_429s) / interval_s;
  interval_ = IntervalCounts{};
}

void RunMetrics::NoteRow(const Sample& row) {
  // Alerts fire on samples, as a monitoring system scraping at this period would see them.
  if (alerts_.oldest_age && !results_.age_alert_first_s &&
      row.oldest_age_s > alerts_.oldest_age->seconds()) {
    results_.age_alert_first_s = row.t_s;
  }
  if (alerts_.depth && !results_.depth_alert_first_s && row.depth > *alerts_.depth) {
    results_.depth_alert_first_s = row.t_s;
  }
  if (alerts_.dlq_depth && !results_.dlq_depth_alert_first_s &&
      row.dlq_depth > *alerts_.dlq_depth) {
    results_.dlq_depth_alert_first_s = row.t_s;
  }
  results_.oldest_age_max_s = std::max(results_.oldest_age_max_s, row.oldest_age_s);
}

void RunMetrics::AddRow(engine::Instant now, Sample row, const std::optional<DatabaseTotals>& db) {
  // Rates are over the interval since the previous row: run.sample_every for the periodic
  // rows, shorter for the row at the run's end.
  const double interval_s = results_.series.empty() ? 0 : (now - last_sample_at_).seconds();
  last_sample_at_ = now;
  row.t_s = now.seconds();
  FillInspectorColumns(row);
  AddIntervalCounts(row, interval_s);
  if (db) {
    const double capacity_delta = db->capacity_connection_s - db_capacity_at_last_sample_;
    row.db_utilisation =
        capacity_delta > 0 ? (db->busy_connection_s - db_busy_at_last_sample_) / capacity_delta : 0;
    db_busy_at_last_sample_ = db->busy_connection_s;
    db_capacity_at_last_sample_ = db->capacity_connection_s;
  }
  if (!live_interval_us_.empty()) {
    row.live_p50_ms = static_cast<double>(live_interval_us_.Quantile(0.5)) / 1e3;
    row.live_p99_ms = static_cast<double>(live_interval_us_.Quantile(0.99)) / 1e3;
  }
  live_interval_us_.Clear();
  NoteRow(row);
  results_.series.push_back(row);
}

void RunMetrics::BringLastRowUpToDate() {
  std::vector<Sample>& series = results_.series;
  DRAINSIM_CHECK(!series.empty());
  Sample& row = series.back();
  const double interval_s = series.size() >= 2 ? row.t_s - series[series.size() - 2].t_s : 0;
  FillInspectorColumns(row);
  AddIntervalCounts(row, interval_s);
  NoteRow(row);
}

Results RunMetrics::TakeResults(engine::Instant now, const std::vector<std::string>& kind_names,
                                const std::array<int64_t, config::kDlqReasonCount>& dlq_by_reason) {
  Results r = std::move(results_);
  for (size_t k = 0; k < kind_names.size(); ++k) r.kinds[kind_names[k]] = std::move(kinds_[k]);
  if (now > engine::Instant::Zero()) {
    r.ready_mean = ready_area_us_ / static_cast<double>(now.micros());
    r.in_system_mean = in_system_area_us_ / static_cast<double>(now.micros());
  }
  AddHumanNeeded<config::ErrorClass>("parked:", parked_by_error_, r.human_needed_by_reason);
  AddHumanNeeded<config::DlqReason>("failed:", failed_by_reason_, r.human_needed_by_reason);
  AddHumanNeeded<config::DlqReason>("dlq:", dlq_by_reason, r.human_needed_by_reason);
  if (parked_by_drain_ > 0) r.human_needed_by_reason["parked:drain"] += parked_by_drain_;
  r.human_needed = 0;
  for (const auto& [reason, count] : r.human_needed_by_reason) r.human_needed += count;
  if (quiet_since_) r.time_to_quiet_s = quiet_since_->seconds();
  if (backlog_cleared_at_) r.backlog_cleared_s = backlog_cleared_at_->seconds();
  return r;
}

}  // namespace drainsim::model
