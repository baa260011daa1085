// Producers' ticks, the initial backlog, and the fates decided when a message is published.
#include "sim/model/keys.h"
#include "sim/model/world.h"

namespace drainsim::model {

namespace {

uint32_t MessageKindIndex(const config::Scenario& scenario, const std::string& name) {
  uint32_t index = 0;
  for (const auto& [kind_name, kind] : scenario.kinds) {
    if (kind_name == name) return index;
    ++index;
  }
  DRAINSIM_CHECK(false);  // the loader guarantees kinds exist
  return 0;
}

}  // namespace

void World::ProducerTick(uint32_t p) {
  // The producer decides how many and when next (producers.h); the messages and the queue
  // are World's.
  const Producers::Tick tick = producers_.Fire(p, now_);
  for (int64_t i = 0; i < tick.count; ++i) {
    Publish(tick.kind_index, p, false, MessageState::kReady, now_);
  }
  if (tick.next < until_) At(tick.next, Event{EventType::kProducerTick, p});
  Dispatch();
  EnforceMaxLength(tick.count);
}

void World::EnforceMaxLength(int64_t published) {
  // Checked after dispatch, so that a publish a free worker takes at once never overflows
  // (max_length 0 is then a pure loss system, M/M/c/c).
  const auto& max_length = scenario_.broker.max_length;
  if (!max_length) return;
  if (scenario_.broker.overflow == config::Overflow::kRejectPublish) {
    // The newest publishes are refused: they are at the back of the queue.
    while (published > 0 && broker_.ready_count() > *max_length) {
      const MessageRef ref = broker_.PopNewestReady();
      Message& m = messages_.Get(ref);
      Transition(m, MessageState::kRejected, TransitionNote{.cause = TransitionCause::kRejected});
      ReleaseIfDone(ref);
      --published;
    }
    return;
  }
  while (broker_.ready_count() > *max_length) {
    const MessageRef ref = broker_.PopOldestReady();
    DeadLetter(ref, messages_.Get(ref), config::DlqReason::kMaxLength);
  }
}

void World::PublishBacklog() {
  for (uint32_t b = 0; b < scenario_.backlog.size(); ++b) {
    const config::BacklogEntry& entry = scenario_.backlog[b];
    const uint32_t kind = MessageKindIndex(scenario_, entry.kind);
    const engine::Instant published_at = engine::Instant::Zero() - entry.age;
    for (int64_t i = 0; i < entry.count; ++i) {
      MessageState state = MessageState::kReady;
      if (entry.where == config::BacklogWhere::kDelayed) state = MessageState::kDelayed;
      if (entry.where == config::BacklogWhere::kDlq) state = MessageState::kDeadLettered;
      const MessageRef ref = Publish(kind, b, true, state, published_at,
                                     entry.reason.value_or(config::DlqReason::kMaxAttempts));
      Message& m = messages_.Get(ref);
      m.attempts = static_cast<int32_t>(entry.attempts);
      m.failures = static_cast<int32_t>(entry.attempts);
      if (entry.error) m.last_error = *entry.error;
      if (m.attempts > 0) m.first_failure_at = published_at;
      if (state == MessageState::kDelayed) {
        At(engine::Instant::Zero() + entry.due_in.value_or(engine::Duration::Zero()),
           Event{EventType::kDelayDue, ref.slot, ref.generation});
      } else if (state == MessageState::kDeadLettered) {
        // The backlog states only the first publish; the DLQ entry is dated from it too,
        // which makes retention count conservatively.
        m.dead_lettered_at = published_at;
        m.dead_letters = 1;
        metrics_.InspectDlq(m, +1);
        broker_.AddDeadLetter(ref, m.dead_letters);
        ScheduleExpiry(ref, m);
      }
    }
  }
}

MessageRef World::Publish(uint32_t kind_index, uint32_t source_index, bool from_backlog,
                          MessageState state, engine::Instant published_at,
                          config::DlqReason dlq_reason) {
  const MessageRef ref = messages_.Create(state);
  Message& m = messages_.Get(ref);
  m.id = next_message_id_++;
  m.kind_index = kind_index;
  m.source_index = source_index;
  m.from_backlog = from_backlog;
  m.published_at = published_at;
  m.entered_queue_at = published_at;
  m.ready_at = now_;
  if (state == MessageState::kDeadLettered) {
    m.dlq_reason = dlq_reason;
    m.first_dlq_reason = dlq_reason;
  }
  std::string key;  // rendered only when keys are shared, or an observer wants to see them
  if (!kinds_[kind_index].unique_keys || notify_.wants_keys()) {
    key = keys_.Text(m);
    if (!kinds_[kind_index].unique_keys) m.key_hash = HashKey(key);
  }
  ledger_.Publish(state);
  metrics_.Published(kind_index);
  faults_.AssignPublishFates(m, now_);
  if (state == MessageState::kReady) broker_.PushReady(ref);
  if (group_tallies_ && group_tallies_->tracking() && state != MessageState::kDeadLettered) {
    group_tallies_->Entered(broker_.groups().GroupOf(m.id));  // a new record: lag + 1
  }
  if (state != MessageState::kDeadLettered) {
    EnterPipeline(PipelineEntry{m.entered_queue_at, ref, m.replays});
  }
  if (notify_.attached()) [[unlikely]] {
    notify_.Publish(now_, m, key);
  }
  return ref;
}

}  // namespace drainsim::model
