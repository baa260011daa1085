// Leases, ETAs and consumer timeouts (docs/MODEL.md, "Leases, ETAs and consumer timeouts"):
//  - retry.delivery eta_in_consumer: a retry is ready at once with an ETA; a worker that takes
//    it holds the copy outside its prefetch until the ETA, while the visibility timeout runs.
//  - broker.lock_renewal and the stalled-job check (BullMQ): a lock runs out only during a CPU
//    step longer than it, after a crash or after a lost ack; the expiry is acted on at the next
//    stalled check; broker.stalled_count_max dead-letters (reason stalled).
//  - broker.on_visibility_timeout close_channel (RabbitMQ's consumer timeout up to 4.2): every
//    current delivery of the consumer is returned at once; a lost ack's delivery stays on the
//    channel until then (Worker::withheld). cancel_consumer (4.3): only the timed-out delivery
//    is returned, counted as a consumer_timeout return.
#include "sim/model/world.h"

namespace drainsim::model {

namespace {

uint64_t DeliveryWord(const Delivery& d) {
  return (static_cast<uint64_t>(d.message.generation) << 32) | d.delivery_generation;
}

Delivery DeliveryOf(const Event& event) {
  return Delivery{MessageRef{event.a, static_cast<uint32_t>(event.b >> 32)},
                  static_cast<uint32_t>(event.b)};
}

}  // namespace

// ---- eta_in_consumer ----------------------------------------------------------------------

void World::RetryWithEta(MessageRef ref, Message& m, engine::Duration delay) {
  m.eta = now_ + delay;
  MakeReady(ref, m, TransitionNote{.cause = TransitionCause::kRetryScheduled, .until = m.eta});
}

bool World::HoldUntilEta(uint32_t w, const Delivery& delivery, const Message& m) {
  if (m.eta == engine::Instant::Never() || m.eta <= now_) return false;
  pool_.HoldUntil(w, delivery, m.eta);
  At(m.eta, Event{EventType::kEtaDue, w, pool_.generation(w)});
  return true;
}

void World::EtaDue(const Event& event) {
  const uint32_t w = event.a;
  if (!pool_.ReleaseDue(w, static_cast<uint32_t>(event.b), now_)) return;  // crashed since
  StartAttempts(w);
}

// ---- acks that do not count ---------------------------------------------------------------

bool World::AckVoid(const Attempt& a, const Message& m) const {
  if (a.off_channel) return true;  // its channel closed: the delivery tag is gone
  const bool current =
      m.state == MessageState::kInFlight && m.delivery_generation == a.delivery.delivery_generation;
  // BullMQ: moving a job to completed needs its lock (token); a lapsed or replaced lock fails.
  if (scenario_.broker.lock_renewal &&
      (!current || m.lock_lost_generation == a.delivery.delivery_generation)) {
    return true;
  }
  // Service Bus: completing a message whose lock expired fails (MessageLockLostException).
  if (!current && scenario_.broker.stale_ack == config::StaleAck::kRefused) return true;
  // A stale ETA copy (redelivered while held): only the current delivery's ack counts.
  return !current && m.eta != engine::Instant::Never();
}

// ---- lost acks on a channel (close_channel) -------------------------------------------

void World::WithholdLostAck(const Attempt& a, Message& m) {
  const config::Broker& broker = scenario_.broker;
  if (broker.on_visibility_timeout != config::OnVisibilityTimeout::kCloseChannel ||
      broker.lock_renewal || a.off_channel || !IsCurrent(a.delivery)) {
    // The visibility timeout hands this one message out again (SQS and the like); a stale
    // copy's ack (its message already handed out again) holds nothing.
    return;
  }
  // RabbitMQ: an ack never sent leaves the delivery unacked on the channel. It keeps its
  // prefetch slot (FinishCopy gives back the attempt's) and its copy, and comes back with every
  // other unacked delivery of the channel when the consumer timeout closes it, or at once when
  // the worker crashes. Measured against RabbitMQ 3.10 by drainsim live (README, "Crashes and
  // lost acks").
  pool_.Withhold(a.worker, a.delivery);
  ++m.copies_on_workers;
}

// ---- lock renewal, stalled jobs -----------------------------------------------------------

void World::CpuStepStarted(uint32_t slot, engine::Duration cpu) {
  const config::Broker& broker = scenario_.broker;
  if (!broker.lock_renewal || cpu <= broker.visibility_timeout) return;
  const Attempt& a = pool_.attempt(slot);
  if (!IsCurrent(a.delivery)) return;
  LockLapses(a.delivery, now_ + broker.visibility_timeout);
}

void World::LockLapses(const Delivery& delivery, engine::Instant at) {
  if (!scenario_.broker.lock_renewal) return;
  At(at, Event{EventType::kLockExpired, delivery.message.slot, DeliveryWord(delivery)});
}

void World::LockExpired(const Event& event) {
  const Delivery d = DeliveryOf(event);
  if (!IsCurrent(d)) return;
  Message& m = messages_.Get(d.message);
  m.lock_lost_generation = d.delivery_generation;  // acks of this delivery fail from now on
  const auto& period = scenario_.broker.stalled_check;
  engine::Instant act_at = now_;
  if (period) {
    // The next check at a multiple of the period, at or after the expiry.
    const int64_t p = period->micros();
    const int64_t t = now_.micros();
    act_at = engine::Instant::Micros((t + p - 1) / p * p);
  }
  if (act_at == now_) {
    ActOnStall(d.message, m);
  } else {
    At(act_at, Event{EventType::kStalledCheck, event.a, event.b});
  }
}

void World::StalledCheck(const Event& event) {
  const Delivery d = DeliveryOf(event);
  if (!IsCurrent(d)) return;
  ActOnStall(d.message, messages_.Get(d.message));
}

void World::ActOnStall(MessageRef ref, Message& m) {
  ++m.stalled_count;
  m.cause = ExpiryCause(m);
  const auto& max = scenario_.broker.stalled_count_max;
  if (max && m.stalled_count > *max) {
    DeadLetter(ref, m, config::DlqReason::kStalled);
    return;
  }
  // BullMQ moves a stalled job back to wait.
  Requeue(ref, m, m.cause, TransitionCause::kVisibilityTimeout, ReadyFrom::kTimedOut);
}

// ---- ordinary visibility timeouts: stalls, closed channels ---------------------------------

bool World::VisibilityExpiredHook(const Delivery& delivery) {
  const config::Broker& broker = scenario_.broker;
  Message& m = messages_.Get(delivery.message);
  // The consumer timeout closes the holder's channel whatever else the expiry does.
  const int32_t closes =
      broker.on_visibility_timeout == config::OnVisibilityTimeout::kCloseChannel && m.holder >= 0 &&
              pool_.Holds(static_cast<uint32_t>(m.holder), delivery)
          ? m.holder
          : -1;
  if (broker.stalled_count_max && m.stalled_count + 1 > *broker.stalled_count_max) {
    ++m.stalled_count;
    m.cause = ExpiryCause(m);
    DeadLetter(delivery.message, m, config::DlqReason::kStalled);
    // Before this, a withheld copy (a lost ack) of the dead-lettered message stayed on its
    // channel for ever, holding a prefetch slot: with prefetch 1 every worker ended up full and
    // the ready messages stalled (generated scenario seed 12360: ack_loss, close_channel and
    // stalled_count_max 0).
    if (closes >= 0) {
      CloseChannel(static_cast<uint32_t>(closes), ChannelClose::kConsumerTimeout);
      Dispatch();  // nothing went back to the queue to wake the dispatcher for the free slot
    } else if (broker_.grouped()) {
      // The dead letter freed its group: nothing else wakes the dispatcher for the group's next
      // message (generated scenario seed 5612: one group, ack_loss, stalled_count_max 0).
      Dispatch();
    }
    return true;
  }
  if (broker.stalled_count_max) ++m.stalled_count;
  if (closes >= 0) {
    CloseChannel(static_cast<uint32_t>(closes), ChannelClose::kConsumerTimeout);
    return true;
  }
  if (KafkaPollIntervalExpired(delivery)) return true;  // a poll's batch (world_kafka.cc)
  if (broker_.partitioned() && ExpiryCause(m) == RedeliveryCause::kVisibilityTimeout &&
      m.holder >= 0 && pool_.Holds(static_cast<uint32_t>(m.holder), delivery)) {
    // Kafka: a consumer that does not poll again within max.poll.interval.ms (the visibility
    // timeout here) "is considered failed and the group will rebalance in order to reassign
    // the partitions to another member" (consumer configuration reference). Its work goes on,
    // stale (the offset commit fails); the record goes back to its partition's front for the
    // next owner, from the last committed offset. It rejoins when that attempt ends
    // (FinishCopy), a second rebalance.
    LeaveGroup(static_cast<uint32_t>(m.holder));
    Requeue(delivery.message, m, RedeliveryCause::kRebalance, TransitionCause::kVisibilityTimeout,
            ReadyFrom::kTimedOut);
    return true;
  }
  if (broker.on_visibility_timeout == config::OnVisibilityTimeout::kCancelConsumer &&
      m.holder >= 0 && pool_.Holds(static_cast<uint32_t>(m.holder), delivery)) {
    // RabbitMQ 4.3 quorum queues: the queue returns just this delivery (rabbit_fifo's timeout
    // check) and cancels the consumer, which subscribes again at once; the work still running
    // on it is stale, and its other deliveries stay with it.
    ReturnToQueue(delivery.message, m, config::ReturnKind::kConsumerTimeout, ExpiryCause(m),
                  TransitionCause::kVisibilityTimeout);
    return true;
  }
  return false;  // a plain redelivery (also when the holder crashed and the broker waited)
}

void World::CloseChannel(uint32_t w, ChannelClose why) {
  // Everything the channel carried leaves it first: running attempts go on as stale copies
  // (slot order), buffered, withheld and ETA-held copies are dropped (delivery order). Then the
  // current deliveries are returned, and the consumer takes new ones on a new channel at once
  // (after a broker restart: once the broker is back, World::Dispatch).
  std::vector<Delivery> returned;
  pool_.TakeOffChannel(w, returned);
  std::erase_if(returned, [this](const Delivery& d) { return !IsCurrent(d); });
  std::vector<Delivery> held;
  pool_.TakeHeld(w, held);
  std::vector<MessageRef> dropped;
  bool permit_back = false;
  for (const Delivery& d : held) {
    permit_back = retry_.breaker().ProbeVanished(d) || permit_back;
    Message& m = messages_.Get(d.message);
    DRAINSIM_CHECK(m.copies_on_workers > 0);
    --m.copies_on_workers;
    if (IsCurrent(d)) {
      returned.push_back(d);
    } else {
      dropped.push_back(d.message);
    }
  }
  for (MessageRef ref : dropped) ReleaseIfDone(ref);
  pool_.AddToRing(w);
  for (const Delivery& d : returned) {
    if (!IsCurrent(d)) continue;
    Message& m = messages_.Get(d.message);
    if (why == ChannelClose::kConsumerTimeout) {
      ReturnToQueue(d.message, m, config::ReturnKind::kConsumerTimeout, ExpiryCause(m),
                    TransitionCause::kVisibilityTimeout);
    } else {
      ReturnToQueue(d.message, m, config::ReturnKind::kCrash, RedeliveryCause::kOther,
                    TransitionCause::kBrokerRestart);
    }
  }
  StartAttempts(w);
  if (permit_back)
    Dispatch();  // a dropped probe's permit came back (CircuitBreaker::ProbeVanished)
}

}  // namespace drainsim::model
