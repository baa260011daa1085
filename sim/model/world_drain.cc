// Drain plans, World's side (the plans' own state: drain_plan.h): scheduling their starts,
// sorting the DLQ into a starting plan's list, replaying the messages it lists into the main
// queue at the pace it allows, and the figures that judge a drain.
#include <utility>

#include "sim/model/world.h"

namespace drainsim::model {

std::optional<DatabaseTotals> World::DbTotals() const {
  if (!database_) return std::nullopt;
  return DatabaseTotals{database_->busy_connection_seconds(),
                        database_->capacity_connection_seconds(), database_->timeouts()};
}

void World::ScheduleDrains() {
  metrics_.results().drains.resize(drains_.size());
  for (uint32_t d = 0; d < drains_.size(); ++d) {
    if (drains_.start_at(d) < until_) At(drains_.start_at(d), Event{EventType::kDrainTick, d, 1});
  }
}

void World::StartDueDrain() {
  // A drainer needs the broker: a drain due while it restarts starts once it is back.
  if (broker_.down()) return;
  if (const std::optional<uint32_t> d = drains_.NextToStart()) StartDrain(*d);
}

void World::StartDrain(uint32_t d) {
  drains_.Start(d, now_, DbTotals());
  metrics_.results().drains[d].started_at_s = now_.seconds();
  if (observer_ != nullptr) [[unlikely]] {
    observer_->OnDrainStart(d, now_);
  }
  ListForDrain(d);
  if (const auto* adaptive = std::get_if<config::AdaptiveDrain>(&scenario_.drains[d].strategy)) {
    At(now_ + adaptive->adjust_every, Event{EventType::kDrainAdjust, d});
  }
  DrainTick(d);
}

void World::ListForDrain(uint32_t d) {
  // Sort the DLQ: the selection is listed oldest first, the rest parked or left. Entries of
  // messages that left the DLQ are dropped on the way.
  const bool park_others = scenario_.drains[d].others == config::DrainOthers::kPark;
  broker_.FilterDeadLetters([&](const DlqEntry& entry) {
    Message& m = messages_.Get(entry.ref);
    if (drains_.Selected(d, m)) {
      if (m.replayed_by_drain != static_cast<int32_t>(d)) {
        if (m.pending_in_drain >= 0) drains_.Unlist(static_cast<uint32_t>(m.pending_in_drain));
        m.pending_in_drain = static_cast<int32_t>(d);
        drains_.List(d, entry);
      }
      return true;
    }
    if (!park_others) return true;
    metrics_.ParkedByDrain(d);
    Park(
        entry.ref, m,
        TransitionNote{.cause = TransitionCause::kParkedByDrain, .drain = static_cast<int32_t>(d)});
    return false;
  });
}

void World::ScheduleDrainTick(uint32_t d, engine::Instant at) {
  drains_.set_tick_scheduled(d, true);
  At(at, Event{EventType::kDrainTick, d, 0});
}

void World::DrainTick(uint32_t d) {
  drains_.set_tick_scheduled(d, false);
  if (!drains_.IsActive(d)) return;
  if (broker_.down()) return;  // nothing moves while the broker restarts: World::ResumeBroker
  while (!drains_.LimitReached(d)) {
    const DlqEntry* next = drains_.NextListed(d);
    if (next == nullptr) break;
    const bool current = broker_.IsCurrent(*next) &&
                         messages_.Get(next->ref).pending_in_drain == static_cast<int32_t>(d);
    if (!current) {
      drains_.DropListed(d);  // expired, parked or listed by another drain since
      continue;
    }
    if (const std::optional<engine::Instant> wait = drains_.Pace(d, now_)) {
      ScheduleDrainTick(d, *wait);
      return;
    }
    const DlqEntry entry = drains_.TakeListed(d, now_);
    Message& m = messages_.Get(entry.ref);
    m.pending_in_drain = -1;
    m.replayed_by_drain = static_cast<int32_t>(d);
    Replay(entry.ref, m);
  }
  if (drains_.LimitReached(d)) EndDrain(d);
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
  drains_.ReplayEntered();
  m.cause = RedeliveryCause::kRedrive;
  m.entered_queue_at = now_;
  metrics_.Replayed();
  EnterPipeline(PipelineEntry{now_, ref, m.replays});
  MakeReady(ref, m,
            TransitionNote{.cause = TransitionCause::kReplayed, .drain = m.replayed_by_drain});
}

void World::ResumeBroker() {
  broker_.set_down(false);
  if (!drains_.any_active()) {
    StartDueDrain();  // its first tick comes with it
  } else if (const auto d = static_cast<uint32_t>(drains_.active()); !drains_.tick_scheduled(d)) {
    DrainTick(d);  // its ticks stopped while it was down
  }
  Dispatch();
}

void World::DrainAdjust(uint32_t d) {
  if (!drains_.IsActive(d)) return;
  At(now_ + drains_.Adjust(d, now_, database_->timeouts()), Event{EventType::kDrainAdjust, d});
  if (!drains_.tick_scheduled(d)) DrainTick(d);
}

void World::EndDrain(uint32_t d) {
  if (!drains_.End(d)) return;
  if (observer_ != nullptr) [[unlikely]] {
    observer_->OnDrainEnd(d, now_);
  }
  DrainResults& out = metrics_.results().drains[d];
  out.ended_at_s = now_.seconds();
  drains_.FillResults(d, now_, DbTotals(), out);
  StartDueDrain();
}

void World::NoteDeadLettered(MessageRef ref, Message& m) {
  if (!drains_.any_active()) return;
  const auto d = static_cast<uint32_t>(drains_.active());
  if (m.replayed_by_drain == drains_.active() || !drains_.Selected(d, m)) return;
  m.pending_in_drain = drains_.active();
  drains_.List(d, DlqEntry{ref, m.dead_letters});
  if (!drains_.tick_scheduled(d)) ScheduleDrainTick(d, now_);
}

void World::NoteLeftPipeline(Message& m) {
  if (m.replay_in_pipeline) {
    m.replay_in_pipeline = false;
    drains_.ReplayLeft();
  }
}

void World::CheckEmpty() {
  // The active plan ends once it has nothing left to replay and its replays have settled.
  if (drains_.ActiveSettled()) EndDrain(static_cast<uint32_t>(drains_.active()));
  std::optional<double>& time_to_empty_s = metrics_.results().time_to_empty_s;
  if (!drains_.first_start() || time_to_empty_s) return;
  if (drains_.AllSettled()) time_to_empty_s = (now_ - *drains_.first_start()).seconds();
}

}  // namespace drainsim::model
