// What crashes, restarts and rebalances do to a run's deliveries: a worker's crash and restart
// (its unacked deliveries returned, kept or lost as broker.requeue_on_crash says), a consumer
// group's rebalance when a consumer leaves or rejoins, and a broker restart.
#include "sim/model/world.h"

namespace drainsim::model {

void World::CrashWorker(uint32_t w, bool after_commit) {
  if (!pool_.Crash(w)) return;                       // down already
  if (!left_group_.empty()) left_group_[w] = false;  // restarted, it joins as a new member
  if (observer_ != nullptr) [[unlikely]] {
    observer_->OnWorkerCrash(w, after_commit, now_);
  }
  KafkaCrashing(w);  // a Kafka poll's batch (world_kafka.cc)
  // Everything the worker held: running attempts first (their time is wasted), then the
  // prefetched buffer. Slot order keeps this deterministic.
  std::vector<Delivery> held;
  for (uint32_t slot = 0; slot < pool_.slot_count(); ++slot) {
    Attempt& a = pool_.attempt(slot);
    if (!a.live || a.worker != w) continue;
    metrics_.results().wasted_worker_s += (now_ - a.started_at).seconds();
    if (notify_.attached()) [[unlikely]] {
      notify_.AttemptEnd(now_, slot, a, messages_.Get(a.delivery.message), AttemptOutcome::kCrashed,
                         AckFate::kNone, config::ErrorClass::kUnknown, FailureCause::kNone);
    }
    if (a.holds_claim && messages_.IsLive(a.delivery.message)) {
      keys_.State(messages_.Get(a.delivery.message)).claim_held =
          false;  // the transaction rolls back
    }
    held.push_back(a.delivery);
    pool_.EndAttempt(slot);
  }
  const size_t running_count = held.size();
  // Lost acks come back as lost acks; TakeHeld ends with nothing unacked on the dead worker.
  const size_t withheld_from = pool_.TakeHeld(w, held).withheld_from;
  DRAINSIM_CHECK(pool_.worker(w).running == 0);  // EndAttempt took each running attempt off
  for (size_t i = 0; i < held.size(); ++i) {
    const Delivery& d = held[i];
    Message& m = messages_.Get(d.message);
    --m.copies_on_workers;
    if (IsCurrent(d)) {
      const RedeliveryCause cause = i >= withheld_from ? RedeliveryCause::kLostAck
                                    : after_commit && keys_.State(m).committed
                                        ? RedeliveryCause::kCrashAfterCommit
                                        : RedeliveryCause::kOther;
      const config::RequeueOnCrash mode = scenario_.broker.requeue_on_crash;
      if (mode == config::RequeueOnCrash::kLost) {
        // Sidekiq OSS: BRPOP took the job out of Redis; it died with the process.
        m.cause = cause;
        LoseByBroker(d.message, m, BrokerLossCause::kCrash);
      } else if (mode == config::RequeueOnCrash::kFail && i < running_count) {
        // acks_late without task_reject_on_worker_lost: WorkerLostError fails the task and acks
        // its message; nothing runs it again.
        m.cause = cause;
        LoseByBroker(d.message, m, BrokerLossCause::kWorkerLost);
      } else if (mode != config::RequeueOnCrash::kAfterVisibilityTimeout) {
        ReturnToQueue(d.message, m, config::ReturnKind::kCrash, cause,
                      TransitionCause::kCrashRequeue);
      } else {
        m.cause = cause;  // the visibility timeout will hand it out again
        LockLapses(d, now_ + scenario_.broker.visibility_timeout);  // nobody renews it now
      }
    }
    ReleaseIfDone(d.message);
  }
  KafkaCrashed(w);
  At(now_ + scenario_.workers.restart, Event{EventType::kWorkerRestart, w, pool_.generation(w)});
  if (broker_.partitioned() && scenario_.broker.session_timeout) [[unlikely]] {
    At(now_ + *scenario_.broker.session_timeout,
       Event{EventType::kSessionTimeout, w, pool_.generation(w)});
  }
  // A probe that died with the worker recorded no outcome: without its permit back, a
  // half-open breaker whose probes all died would wait for ever (issue 20).
  bool permit_back = false;
  for (const Delivery& d : held) permit_back = retry_.breaker().ProbeVanished(d) || permit_back;
  if (permit_back) Dispatch();
}

void World::RestartWorker(const Event& event) {
  if (!pool_.Restart(event.a, static_cast<uint32_t>(event.b))) return;  // crashed again since
  if (observer_ != nullptr) [[unlikely]] {
    observer_->OnWorkerRestart(event.a, now_);
  }
  // A consumer a rebalance left out joins the group again: another rebalance.
  if (broker_.partitioned() && !broker_.groups().IsMember(event.a)) Rebalance();
  Dispatch();
}

void World::SessionTimedOut(const Event& event) {
  const uint32_t w = event.a;
  if (pool_.alive(w) || pool_.generation(w) != static_cast<uint32_t>(event.b)) return;
  if (!broker_.groups().IsMember(w)) return;  // left out already
  Rebalance();
  Dispatch();
}

// The partitions in ranges over the consumers alive now that have not left the group; nothing
// changes with none (the group is empty until one comes back, and keeps its last assignment).
void World::Rebalance() {
  std::vector<bool> member(pool_.size());
  bool any = false;
  for (uint32_t w = 0; w < pool_.size(); ++w) {
    member[w] = pool_.alive(w) && (left_group_.empty() || !left_group_[w]);
    any = any || member[w];
  }
  if (!any) return;
  KafkaRebalancing();
  broker_.groups().Reassign(member);
  ++metrics_.results().rebalances;
}

void World::LeaveGroup(uint32_t w) {
  if (left_group_.empty()) left_group_.assign(pool_.size(), false);
  left_group_[w] = true;
  Rebalance();
}

void World::RejoinGroup(uint32_t w) {
  left_group_[w] = false;
  Rebalance();
}

void World::BrokerRestart(const Event& event) {
  const auto& fault = std::get<config::BrokerRestartFault>(scenario_.faults[event.a]);
  broker_.set_down(true);
  if (observer_ != nullptr) [[unlikely]] {
    observer_->OnFaultEdge(event.a, FaultEdge::kStrike, now_);
  }
  // A restart closes every connection, as a consumer timeout closes one channel: running
  // attempts go on as stale copies (their acks go nowhere), prefetched and withheld copies are
  // dropped with the channel, and the current deliveries are returned, counting towards the
  // delivery limit as a closed connection's returns do (RabbitMQ 3.x: live-restart.json's
  // redeliveries carried x-delivery-count >= 1). Nothing is delivered until the broker is back.
  for (uint32_t w = 0; w < pool_.size(); ++w) {
    if (pool_.alive(w)) CloseChannel(w, ChannelClose::kBrokerRestart);
  }
  // What no live consumer holds (a crashed worker's lease still running under
  // requeue_on_crash after_visibility_timeout) goes back too, uncounted: no channel returned it.
  std::vector<MessageRef> in_flight;
  messages_.ForEachLive([&](MessageRef ref, const Message& m) {
    if (m.state == MessageState::kInFlight) in_flight.push_back(ref);
  });
  for (MessageRef ref : in_flight) {
    Message& m = messages_.Get(ref);
    m.cause = RedeliveryCause::kOther;
    Transition(m, MessageState::kReady,
               TransitionNote{.cause = TransitionCause::kBrokerRestart,
                              .redelivery = RedeliveryCause::kOther});
    m.ready_at = now_;
    if (scenario_.broker.requeue_position == config::RequeuePosition::kRedeliveriesFirst ||
        broker_.grouped()) {
      broker_.PushReturned(ref);  // a redelivery, as MakeReady would have it
    } else {
      broker_.PushReady(ref);
    }
  }
  // The recovery (the broker's start and the clients' reconnection, docs/MODEL.md) keeps the
  // broker unavailable exactly as the downtime does: one resume, at the end of both.
  At(now_ + fault.downtime + fault.recovery, Event{EventType::kBrokerResume});
}

}  // namespace drainsim::model
