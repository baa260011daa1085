// The DLQ's side of a run: dead-lettering (and what the broker does when there is no DLQ or
// the DLQ refuses), second copies, retention and the length cap, and the loss the broker
// causes by design (broker_lost).
#include <algorithm>
#include <string>

#include "sim/model/keys.h"
#include "sim/model/world.h"

namespace drainsim::model {

void World::DeadLetter(MessageRef ref, Message& m, config::DlqReason reason) {
  m.dlq_reason = reason;  // before the move: the inspector counts it on the way in
  if (m.dead_letters == 0) m.first_dlq_reason = reason;
  if (esm_ && m.executions == 0) [[unlikely]] {
    ++metrics_.results().dead_lettered_unprocessed;  // every receive throttled
  }
  const config::Broker& broker = scenario_.broker;
  if (!broker.dead_letter_queue) {
    if (broker.without_dlq == config::WithoutDlq::kDropped) {
      LoseByBroker(ref, m, BrokerLossCause::kNoDeadLetterTarget);
      return;
    }
    if (broker.without_dlq == config::WithoutDlq::kSkipped) {
      LoseByBroker(ref, m, BrokerLossCause::kSkipped);
      return;
    }
    if (broker.without_dlq == config::WithoutDlq::kArchived) {
      LoseByBroker(ref, m, BrokerLossCause::kArchived);
      return;
    }
    // No DLQ (Celery): the task ends failed, and only a human can run it again.
    metrics_.FailedWithoutDlq(reason);
    Park(ref, m, TransitionNote{.cause = TransitionCause::kFailed});
    return;
  }
  if (DlqRefuses()) {
    if (broker.dead_letter_strategy == config::DeadLetterStrategy::kAtLeastOnce) {
      // RabbitMQ keeps it in the source queue's discards and retries the publish until the
      // target confirms (rabbit_fifo_dlx_worker): undeliverable, waiting its turn.
      Transition(m, MessageState::kDeadLetterWaiting,
                 TransitionNote{.cause = TransitionCause::kDeadLetterWaiting});
      broker_.HoldDeadLetter(ref);
      return;
    }
    LoseByBroker(ref, m, BrokerLossCause::kDlqFull);
    return;
  }
  EnterDlq(ref, m);
}

bool World::DlqRefuses() const {
  const config::Broker& broker = scenario_.broker;
  if (broker.dlq_overflow != config::Overflow::kRejectPublish) return false;
  // The loader requires dlq_max_length with reject_publish. Waiting ones go first, in order.
  return broker_.dead_letters_waiting() || DlqFullForWaiting();
}

void World::EnterDlq(MessageRef ref, Message& m) {
  Transition(m, MessageState::kDeadLettered,
             TransitionNote{.cause = TransitionCause::kDeadLettered});
  m.dead_lettered_at = now_;
  m.synthetic = false;  // a synthetic failure ends once dead-lettered: replays succeed
  ++m.dead_letters;
  metrics_.DeadLettered(m.replays > 0 ? m.replayed_by_drain : -1);  // a replay died again
  broker_.AddDeadLetter(ref, m.dead_letters);
  ScheduleExpiry(ref, m);
  NoteDeadLettered(ref, m);
  MaybeDuplicateDeadLetter(ref);
  TrimDlq();
}

void World::LoseByBroker(MessageRef ref, Message& m, BrokerLossCause cause) {
  Transition(m, MessageState::kBrokerLost,
             TransitionNote{.cause = TransitionCause::kBrokerLost, .loss = cause});
  metrics_.BrokerLost(cause);
  ReleaseIfDone(ref);
}

void World::DeadLetterRoom() {
  dead_letter_room_due_ = false;
  while (broker_.dead_letters_waiting() && !DlqFullForWaiting()) {
    const MessageRef ref = broker_.PopWaitingDeadLetter();
    EnterDlq(ref, messages_.Get(ref));
  }
}

bool World::DlqFullForWaiting() const {
  return ledger_.count(MessageState::kDeadLettered) >= *scenario_.broker.dlq_max_length;
}

void World::NoteDlqExit() {
  if (!broker_.dead_letters_waiting() || dead_letter_room_due_) return;
  // An event, not a call: the exit happens inside a transition whose caller goes on with the
  // DLQ; the waiting enter right after, at this instant, before anything later.
  dead_letter_room_due_ = true;
  At(now_, Event{EventType::kDeadLetterRoom, 0, 0});
}

void World::MaybeDuplicateDeadLetter(MessageRef ref) {
  const double p = scenario_.broker.dead_letter_duplicate_probability;
  if (p <= 0) return;
  // A refusing DLQ at its cap takes no second copy (the first is in: nothing is lost).
  if (DlqRefuses()) return;
  Message original = messages_.Get(ref);  // a copy: Create() below may move the records
  engine::Rng rng = dlq_duplicate_streams_.For((original.id << 16) ^
                                               static_cast<uint64_t>(original.dead_letters));
  if (rng.NextDouble() >= p) return;
  // Best-effort forwarding delivered it to the dead-letter topic twice: a second message with
  // the same payload and idempotency key. Its key state is shared from now on.
  if (original.key_hash == 0) {
    const uint64_t hash = HashKey("dlq-duplicate:" + std::to_string(original.id));
    keys_.Share(hash, original.own_key);
    messages_.Get(ref).key_hash = hash;
    original.key_hash = hash;
  }
  // Counted by the store as dead-lettered, as the copy below (of a dead letter) says.
  const MessageRef copy_ref = messages_.Create(MessageState::kDeadLettered);
  Message& copy = messages_.Get(copy_ref);
  copy = original;
  copy.id = next_message_id_++;
  copy.copies_on_workers = 0;
  copy.pending_in_drain = -1;
  copy.replay_in_pipeline = false;
  ledger_.Publish(MessageState::kDeadLettered);
  metrics_.DlqDuplicated(copy.kind_index);
  metrics_.InspectDlq(copy, +1);
  broker_.AddDeadLetter(copy_ref, copy.dead_letters);
  ScheduleExpiry(copy_ref, copy);
  if (notify_.attached()) [[unlikely]] {
    // The copy carries the original's payload, so its key: rendered from the original's id.
    notify_.Publish(now_, copy, notify_.wants_keys() ? keys_.Text(original) : std::string());
  }
}

void World::TrimDlq() {
  const bool on_dead_letter = scenario_.broker.dlq_trim == config::DlqTrim::kOnDeadLetter;
  if (on_dead_letter) {
    // Sidekiq's ZREMRANGEBYSCORE dead -inf (now - dead_timeout), run only when a job dies.
    DlqEntry entry;
    while (broker_.TakeRetentionDeadlineBefore(now_, &entry)) {
      if (broker_.IsCurrent(entry)) ExpireDeadLetter(entry.ref, /*trimmed=*/false);
    }
  }
  const auto& cap = scenario_.broker.dlq_max_length;
  // A refusing DLQ (dlq_overflow reject_publish) never takes one more than its cap.
  if (!cap || scenario_.broker.dlq_overflow == config::Overflow::kRejectPublish) return;
  // "continuous" keeps the newest `cap`. "on_dead_letter" keeps cap - 1, as Sidekiq's
  // ZREMRANGEBYRANK dead 0 -dead_max_jobs does: with N >= cap members it removes ranks
  // 0 .. N - cap, leaving cap - 1 (docs/PRESETS-AUDIT.md section 2). The oldest go for good.
  const int64_t keep = on_dead_letter ? *cap - 1 : *cap;
  while (ledger_.count(MessageState::kDeadLettered) > keep && !broker_.dlq_empty()) {
    const DlqEntry entry = broker_.PopOldestDeadLetter();
    if (!broker_.IsCurrent(entry)) continue;
    ExpireDeadLetter(entry.ref, /*trimmed=*/true);
  }
}

void World::ExpireDeadLetter(MessageRef ref, bool trimmed) {
  Message& m = messages_.Get(ref);
  DRAINSIM_CHECK(m.state == MessageState::kDeadLettered);
  Transition(m, MessageState::kExpired, TransitionNote{.cause = TransitionCause::kExpired});
  ++metrics_.results().expired;
  if (trimmed) ++metrics_.results().dlq_trimmed;
  ReleaseIfDone(ref);
}

void World::ScheduleExpiry(MessageRef ref, const Message& m) {
  if (!scenario_.broker.dlq_retention) return;
  const engine::Instant base =
      scenario_.broker.dlq_retention_from == config::RetentionFrom::kEnqueued ? m.published_at
                                                                              : m.dead_lettered_at;
  const engine::Instant deadline = base + *scenario_.broker.dlq_retention;
  if (scenario_.broker.dlq_trim == config::DlqTrim::kOnDeadLetter) {
    // No timer: the next dead-letter after the deadline removes it (TrimDlq). One that could
    // only pass it after the run is not kept.
    if (deadline < until_) broker_.AddRetentionDeadline(deadline, DlqEntry{ref, m.dead_letters});
    return;
  }
  const engine::Instant at = std::max(deadline, now_);
  if (at >= until_) return;
  At(at,
     Event{EventType::kDlqExpire, ref.slot,
           (static_cast<uint64_t>(ref.generation) << 32) | static_cast<uint32_t>(m.dead_letters)});
}

void World::DlqExpire(const Event& event) {
  const MessageRef ref{event.a, static_cast<uint32_t>(event.b >> 32)};
  if (!messages_.IsLive(ref)) return;
  const Message& m = messages_.Get(ref);
  if (m.state != MessageState::kDeadLettered ||
      static_cast<uint32_t>(m.dead_letters) != static_cast<uint32_t>(event.b)) {
    return;
  }
  ExpireDeadLetter(ref, /*trimmed=*/false);
}

}  // namespace drainsim::model
