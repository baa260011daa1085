// Observation: the sampled time series, live traffic, alerts, and the final Results.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>
#include <string_view>

#include "sim/config/enum_names.h"
#include "sim/model/keys.h"
#include "sim/model/world.h"

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
  }
  return "other";
}

bool World::InPipeline(const PipelineEntry& e) const {
  if (!messages_.IsLive(e.ref)) return false;
  const Message& m = messages_.Get(e.ref);
  return m.replays == e.replays &&
         (m.state == MessageState::kReady || m.state == MessageState::kDelayed ||
          m.state == MessageState::kInFlight);
}

void World::EnterPipeline(const PipelineEntry& entry) {
  pipeline_.push_back(entry);
  // Entries of messages that finished behind a stuck one pile up; compact them away when they
  // outnumber the live ones (each compaction removes at least half), so memory follows the
  // pipeline, not the run, even between samples.
  const int64_t live = ledger_.count(MessageState::kReady) + ledger_.count(MessageState::kDelayed) +
                       ledger_.count(MessageState::kInFlight);
  if (static_cast<int64_t>(pipeline_.size()) > 2 * live + 4096) {
    std::erase_if(pipeline_, [this](const PipelineEntry& e) { return !InPipeline(e); });
  }
}

double World::OldestAgeSeconds() {
  while (!pipeline_.empty() && !InPipeline(pipeline_.front())) pipeline_.pop_front();
  if (pipeline_.empty()) return 0;
  return (now_ - pipeline_.front().entered_at).seconds();
}

