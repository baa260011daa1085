// What RunOptions::observer sees: the info structs of sim/model/observer.h, built from the
// world's records. Called only when an observer is attached; nothing here changes the run.
#include "sim/model/world.h"

namespace drainsim::model {

void World::NotifyPublish(const Message& m, std::string_view key) {
  PublishInfo info;
  info.at = now_;
  info.published_at = m.published_at;
  info.message_id = m.id;
  info.kind_index = m.kind_index;
  info.source_index = m.source_index;
  info.from_backlog = m.from_backlog;
  info.state = m.state;
  info.dlq_reason = m.dlq_reason;
  info.key = key;
  message_observer_->OnPublish(info);
}

void World::NotifyTransition(const Message& m, MessageState from, const TransitionNote& note) {
  TransitionInfo info;
  info.at = now_;
  info.message_id = m.id;
  info.kind_index = m.kind_index;
  info.from = from;
  info.to = m.state;
  info.cause = note.cause;
  info.worker = note.worker;
  info.until = note.until;
  info.drain = note.drain;
  info.dlq_reason = m.dlq_reason;
  info.last_error = m.last_error;
  info.redelivery = note.redelivery;
  info.attempts = m.attempts;
  message_observer_->OnTransition(info);
}

void World::NotifyAttemptStart(uint32_t slot) {
  const Attempt& a = pool_.attempt(slot);
  const Message& m = messages_.Get(a.delivery.message);
  AttemptInfo info;
  info.at = now_;
  info.message_id = m.id;
  info.kind_index = m.kind_index;
  info.slot = slot;
  info.worker = a.worker;
  info.attempt = m.attempts;
  info.execution = m.executions;
  message_observer_->OnAttemptStart(info);
}

void World::NotifyAttemptEnd(uint32_t slot, AttemptOutcome outcome, AckFate ack,
                             config::ErrorClass error, FailureCause failure) {
  const Attempt& a = pool_.attempt(slot);
  const Message& m = messages_.Get(a.delivery.message);
  AttemptEndInfo info;
  info.at = now_;
  info.message_id = m.id;
  info.kind_index = m.kind_index;
  info.slot = slot;
  info.worker = a.worker;
  info.outcome = outcome;
  info.ack = ack;
  info.error = error;
  info.failure = failure;
  if (failure == FailureCause::kInjected) info.fault = a.injected_fault;
  // Called after an ack has moved the message to acked: the copy was current iff it is still
  // the message's latest delivery.
  info.current = m.delivery_generation == a.delivery.delivery_generation &&
                 (m.state == MessageState::kInFlight ||
                  (ack == AckFate::kAcked && m.state == MessageState::kAcked));
  message_observer_->OnAttemptEnd(info);
}

void World::NotifyCommit(uint32_t slot, bool duplicate, DuplicateCause cause, bool visible) {
  const Attempt& a = pool_.attempt(slot);
  const Message& m = messages_.Get(a.delivery.message);
  CommitInfo info;
  info.at = now_;
  info.message_id = m.id;
  info.kind_index = m.kind_index;
  info.slot = slot;
  info.worker = a.worker;
  info.duplicate = duplicate;
  info.duplicate_cause = cause;
  info.visible = duplicate && visible;
  message_observer_->OnCommit(info);
}

void World::NotifySleep(uint32_t slot, engine::Instant until) {
  const Attempt& a = pool_.attempt(slot);
  const Message& m = messages_.Get(a.delivery.message);
  SleepInfo info;
  info.at = now_;
  info.message_id = m.id;
  info.slot = slot;
  info.worker = a.worker;
  info.until = until;
  message_observer_->OnSleep(info);
}

void World::NotifyProgress() {
  if (observer_ != nullptr) observer_->OnProgress(now_, until_, events_processed_);
}

}  // namespace drainsim::model
