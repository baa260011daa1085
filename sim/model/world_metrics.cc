// World's side of the observation (the figures themselves: run_metrics.h): the columns of a
// series row only World can see, the age of the oldest message, live traffic, the inspector's
// sample of the DLQ at the end, and the final Results.
#include <algorithm>
#include <array>
#include <string>

#include "sim/config/enum_names.h"
#include "sim/model/keys.h"
#include "sim/model/world.h"

namespace drainsim::model {

void World::InspectDlqAtEnd(Results& r) {
  constexpr size_t kSampleMax = 20;
  for (const DlqEntry& entry : broker_.dlq()) {
    if (!broker_.IsCurrent(entry)) continue;
    const Message& m = messages_.Get(entry.ref);
    const KindModel& kind = KindOf(m);
    const std::string reason(config::NameOf(m.dlq_reason));
    const std::string error(config::NameOf(m.last_error));
    ++r.dlq_by_reason_error[reason + "/" + error];
    ++r.dlq_by_kind[kind.name];
    if (r.dlq_sample.size() < kSampleMax) {
      DlqSample sample;
      sample.id = m.id;
      sample.kind = kind.name;
      sample.key = keys_.Text(m);
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
  s.ack_pending = ack_pending_;
  s.oldest_age_s = broker_.OldestAgeSeconds(now_);
  s.workers_busy = pool_.busy_slots();
  if (autoscale_) s.workers = autoscale_->receiving;
  if (database_) s.db_queue = database_->waiting();
  s.drain_active = drains_.any_active();
  s.fault_active = faults_.any_active();
  if (group_tallies_ && group_tallies_->tracking()) FillPartitionLag(s);
}

void World::FillPartitionLag(Sample& s) const {
  const std::vector<int64_t>& lag = group_tallies_->lag();
  s.partition_lag.assign(lag.begin(), lag.begin() + static_cast<std::ptrdiff_t>(std::min(
                                                        lag.size(), kPartitionLagColumns)));
  int64_t total = 0;
  s.partition_lag_max = 0;
  for (const int64_t l : lag) {
    total += l;
    s.partition_lag_max = std::max(s.partition_lag_max, l);
  }
  // The lags are kept per transition; they must add up to the ledger's states they count.
  DRAINSIM_CHECK(total == ledger_.count(MessageState::kReady) +
                              ledger_.count(MessageState::kDelayed) +
                              ledger_.count(MessageState::kInFlight) +
                              ledger_.count(MessageState::kDeadLetterWaiting));
}

void World::TakeSample(SampleWhen when) {
  Sample row;
  FillInstantColumns(row);
  metrics_.AddRow(now_, row, DbTotals());
  // The audit recounts every message slot. At every sample that would cost slots x samples,
  // which for a deep backlog dwarfs the run itself (1M messages, 125 samples: 70% of the
  // time). So audit at samples 1, 2, 4, 8, ... and at every sample while the audits' total
  // stays within the events processed; the end of the run is always audited, and tests audit
  // after every event.
  const size_t samples = metrics_.rows();
  if ((samples & (samples - 1)) == 0 ||
      messages_.slot_count() * samples <= static_cast<size_t>(events_processed_)) {
    audit_.Recount(events_processed_);
  }
  if (when == SampleWhen::kAtEnd) return;
  const engine::Instant next = now_ + scenario_.run.sample_every;
  if (next < until_) At(next, Event{EventType::kSample});
}

void World::TakeFinalSample() {
  // The series ends with the run: its last row shows the state the report's end figures count
  // (dlq_end, parked, ...), and alerts and `always`/`sometimes` see it.
  if (!metrics_.HasRowAt(now_)) {
    TakeSample(SampleWhen::kAtEnd);
    return;
  }
  // A periodic row at this very instant ran before the instant's last events (same-instant
  // events run in push order): bring its state up to the end.
  FillInstantColumns(metrics_.last_row());
  metrics_.BringLastRowUpToDate();
}

void World::LiveQuery() {
  const LiveTraffic::Query query = live_->Arrive(now_);
  database_->Submit(query.owner, query.service);
  metrics_.DbQueueSeen(database_->waiting());
  if (query.next_at < until_) At(query.next_at, Event{EventType::kLiveQuery});
}

Results World::Collect() {
  if (autoscale_) CountWorkerSeconds();  // the pods still up at the run's end
  std::array<int64_t, config::kDlqReasonCount> dlq_by_reason{};
  messages_.ForEachLive([&](MessageRef, const Message& m) {
    if (m.state == MessageState::kDeadLettered) ++dlq_by_reason[static_cast<size_t>(m.dlq_reason)];
  });
  std::vector<std::string> kind_names;
  for (const KindModel& kind : kinds_) kind_names.push_back(kind.name);
  Results r = metrics_.TakeResults(now_, kind_names, dlq_by_reason);
  r.fingerprint = fingerprint_;
  r.events = events_processed_;
  r.ended_at_s = now_.seconds();
  r.acked = ledger_.count(MessageState::kAcked);
  r.parked = ledger_.count(MessageState::kParked);
  r.expired = ledger_.count(MessageState::kExpired);
  r.rejected = ledger_.count(MessageState::kRejected);
  r.broker_lost = ledger_.count(MessageState::kBrokerLost);
  r.dead_letter_waiting_end = ledger_.count(MessageState::kDeadLetterWaiting);
  r.dlq_end = ledger_.count(MessageState::kDeadLettered);
  r.lost = ledger_.Lost();
  r.not_terminal_end = ledger_.count(MessageState::kReady) + ledger_.count(MessageState::kDelayed) +
                       ledger_.count(MessageState::kInFlight) + r.dead_letter_waiting_end;
  if (group_tallies_) {
    r.message_groups = scenario_.broker.message_groups.value_or(0);
    r.partitions = scenario_.broker.partitions.value_or(0);
    r.ordering_violations = group_tallies_->ordering_violations();
    r.group_hold_max_s = group_tallies_->HoldMaxAt(now_).seconds();
  }
  if (database_) {
    r.has_database = true;
    const double capacity = database_->capacity_connection_seconds();
    r.db_utilisation = capacity > 0 ? database_->busy_connection_seconds() / capacity : 0;
    r.db_timeouts = database_->timeouts();
    r.db_refusals = database_->refusals();
    r.has_live_traffic = live_.has_value();
  }
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