void World::InspectDlq(const Message& m, int delta) {
  int64_t& count =
      dlq_by_reason_error_[static_cast<size_t>(m.dlq_reason)][static_cast<size_t>(m.last_error)];
  count += delta;
  DRAINSIM_CHECK(count >= 0);
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

void World::InspectDlqAtEnd(Results& r) {
  constexpr size_t kSampleMax = 20;
  for (const DlqEntry& entry : dlq_) {
    if (!messages_.IsLive(entry.ref)) continue;
    const Message& m = messages_.Get(entry.ref);
    if (m.state != MessageState::kDeadLettered || m.dead_letters != entry.dead_letters) continue;
    const KindModel& kind = KindOf(m);
    const std::string reason(config::NameOf(m.dlq_reason));
    const std::string error(config::NameOf(m.last_error));
    ++r.dlq_by_reason_error[reason + "/" + error];
    ++r.dlq_by_kind[kind.name];
    if (r.dlq_sample.size() < kSampleMax) {
      DlqSample sample;
      sample.id = m.id;
      sample.kind = kind.name;
      sample.key = (m.from_backlog ? backlog_keys_ : producer_keys_)[m.source_index].Render(
          m.id, m.published_at);
      sample.reason = reason;
      sample.error = error;
      sample.attempts = m.attempts;
      sample.failures = m.failures;
      sample.replays = m.replays;
      sample.dead_letters = m.dead_letters;
      sample.first_reason = config::NameOf(m.first_dlq_reason);
      sample.published_at_s = m.published_at.seconds();
      sample.first_failure_at_s =
          m.first_failure_at == engine::Instant::Never() ? 0 : m.first_failure_at.seconds();
      sample.dead_lettered_at_s = m.dead_lettered_at.seconds();
      r.dlq_sample.push_back(sample);
    }
  }
}

void World::FillInstantColumns(Sample& s) {
  s.depth = ledger_.count(MessageState::kReady);
  s.delayed_depth = ledger_.count(MessageState::kDelayed);
  s.dlq_depth = ledger_.count(MessageState::kDeadLettered);
  s.parked = ledger_.count(MessageState::kParked);
  s.in_flight = ledger_.count(MessageState::kInFlight);
  s.oldest_age_s = OldestAgeSeconds();
  s.workers_busy = busy_slots_;
  if (database_) s.db_queue = database_->waiting();
  s.dlq_by_reason = {};
  s.dlq_by_error = {};
  for (size_t reason = 0; reason < config::kDlqReasonCount; ++reason) {
    for (size_t error = 0; error < 4; ++error) {
      s.dlq_by_reason[reason] += dlq_by_reason_error_[reason][error];
      s.dlq_by_error[error] += dlq_by_reason_error_[reason][error];
    }
  }
  s.drain_active = drains_.any_active();
  s.fault_active = faults_.any_active();
}

void World::AddIntervalCounts(Sample& s, double interval_s) {
  // The row at t = 0 closes no interval: what was counted before it (events at t = 0 that ran
  // first) carries over into the first interval rather than being dropped.
  if (interval_s <= 0) return;
  s.dlq_inflow_per_s += static_cast<double>(dlq_inflow_interval_) / interval_s;
  s.dlq_outflow_per_s += static_cast<double>(dlq_outflow_interval_) / interval_s;
  s.live_errors_per_s += static_cast<double>(live_errors_interval_) / interval_s;
  s.drain_rate_per_s += static_cast<double>(replays_interval_) / interval_s;
  s.first_attempts_per_s += static_cast<double>(first_attempts_interval_) / interval_s;
  s.retry_attempts_per_s += static_cast<double>(retry_attempts_interval_) / interval_s;
  s.downstream_calls_per_s += static_cast<double>(downstream_calls_interval_) / interval_s;
  s.downstream_429s_per_s += static_cast<double>(downstream_429s_interval_) / interval_s;
  replays_interval_ = 0;
  first_attempts_interval_ = 0;
  retry_attempts_interval_ = 0;
  downstream_calls_interval_ = 0;
  downstream_429s_interval_ = 0;
  live_errors_interval_ = 0;
  dlq_inflow_interval_ = 0;
  dlq_outflow_interval_ = 0;
}

void World::NoteSample(const Sample& s) {
  // Alerts fire on samples, as a monitoring system scraping at this period would see them.
  const config::Alerts& alerts = scenario_.alerts;
  if (alerts.oldest_age && !results_.age_alert_first_s &&
      s.oldest_age_s > alerts.oldest_age->seconds()) {
    results_.age_alert_first_s = s.t_s;
  }
  if (alerts.depth && !results_.depth_alert_first_s && s.depth > *alerts.depth) {
    results_.depth_alert_first_s = s.t_s;
  }
  if (alerts.dlq_depth && !results_.dlq_depth_alert_first_s && s.dlq_depth > *alerts.dlq_depth) {
    results_.dlq_depth_alert_first_s = s.t_s;
  }
  results_.oldest_age_max_s = std::max(results_.oldest_age_max_s, s.oldest_age_s);
}

void World::TakeSample(SampleWhen when) {
  // Rates are over the interval since the previous row: run.sample_every for the periodic
  // rows, shorter for the row at the run's end.
  const double interval_s = results_.series.empty() ? 0 : (now_ - last_sample_at_).seconds();
  last_sample_at_ = now_;
  Sample s;
  s.t_s = now_.seconds();
  FillInstantColumns(s);
  AddIntervalCounts(s, interval_s);
  if (database_) {
    const double busy = database_->busy_connection_seconds();
    const double capacity = database_->capacity_connection_seconds();
    const double capacity_delta = capacity - db_capacity_at_last_sample_;
    s.db_utilisation = capacity_delta > 0 ? (busy - db_busy_at_last_sample_) / capacity_delta : 0;
    db_busy_at_last_sample_ = busy;
    db_capacity_at_last_sample_ = capacity;
  }
  if (!live_interval_us_.empty()) {
    s.live_p50_ms = static_cast<double>(live_interval_us_.Quantile(0.5)) / 1e3;
    s.live_p99_ms = static_cast<double>(live_interval_us_.Quantile(0.99)) / 1e3;
  }
  live_interval_us_.Clear();
  NoteSample(s);
  results_.series.push_back(s);
  // The audit recounts every message slot. At every sample that would cost slots x samples,
  // which for a deep backlog dwarfs the run itself (1M messages, 125 samples: 70% of the
  // time). So audit at samples 1, 2, 4, 8, ... and at every sample while the audits' total
  // stays within the events processed; the end of the run is always audited, and tests audit
  // after every event.
  const size_t samples = results_.series.size();
  if ((samples & (samples - 1)) == 0 ||
      messages_.slot_count() * samples <= static_cast<size_t>(events_processed_)) {
    Audit();
  }
  if (when == SampleWhen::kAtEnd) return;
  const engine::Instant next = now_ + scenario_.run.sample_every;
  if (next < until_) At(next, Event{EventType::kSample});
}

void World::TakeFinalSample() {
  // The series ends with the run: its last row shows the state the report's end figures count
  // (dlq_end, parked, ...), and alerts and `always`/`sometimes` see it.
  if (results_.series.empty() || last_sample_at_ < now_) {
    TakeSample(SampleWhen::kAtEnd);
    return;
  }
  // A periodic row at this very instant ran before the instant's last events (same-instant
  // events run in push order): bring its state up to the end, and add what those events counted
  // to its interval's rates. (Live latency and utilisation over no time change nothing.)
  std::vector<Sample>& series = results_.series;
  Sample& row = series.back();
  const double interval_s = series.size() >= 2 ? row.t_s - series[series.size() - 2].t_s : 0;
  FillInstantColumns(row);
  AddIntervalCounts(row, interval_s);
  NoteSample(row);
}

void World::LiveQuery() {
  const config::LiveTraffic& live = *scenario_.database->live_traffic;
  database_->Submit(kLiveQueryOwner | static_cast<uint64_t>(live_sequence_++),
                    live_query_->Sample(live_rng_));
  results_.db_queue_max = std::max(results_.db_queue_max, database_->waiting());
  const double gap_us =
      std::nearbyint(-std::log(live_rng_.NextOpenDouble()) / live.rate_per_s * 1e6);
  if (gap_us < static_cast<double>(engine::kInputMicrosMax)) {
    const engine::Instant next = now_ + engine::Duration::Micros(static_cast<int64_t>(gap_us));
    if (next < until_) At(next, Event{EventType::kLiveQuery});
  }
}

void World::RecordLive(const QueryCompletion& done) {
  ++results_.live_queries;
  // A timed-out query is a slow answer to its user as well as an error: both are recorded.
  results_.live_latency_us.Record(done.latency.micros());
  live_interval_us_.Record(done.latency.micros());
  if (drains_.any_active()) {
    results_.drains[static_cast<size_t>(drains_.active())].live_latency_us.Record(
        done.latency.micros());
    results_.live_latency_during_drains_us.Record(done.latency.micros());
  } else if (!drains_.first_start()) {
    results_.live_latency_before_drains_us.Record(done.latency.micros());
  }
  if (done.outcome != QueryOutcome::kOk) {
    ++results_.live_errors;
    ++live_errors_interval_;
  }
}

void World::NoteBacklog(int64_t main_queue) {
  if (main_queue > 0) {
    main_held_ = true;
  } else if (main_held_ && !backlog_cleared_at_) {
    backlog_cleared_at_ = now_;
  }
  drains_.NoteMainQueue(main_queue, now_);
}

Results World::Collect() {
  Results r = std::move(results_);
  for (size_t k = 0; k < kinds_.size(); ++k) r.kinds[kinds_[k].name] = std::move(kind_results_[k]);
  r.fingerprint = fingerprint_;
  r.events = events_processed_;
  r.ended_at_s = now_.seconds();
  if (now_ > engine::Instant::Zero()) {
    r.ready_mean = ready_area_us_ / static_cast<double>(now_.micros());
    r.in_system_mean = in_system_area_us_ / static_cast<double>(now_.micros());
  }
  r.acked = ledger_.count(MessageState::kAcked);
  r.parked = ledger_.count(MessageState::kParked);
  r.expired = ledger_.count(MessageState::kExpired);
  r.rejected = ledger_.count(MessageState::kRejected);
  r.dlq_end = ledger_.count(MessageState::kDeadLettered);
  r.lost = ledger_.Lost();
  r.not_terminal_end = ledger_.count(MessageState::kReady) + ledger_.count(MessageState::kDelayed) +
                       ledger_.count(MessageState::kInFlight);
  std::array<int64_t, config::kDlqReasonCount> dlq_by_reason{};
  messages_.ForEachLive([&](MessageRef, const Message& m) {
    if (m.state == MessageState::kDeadLettered) ++dlq_by_reason[static_cast<size_t>(m.dlq_reason)];
  });
  AddHumanNeeded<config::ErrorClass>("parked:", parked_by_error_, r.human_needed_by_reason);
  AddHumanNeeded<config::DlqReason>("failed:", failed_by_reason_, r.human_needed_by_reason);
  AddHumanNeeded<config::DlqReason>("dlq:", dlq_by_reason, r.human_needed_by_reason);
  if (parked_by_drain_ > 0) r.human_needed_by_reason["parked:drain"] += parked_by_drain_;
  r.human_needed = 0;
  for (const auto& [reason, count] : r.human_needed_by_reason) r.human_needed += count;
  if (database_) {
    r.has_database = true;
    const double capacity = database_->capacity_connection_seconds();
    r.db_utilisation = capacity > 0 ? database_->busy_connection_seconds() / capacity : 0;
    r.db_timeouts = database_->timeouts();
    r.db_refusals = database_->refusals();
    r.has_live_traffic = scenario_.database->live_traffic.has_value();
  }
  if (quiet_since_) r.time_to_quiet_s = quiet_since_->seconds();
  if (backlog_cleared_at_) r.backlog_cleared_s = backlog_cleared_at_->seconds();
  if (r.first_attempts > 0) {
    r.retry_amplification = static_cast<double>(r.attempts) / static_cast<double>(r.first_attempts);
  }
  r.age_alert_on = scenario_.alerts.oldest_age.has_value();
  r.depth_alert_on = scenario_.alerts.depth.has_value();
  r.dlq_depth_alert_on = scenario_.alerts.dlq_depth.has_value();
  InspectDlqAtEnd(r);
  for (uint32_t d = 0; d < drains_.size(); ++d) {
    // A drain still active at the end: its figures up to now.
    if (drains_.started(d) && !drains_.ended(d)) {
      drains_.FillResults(d, now_, DbTotals(), r.drains[d]);
    }
  }
  return r;
}

}  // namespace drainsim::model
