// The broker's side of a run: delivery to workers, visibility timeouts, the delay queue and the
// parking lot (the DLQ: world_dlq.cc; crashes, restarts and rebalances: world_crash.cc).
#include <algorithm>

#include "sim/config/enum_names.h"
#include "sim/model/keys.h"
#include "sim/model/world.h"

namespace drainsim::model {

namespace {

// When a delivery whose visibility timeout ends at `timeout_at` is handed out again: then, or
// with broker.restore_sweep at the first sweep (a multiple of the period) after it.
engine::Instant RestoredAt(engine::Instant timeout_at,
                           const std::optional<engine::Duration>& sweep) {
  if (!sweep) return timeout_at;
  const int64_t period_us = sweep->micros();
  DRAINSIM_CHECK(period_us > 0);
  return engine::Instant::Micros((timeout_at.micros() / period_us + 1) * period_us);
}

// Delivered and not yet settled: what NATS JetStream's MaxAckPending counts (broker
// ack_pending_max). The receive count does not change across a Transition.
bool AckPending(MessageState state, const Message& m) {
  if (m.receive_count == 0) return false;
  return state == MessageState::kReady || state == MessageState::kDelayed ||
         state == MessageState::kInFlight;
}

// A partition's lag counts its messages in these states (group_tallies.h).
bool CountsAsLag(MessageState state) {
  return state == MessageState::kReady || state == MessageState::kDelayed ||
         state == MessageState::kInFlight || state == MessageState::kDeadLetterWaiting;
}

}  // namespace

void World::Transition(Message& message, MessageState to, const TransitionNote& note) {
  const MessageState from = message.state;
  ack_pending_ += static_cast<int64_t>(AckPending(to, message)) -
                  static_cast<int64_t>(AckPending(from, message));
  DRAINSIM_CHECK(ack_pending_ >= 0);
  // First the record against its own last transition (MessageStore's invariant (4)), then the
  // move against the table of legal ones (the ledger).
  messages_.Move(message, to);
  ledger_.Move(from, to);
  if (IsTerminal(to) || to == MessageState::kDeadLettered) NoteLeftPipeline(message);
  if (IsTerminal(to) || to == MessageState::kDeadLettered) message.eta = engine::Instant::Never();
  if (to == MessageState::kDeadLettered) metrics_.InspectDlq(message, +1);
  if (message.state == MessageState::kDeadLettered) {
    metrics_.InspectDlq(message, -1);
    NoteDlqExit();
  }
  if (message.state == MessageState::kDeadLettered && message.pending_in_drain >= 0) {
    // Expired or parked while a drain still listed it.
    drains_.Unlist(static_cast<uint32_t>(message.pending_in_drain));
    message.pending_in_drain = -1;
  }
  message.state = to;
  if (group_tallies_) [[unlikely]] {
    NoteGroupTransition(message, from, to);
  }
  if (notify_.attached()) [[unlikely]] {
    notify_.Transition(now_, message, from, note);
  }
}

void World::NoteGroupTransition(const Message& message, MessageState from, MessageState to) {
  if (from == to) return;
  if (ordering_keys_) [[unlikely]] {
    NoteKeyTransition(message, from, to);  // world_ordered.cc
    return;
  }
  MessageGroups& groups = broker_.groups();
  const uint32_t group = groups.GroupOf(message.id);
  if (group_tallies_->tracking() && CountsAsLag(from) != CountsAsLag(to)) {  // partitions only
    CountsAsLag(to) ? group_tallies_->Entered(group) : group_tallies_->Left(group);
  }
  if (from == MessageState::kInFlight && !KafkaReleased(message)) groups.RemoveInFlight(group);
  if (to == MessageState::kInFlight) {
    groups.AddInFlight(group);
    group_tallies_->Delivered(group, message.id, now_);
  } else if (to != MessageState::kReady) {
    group_tallies_->LeftHead(group, message.id, now_);
  }
  if (to == MessageState::kAcked) group_tallies_->Acked(group, message.id);
}

bool World::IsCurrent(const Delivery& delivery) const {
  if (!messages_.IsLive(delivery.message)) return false;
  const Message& m = messages_.Get(delivery.message);
  return m.state == MessageState::kInFlight &&
         m.delivery_generation == delivery.delivery_generation;
}

void World::MakeReady(MessageRef ref, Message& m, const TransitionNote& note, ReadyFrom from) {
  Transition(m, MessageState::kReady, note);
  m.ready_at = now_;
  const config::RequeuePosition position = scenario_.broker.requeue_position;
  if (ordering_keys_ && PushKeyInPlace(ref, m)) [[unlikely]] {
    // an ordering key's message back in its place (world_ordered.cc)
  } else if (broker_.grouped() && from != ReadyFrom::kOther) {
    broker_.PushReturned(ref);  // the front of its group (the loader requires position tail)
  } else if (from == ReadyFrom::kTimedOut && position == config::RequeuePosition::kRestoredToHead) {
    broker_.PushRestored(ref);
  } else if ((from == ReadyFrom::kReturned && position == config::RequeuePosition::kHead) ||
             (m.receive_count > 0 && position == config::RequeuePosition::kRedeliveriesFirst)) {
    broker_.PushReturned(ref);
  } else {
    broker_.PushReady(ref);
  }
  Dispatch();
}

void World::Requeue(MessageRef ref, Message& m, RedeliveryCause cause, TransitionCause why,
                    ReadyFrom from) {
  m.cause = cause;
  MakeReady(ref, m, TransitionNote{.cause = why, .redelivery = cause}, from);
}

bool World::CountReturn(MessageRef ref, Message& m, config::ReturnKind kind) {
  const config::Broker& broker = scenario_.broker;
  if (broker.delivery_counted[static_cast<size_t>(kind)]) ++m.delivery_count;
  if (broker.delivery_limit && m.delivery_count > *broker.delivery_limit) {
    DeadLetter(ref, m, config::DlqReason::kDeliveryLimit);
    return true;
  }
  return false;
}

void World::ReturnToQueue(MessageRef ref, Message& m, config::ReturnKind kind,
                          RedeliveryCause cause, TransitionCause why) {
  m.cause = cause;
  if (CountReturn(ref, m, kind)) return;
  if (const std::optional<engine::Duration> wait = ReturnWait(m, kind)) {
    DelayReturn(ref, m, *wait, cause, why);
    return;
  }
  Requeue(ref, m, cause, why, ReadyFrom::kReturned);
}

std::optional<engine::Duration> World::ReturnWait(const Message& m, config::ReturnKind kind) const {
  const std::optional<config::DelayedRetry>& delayed = scenario_.broker.delayed_retry;
  if (!delayed) return std::nullopt;
  // RabbitMQ's delivery-failed flag is set exactly for the returns that count (rabbit_fifo
  // incr_msg_headers), so "failed" is delivery_counted's set.
  const bool failed = scenario_.broker.delivery_counted[static_cast<size_t>(kind)];
  if ((delayed->type == config::DelayedRetryType::kFailed && !failed) ||
      (delayed->type == config::DelayedRetryType::kReturned && failed)) {
    return std::nullopt;
  }
  const int64_t count = std::max<int64_t>(1, m.delivery_count);
  // min x count, clamped to max; the product saturates rather than overflows.
  const int64_t max_us = delayed->max.micros();
  const int64_t min_us = delayed->min.micros();
  const int64_t wait_us = count > max_us / min_us ? max_us : std::min(min_us * count, max_us);
  return engine::Duration::Micros(wait_us);
}

void World::DelayReturn(MessageRef ref, Message& m, engine::Duration wait, RedeliveryCause cause,
                        TransitionCause why) {
  Transition(m, MessageState::kDelayed,
             TransitionNote{.cause = why, .until = now_ + wait, .redelivery = cause});
  At(now_ + wait, Event{EventType::kReturnDue, ref.slot, ref.generation});
}

void World::Dispatch() {
  if (broker_.down()) return;
  if (esm_) [[unlikely]] {
    DispatchEsm();
    return;
  }
  if (broker_.partitioned()) [[unlikely]] {
    if (kafka_) {
      DispatchPolls();  // world_kafka.cc
    } else {
      DispatchPartitions();
    }
    return;
  }
  while (broker_.deliverable() && !pool_.ring_empty()) {
    if (!retry_.breaker().AllowsDelivery()) return;
    if (AckPendingFull()) return;  // silently, until a delivered message settles
    const uint32_t w = pool_.PopRing();
    if (!pool_.CanTake(w)) continue;
    const MessageRef ref = broker_.PopOldestReady();
    if (ordering_keys_) [[unlikely]] {
      HandOutKeyBatch(w, ref, broker_.groups().GroupOf(messages_.Get(ref).id));
    } else {
      HandOut(w, ref);
    }
    pool_.AddToRing(w);
  }
}

// A topic's partitions: a consumer takes only from its own. One with none free leaves the ring
// until one of them is (MessageGroups lists it woken), so a pass costs the consumers offered.
void World::DispatchPartitions() {
  MessageGroups& partitions = broker_.groups();
  for (;;) {
    partitions.TakeWoken([&](uint32_t w) { pool_.AddToRing(w); });
    if (pool_.ring_empty()) return;
    if (!retry_.breaker().AllowsDelivery()) return;
    const uint32_t w = pool_.PopRing();
    if (!pool_.CanTake(w)) continue;
    MessageRef ref;
    if (!partitions.PopNextOf(w, &ref)) continue;
    HandOut(w, ref);
    pool_.AddToRing(w);
  }
}

// The ready message `ref`, just taken off the queue for worker w: delivered, or expired or
// dead-lettered by the broker's rules instead.
void World::HandOut(uint32_t w, MessageRef ref) {
  Message& m = messages_.Get(ref);
  if (RefusedAtReceive(ref, m)) return;
  retry_.breaker().NoteDelivery(Delivery{ref, m.delivery_generation + 1});  // Deliver's
  Deliver(w, ref, m);
}

bool World::RefusedAtReceive(MessageRef ref, Message& m) {
  const auto& receive_count_max = scenario_.broker.receive_count_max;
  if (scenario_.broker.retention && now_ - m.entered_queue_at >= *scenario_.broker.retention) {
    // Main-queue retention (SQS: 4 days), noticed when the message would be delivered.
    Transition(m, MessageState::kExpired,
               TransitionNote{.cause = TransitionCause::kRetentionExpired});
    ++metrics_.results().expired;
    ++metrics_.results().retention_expired;
    ReleaseIfDone(ref);
  } else if (receive_count_max && m.receive_count >= *receive_count_max) {
    // SQS moves a message whose receive count has reached maxReceiveCount to the DLQ
    // instead of delivering it again.
    DeadLetter(ref, m, config::DlqReason::kReceiveCountMax);
  } else {
    return false;
  }
  return true;
}

bool World::AckPendingFull() const {
  const auto& limit = scenario_.broker.ack_pending_max;
  if (!limit || ack_pending_ < *limit) return false;
  // JetStream serves its redelivery queue before the limit's check (getNextMsg): only a
  // message never delivered waits. A redelivery behind one waits too (requeue_position tail).
  return messages_.Get(broker_.NextReady()).receive_count == 0;
}

void World::Deliver(uint32_t w, MessageRef ref, Message& m) {
  Transition(
      m, MessageState::kInFlight,
      TransitionNote{.cause = TransitionCause::kDelivered, .worker = static_cast<int32_t>(w)});
  m.redelivered = m.receive_count > 0;
  ++m.receive_count;
  if (!m.redelivered) {
    ++ack_pending_;  // AckPending's receive count went from 0 to 1 in flight
    const auto& limit = scenario_.broker.ack_pending_max;
    if (limit) DRAINSIM_CHECK(ack_pending_ <= *limit);
  }
  ++m.delivery_generation;
  ++m.copies_on_workers;
  metrics_.results().queue_wait_us.Record((now_ - m.ready_at).micros());
  m.holder = static_cast<int32_t>(w);
  if (!HoldUntilEta(w, Delivery{ref, m.delivery_generation}, m)) {
    pool_.Buffer(w, Delivery{ref, m.delivery_generation});
  }
  // Non-decreasing in now_ with or without a sweep, as the timer FIFO needs.
  const engine::Instant expires_at =
      RestoredAt(now_ + scenario_.broker.visibility_timeout, scenario_.broker.restore_sweep);
  if (!scenario_.broker.lock_renewal &&  // a renewed lock runs out only in LockLapses
      broker_.visibility_timers().Add(
          VisibilityTimer{expires_at, Delivery{ref, m.delivery_generation}})) {
    At(expires_at, Event{EventType::kVisibilityExpired});
  }
  // A timer is live only for an in-flight message's current delivery.
  broker_.visibility_timers().CompactIfSparse(
      static_cast<size_t>(ledger_.count(MessageState::kInFlight)),
      [this](const VisibilityTimer& t) { return !IsCurrent(t.delivery); });
  StartAttempts(w);
}

void World::VisibilityWake() {
  // A timer is stale once its delivery was acked, failed or redelivered.
  const auto stale = [this](const VisibilityTimer& t) { return !IsCurrent(t.delivery); };
  broker_.visibility_timers().BeginWake();
  if (scenario_.broker.requeue_position == config::RequeuePosition::kRestoredToHead) {
    RestoreDueBatch(stale);
  } else {
    while (const auto due = broker_.visibility_timers().PopDue(now_, stale))
      VisibilityExpired(due->delivery);
  }
  if (const auto next = broker_.visibility_timers().EndWake(stale)) {
    At(*next, Event{EventType::kVisibilityExpired});
  }
}

template <typename Stale>
void World::RestoreDueBatch(const Stale& stale) {
  // kombu restores one sweep's expired deliveries newest fetch first (ZREVRANGEBYSCORE), each
  // RPUSHed where BRPOP pops next: the earliest fetched ends up delivered first. Restoring the
  // batch in reverse, each pushed in front, gives that order.
  std::vector<Delivery> batch;
  while (const auto due = broker_.visibility_timers().PopDue(now_, stale))
    batch.push_back(due->delivery);
  for (auto it = batch.rbegin(); it != batch.rend(); ++it) {
    if (IsCurrent(*it)) VisibilityExpired(*it);  // a hook may have returned it already
  }
}

void World::VisibilityExpired(const Delivery& delivery) {
  if (VisibilityExpiredHook(delivery)) return;  // a stall past the limit, a closed channel
  const MessageRef ref = delivery.message;
  Message& m = messages_.Get(ref);
  Requeue(ref, m, ExpiryCause(m), TransitionCause::kVisibilityTimeout, ReadyFrom::kTimedOut);
}

void World::DelayDue(const Event& event) {
  const MessageRef ref{event.a, static_cast<uint32_t>(event.b)};
  if (!messages_.IsLive(ref)) return;
  Message& m = messages_.Get(ref);
  if (m.state != MessageState::kDelayed) return;
  MakeReady(ref, m, TransitionNote{.cause = TransitionCause::kRetryDue});
}

void World::ReturnDue(const Event& event) {
  const MessageRef ref{event.a, static_cast<uint32_t>(event.b)};
  if (!messages_.IsLive(ref)) return;
  Message& m = messages_.Get(ref);
  if (m.state != MessageState::kDelayed) return;
  // rabbit_fifo appends a due message to its returns queue: served as a return.
  MakeReady(ref, m, TransitionNote{.cause = TransitionCause::kRetryDue, .redelivery = m.cause},
            ReadyFrom::kReturned);
}

void World::Park(MessageRef ref, Message& m, const TransitionNote& note) {
  Transition(m, MessageState::kParked, note);
  ReleaseIfDone(ref);
}

void World::ReleaseIfDone(MessageRef ref) {
  if (!messages_.IsLive(ref)) return;
  const Message& m = messages_.Get(ref);
  if (IsTerminal(m.state) && m.copies_on_workers == 0) {
    if (notify_.attached()) [[unlikely]] {
      notify_.Released(now_, m);
    }
    messages_.Release(ref);
  }
}

}  // namespace drainsim::model
