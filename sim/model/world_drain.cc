// Drain plans: replaying the DLQ into the main queue, one plan at a time, and the figures that
// judge a drain (time to empty, refilled, what the database and live traffic went through).
#include <algorithm>

#include "sim/model/world.h"

namespace drainsim::model {

namespace {

// The bits of the enumerators `list` names, or of all `count` when there is no list.
template <typename E>
uint32_t SelectionBits(const std::optional<std::vector<E>>& list, int count) {
  if (!list) return (uint32_t{1} << count) - 1;
  uint32_t bits = 0;
  for (const E value : *list) bits |= uint32_t{1} << static_cast<int>(value);
  return bits;
}

}  // namespace

bool World::Selected(uint32_t d, const Message& m) const {
  const DrainState& state = drains_[d];
  return (state.reasons >> static_cast<int>(m.dlq_reason) & 1) != 0 &&
         (state.errors >> static_cast<int>(m.last_error) & 1) != 0 && state.kinds[m.kind_index];
}

void World::ScheduleDrains() {
  drains_.resize(scenario_.drains.size());
  results_.drains.resize(scenario_.drains.size());
  for (uint32_t d = 0; d < drains_.size(); ++d) {
    const config::DrainSelect& select = scenario_.drains[d].select;
    drains_[d].reasons = SelectionBits(select.reasons, config::kDlqReasonCount);
    drains_[d].errors = SelectionBits(select.errors, static_cast<int>(parked_by_error_.size()));
    for (const KindModel& kind : kinds_) {
      drains_[d].kinds.push_back(!select.kinds ||
                                 std::find(select.kinds->begin(), select.kinds->end(), kind.name) !=
                                     select.kinds->end());
    }
  }
  // start_after_fix counts from the latest fix of any bug fault.
  std::optional<engine::Instant> fixed_at;
  for (const config::Fault& fault : scenario_.faults) {
    if (const auto* bug = std::get_if<config::BugFault>(&fault); bug && bug->fixed_at) {
      fixed_at = fixed_at ? std::max(*fixed_at, *bug->fixed_at) : *bug->fixed_at;
    }
  }
  for (uint32_t d = 0; d < scenario_.drains.size(); ++d) {
    const config::Drain& drain = scenario_.drains[d];
    const engine::Instant start =
        drain.start_at ? *drain.start_at : *fixed_at + *drain.start_after_fix;
    if (start < until_) At(start, Event{EventType::kDrainTick, d, 1});
  }
}

void World::StartDueDrain() {
  // A drainer needs the broker: a drain due while it restarts starts once it is back.
  if (active_drain_ >= 0 || broker_down_) return;
  for (uint32_t d = 0; d < drains_.size(); ++d) {
    if (drains_[d].due && !drains_[d].started) {
      StartDrain(d);
      return;
    }
  }
}

void World::StartDrain(uint32_t d) {
  const config::Drain& drain = scenario_.drains[d];
  DrainState& state = drains_[d];
  DrainResults& out = results_.drains[d];
  state.started = true;
  ++drains_uncleared_;
  state.started_at = now_;
  out.started_at_s = now_.seconds();
  active_drain_ = static_cast<int32_t>(d);
  if (!first_drain_start_) first_drain_start_ = now_;
  if (observer_ != nullptr) [[unlikely]] {
    observer_->OnDrainStart(d, now_);
  }
  if (database_) {
    state.db_busy_at_start = database_->busy_connection_seconds();
    state.db_capacity_at_start = database_->capacity_connection_seconds();
  }
  // Sort the DLQ: the selection is listed oldest first, the rest parked or left. Entries of
  // messages that left the DLQ are dropped on the way.
  std::deque<DlqEntry> kept;
  for (const DlqEntry& entry : dlq_) {
    if (!messages_.IsLive(entry.ref)) continue;
    Message& m = messages_.Get(entry.ref);
    if (m.state != MessageState::kDeadLettered || m.dead_letters != entry.dead_letters) continue;
    if (Selected(d, m)) {
      if (m.replayed_by_drain == static_cast<int32_t>(d)) {
        kept.push_back(entry);
        continue;
      }
      if (m.pending_in_drain >= 0) --drains_[static_cast<size_t>(m.pending_in_drain)].pending_count;
      m.pending_in_drain = static_cast<int32_t>(d);
      state.pending.push_back(entry);
      ++state.pending_count;
      kept.push_back(entry);
    } else if (drain.others == config::DrainOthers::kPark) {
      ++out.parked;
      ++parked_by_drain_;
      Park(entry.ref, m,
           TransitionNote{.cause = TransitionCause::kParkedByDrain,
                          .drain = static_cast<int32_t>(d)});
    } else {
      kept.push_back(entry);
    }
  }
  dlq_ = std::move(kept);
  if (drain.replay_ms) {
    state.replay_time = DurationSampler::Millis(*drain.replay_ms);
    state.replay_rng = engine::Rng::ForStream(seed_, kStreamDrainer, d);
  }
  state.busy_until = now_;
  if (const auto* drip = std::get_if<config::DripDrain>(&drain.strategy)) {
    state.bucket.emplace(drip->rate_per_s, drip->burst);
  } else if (const auto* bounded = std::get_if<config::BoundedDrain>(&drain.strategy);
             bounded != nullptr && bounded->rate_per_s) {
    state.bucket.emplace(*bounded->rate_per_s, 1);
  } else if (const auto* adaptive = std::get_if<config::AdaptiveDrain>(&drain.strategy)) {
    state.rate_per_s = adaptive->rate_min_per_s;
    state.bucket.emplace(state.rate_per_s, 1);
    db_interval_us_.Clear();
    db_timeouts_at_adjust_ = database_->timeouts();
    At(now_ + adaptive->adjust_every, Event{EventType::kDrainAdjust, d});
  }
  if (!state.bucket && scenario_.broker.redrive_rate_max_per_s) {
    // An all-at-once drain under a broker cap (SQS's move task): message k moves at k / rate,
    // so the bucket starts empty.
    state.bucket.emplace(*scenario_.broker.redrive_rate_max_per_s, 1);
    state.bucket->TryTake(now_);
  }
  DrainTick(d);
}

void World::DrainTick(uint32_t d) {
  DrainState& state = drains_[d];
  state.tick_scheduled = false;
  if (active_drain_ != static_cast<int32_t>(d)) return;
  if (broker_down_) return;  // nothing moves while the broker restarts: World::ResumeBroker
  const std::optional<int64_t>& limit = scenario_.drains[d].limit;
  while (!state.pending.empty() && !(limit && state.replayed >= *limit)) {
    const DlqEntry entry = state.pending.front();
    const bool current = messages_.IsLive(entry.ref) &&
                         messages_.Get(entry.ref).state == MessageState::kDeadLettered &&
                         messages_.Get(entry.ref).dead_letters == entry.dead_letters &&
                         messages_.Get(entry.ref).pending_in_drain == static_cast<int32_t>(d);
    if (!current) {
      state.pending.pop_front();  // expired, parked or listed by another drain since
      continue;
    }
    if (state.busy_until > now_) {  // the drainer is still on its last replay
      state.tick_scheduled = true;
      At(state.busy_until, Event{EventType::kDrainTick, d, 0});
      return;
    }
    if (state.bucket && !state.bucket->TryTake(now_)) {
      state.tick_scheduled = true;
      At(state.bucket->NextAvailable(now_), Event{EventType::kDrainTick, d, 0});
      return;
    }
    if (state.replay_time) state.busy_until = now_ + state.replay_time->Sample(state.replay_rng);
    state.pending.pop_front();
    Message& m = messages_.Get(entry.ref);
    m.pending_in_drain = -1;
    --state.pending_count;
    m.replayed_by_drain = static_cast<int32_t>(d);
    ++state.replayed;
    state.last_replay_at = now_;
    Replay(entry.ref, m);
  }
  if (limit && state.replayed >= *limit) EndDrain(d);
}

void World::Replay(MessageRef ref, Message& m) {
  // A replay is a new life: attempt counter and receive count start again, with a replay_of
  // header (the message keeps its id and key). Sidekiq's manual retry keeps the count, less the
  // retry itself: a job that died of exhausted retries dies again at its next failure.
  m.attempts = scenario_.broker.redrive_attempts == config::RedriveAttempts::kKeep
                   ? std::max(0, m.attempts - 1)
                   : 0;
  m.receive_count = 0;
  m.delivery_count = 0;
  m.stalled_count = 0;
  m.redelivered = false;
  ++m.replays;
  m.replay_in_pipeline = true;
  ++replayed_in_pipeline_;
  m.cause = RedeliveryCause::kRedrive;
  m.entered_queue_at = now_;
  ++results_.replays;
  ++results_.dlq_outflow;
  ++dlq_outflow_interval_;
  ++replays_interval_;
  EnterPipeline(PipelineEntry{now_, ref, m.replays});
  MakeReady(ref, m,
            TransitionNote{.cause = TransitionCause::kReplayed, .drain = m.replayed_by_drain});
}

void World::ResumeBroker() {
  broker_down_ = false;
  if (active_drain_ < 0) {
    StartDueDrain();  // its first tick comes with it
  } else if (!drains_[static_cast<size_t>(active_drain_)].tick_scheduled) {
    DrainTick(static_cast<uint32_t>(active_drain_));  // its ticks stopped while it was down
  }
  Dispatch();
}

void World::DrainAdjust(uint32_t d) {
  if (active_drain_ != static_cast<int32_t>(d)) return;
  const auto& adaptive = std::get<config::AdaptiveDrain>(scenario_.drains[d].strategy);
  DrainState& state = drains_[d];
  const bool timeouts = database_->timeouts() > db_timeouts_at_adjust_;
  const bool slow =
      !db_interval_us_.empty() && db_interval_us_.Quantile(0.99) > adaptive.latency_target.micros();
  if (timeouts || slow) {
    state.rate_per_s =
        std::max(adaptive.rate_min_per_s, state.rate_per_s * adaptive.decrease_factor);
  } else {
    state.rate_per_s =
        std::min(adaptive.rate_max_per_s,
                 state.rate_per_s + adaptive.increase_per_s * adaptive.adjust_every.seconds());
  }
  state.bucket->SetRate(now_, state.rate_per_s, 1);
  db_interval_us_.Clear();
  db_timeouts_at_adjust_ = database_->timeouts();
  At(now_ + adaptive.adjust_every, Event{EventType::kDrainAdjust, d});
  if (!state.tick_scheduled) DrainTick(d);
}

void World::FillDrainResults(uint32_t d, DrainResults& out) const {
  const DrainState& state = drains_[d];
  out.replayed = state.replayed;
  out.left = state.pending_count;
  const double active_s = (now_ - state.started_at).seconds();
  out.achieved_rate_per_s = active_s > 0 ? static_cast<double>(state.replayed) / active_s : 0;
  if (state.replayed > 0) out.last_replay_at_s = state.last_replay_at.seconds();
  if (state.backlog_cleared_at) {
    out.backlog_cleared_s = (*state.backlog_cleared_at - state.started_at).seconds();
  }
  if (database_) {
    const double capacity = database_->capacity_connection_seconds() - state.db_capacity_at_start;
    out.db_utilisation =
        capacity > 0 ? (database_->busy_connection_seconds() - state.db_busy_at_start) / capacity
                     : 0;
  }
}

void World::EndDrain(uint32_t d) {
  DrainState& state = drains_[d];
  if (state.ended) return;
  state.ended = true;
  if (observer_ != nullptr) [[unlikely]] {
    observer_->OnDrainEnd(d, now_);
  }
  results_.drains[d].ended_at_s = now_.seconds();
  FillDrainResults(d, results_.drains[d]);
  if (active_drain_ == static_cast<int32_t>(d)) active_drain_ = -1;
  StartDueDrain();
}

void World::NoteDeadLettered(MessageRef ref, Message& m) {
  if (active_drain_ < 0) return;
  const auto d = static_cast<uint32_t>(active_drain_);
  if (m.replayed_by_drain == active_drain_ || !Selected(d, m)) return;
  DrainState& state = drains_[d];
  m.pending_in_drain = active_drain_;
  state.pending.push_back(DlqEntry{ref, m.dead_letters});
  ++state.pending_count;
  if (!state.tick_scheduled) {
    state.tick_scheduled = true;
    At(now_, Event{EventType::kDrainTick, d, 0});
  }
}

void World::NoteLeftPipeline(Message& m) {
  if (m.replay_in_pipeline) {
    m.replay_in_pipeline = false;
    --replayed_in_pipeline_;
  }
}

void World::CheckEmpty() {
  // The active plan ends once it has nothing left to replay and its replays have settled.
  if (active_drain_ >= 0) {
    const DrainState& state = drains_[static_cast<size_t>(active_drain_)];
    if (state.pending_count == 0 && replayed_in_pipeline_ == 0) {
      EndDrain(static_cast<uint32_t>(active_drain_));
    }
  }
  if (!first_drain_start_ || results_.time_to_empty_s) return;
  int64_t pending = 0;
  for (const DrainState& state : drains_) {
    if (!state.started) return;  // a plan still to come: not judged yet
    pending += state.pending_count;
  }
  if (pending == 0 && replayed_in_pipeline_ == 0) {
    results_.time_to_empty_s = (now_ - *first_drain_start_).seconds();
  }
}

}  // namespace drainsim::model
