// The info structs of observer.h, built from the records World hands over.
#include "sim/model/message_notifier.h"

namespace drainsim::model {

MessageNotifier::MessageNotifier(RunObserver* observer)
    : observer_(observer != nullptr && observer->WantsMessages() ? observer : nullptr),
      wants_keys_(observer_ != nullptr && observer_->WantsKeys()) {}

void MessageNotifier::Publish(engine::Instant now, const Message& m, std::string_view key) const {
  PublishInfo info;
  info.at = now;
  info.published_at = m.published_at;
  info.message_id = m.id;
  info.kind_index = m.kind_index;
  info.source_index = m.source_index;
  info.from_backlog = m.from_backlog;
  info.state = m.state;
  info.dlq_reason = m.dlq_reason;
  info.key = key;
  observer_->OnPublish(info);
}

void MessageNotifier::Transition(engine::Instant now, const Message& m, MessageState from,
                                 const TransitionNote& note) const {
  TransitionInfo info;
  info.at = now;
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
  info.loss = note.loss;
  info.attempts = m.attempts;
  observer_->OnTransition(info);
}

void MessageNotifier::AttemptStart(engine::Instant now, uint32_t slot, const Attempt& a,
                                   const Message& m) const {
  AttemptInfo info;
  info.at = now;
  info.message_id = m.id;
  info.kind_index = m.kind_index;
  info.slot = slot;
  info.worker = a.worker;
  info.attempt = m.attempts;
  info.execution = m.executions;
  observer_->OnAttemptStart(info);
}

void MessageNotifier::AttemptEnd(engine::Instant now, uint32_t slot, const Attempt& a,
                                 const Message& m, AttemptOutcome outcome, AckFate ack,
                                 config::ErrorClass error, FailureCause failure) const {
  AttemptEndInfo info;
  info.at = now;
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
  observer_->OnAttemptEnd(info);
}

void MessageNotifier::Commit(engine::Instant now, uint32_t slot, const Attempt& a, const Message& m,
                             bool duplicate, DuplicateCause cause, bool visible) const {
  CommitInfo info;
  info.at = now;
  info.message_id = m.id;
  info.kind_index = m.kind_index;
  info.slot = slot;
  info.worker = a.worker;
  info.duplicate = duplicate;
  info.duplicate_cause = cause;
  info.visible = duplicate && visible;
  observer_->OnCommit(info);
}

void MessageNotifier::Statement(engine::Instant now, uint32_t slot, const Attempt& a,
                                const Message& m, engine::Duration latency, bool claim,
                                FailureCause failure) const {
  StatementInfo info;
  info.at = now;
  info.start = now - latency;
  info.message_id = m.id;
  info.kind_index = m.kind_index;
  info.slot = slot;
  info.worker = a.worker;
  info.claim = claim;
  info.failure = failure;
  observer_->OnStatement(info);
}

void MessageNotifier::Sleep(engine::Instant now, uint32_t slot, const Attempt& a, const Message& m,
                            engine::Instant until) const {
  SleepInfo info;
  info.at = now;
  info.message_id = m.id;
  info.slot = slot;
  info.worker = a.worker;
  info.until = until;
  observer_->OnSleep(info);
}

void MessageNotifier::Released(engine::Instant now, const Message& m) const {
  observer_->OnReleased(m.id, now);
}

}  // namespace drainsim::model
