// A Kafka consumer group's polls and offset commits (kafka_commit.h; docs/PRESETS.md,
// "partitions"), for broker.offset_commit "batch", "auto" and "before_processing". ("record",
// the kafka preset's, keeps the one-record-at-a-time path of world_broker.cc: a commit after
// each record sees no batch.)
//  - A poll: a consumer with no record left of its last batch takes up to max_poll_records ready
//    records of its partitions at once (MessageGroups::PopBatchOf), all delivered to it, and
//    processes them one at a time in order. Each delivery's visibility timeout
//    (max.poll.interval.ms) starts at the poll, so it bounds the whole batch.
//  - Commits: a processed record stays in flight until its offset commits; then it is acked.
//  - A crash, or a consumer leaving its group over max.poll.interval.ms: the uncommitted records
//    (processed or not) go back to their partitions' fronts in offset order, for the next owner
//    (or the consumer back); a processed one run again is a duplicate (crash_after_commit for a
//    crash, rebalance for a leave). Under before_processing the records a crashed consumer held
//    were committed: lost to the application (broker_lost, cause committed_unprocessed).
//  - A failed record (Spring's DefaultErrorHandler): the rest of the batch is sought back (the
//    records go back to their partitions' fronts, unprocessed), the processed ones before it are
//    committed under "batch", and the failed record goes where the retry policy says.
#include "sim/model/world.h"

namespace drainsim::model {

bool World::KafkaHoldsBatch(uint32_t w) const {
  return kafka_ && (pool_.has_buffered(w) || pool_.worker(w).running > 0);
}

// Dispatch under batched commits: each consumer offered in the ring polls if its last batch is
// done. Like DispatchPartitions, a consumer that finds nothing leaves the ring until one of its
// partitions is free again.
void World::DispatchPolls() {
  MessageGroups& partitions = broker_.groups();
  std::vector<MessageRef> batch;
  for (;;) {
    partitions.TakeWoken([&](uint32_t w) { pool_.AddToRing(w); });
    if (pool_.ring_empty()) return;
    if (!retry_.breaker().AllowsDelivery()) return;
    const uint32_t w = pool_.PopRing();
    if (!pool_.CanTake(w) || KafkaHoldsBatch(w)) continue;  // it polls after its batch
    KafkaMaybeAutoCommit(w);
    batch.clear();
    partitions.PopBatchOf(w, kafka_->max_poll_records(), &batch);
    if (batch.empty()) continue;
    for (const MessageRef ref : batch) HandOut(w, ref);
    pool_.AddToRing(w);
  }
}

// "auto": Kafka commits at a poll once auto.commit.interval.ms has passed since the last commit
// (ConsumerCoordinator.maybeAutoCommitOffsetsAsync), the positions of what earlier polls
// returned: every record processed so far. The timer restarts at that poll.
void World::KafkaMaybeAutoCommit(uint32_t w) {
  if (kafka_->mode() != config::OffsetCommit::kAuto) return;
  if (now_ < kafka_->next_auto_commit_at(w)) return;
  KafkaCommit(w);
  kafka_->set_next_auto_commit_at(w, now_ + kafka_->auto_interval());
}

void World::KafkaCommit(uint32_t w) {
  std::vector<Delivery> done;
  done.swap(kafka_->uncommitted(w));
  for (const Delivery& d : done) {
    if (!IsCurrent(d)) continue;  // handed out again meanwhile (a broker restart)
    Message& m = messages_.Get(d.message);
    Transition(m, MessageState::kAcked, TransitionNote{.cause = TransitionCause::kAcked});
    metrics_.Acked(m.kind_index, (now_ - m.published_at).micros());
    ReleaseIfDone(d.message);
  }
}

// An idle consumer polls on (empty polls) and so commits at its timer: the event stands for
// that poll. A busy one commits at the poll after its batch instead.
void World::KafkaAutoCommitDue(const Event& event) {
  const uint32_t w = event.a;
  if (!pool_.alive(w) || pool_.generation(w) != static_cast<uint32_t>(event.b)) return;
  if (kafka_->uncommitted(w).empty()) return;
  if (KafkaHoldsBatch(w)) {
    // Busy: it commits at its next poll, after its batch (FinishCopy schedules this event again
    // then). A batch that never ends normally (a failed record slept on in the consumer) is
    // looked at again an interval later.
    At(std::max(now_ + kafka_->auto_interval(), kafka_->next_auto_commit_at(w)),
       Event{EventType::kAutoCommitDue, w, pool_.generation(w)});
    return;
  }
  KafkaMaybeAutoCommit(w);
  KafkaScheduleAutoCommit(w);  // in case the timer had not run out (a poll reset it)
}

void World::KafkaBatchDone(uint32_t w) {
  if (!kafka_ || KafkaHoldsBatch(w)) return;
  KafkaScheduleAutoCommit(w);  // however the batch ended: processed, failed, taken back
}

void World::KafkaScheduleAutoCommit(uint32_t w) {
  if (kafka_->mode() != config::OffsetCommit::kAuto || kafka_->uncommitted(w).empty()) return;
  At(std::max(now_, kafka_->next_auto_commit_at(w)),
     Event{EventType::kAutoCommitDue, w, pool_.generation(w)});
}

std::optional<AckFate> World::KafkaProcessed(const Attempt& a, Message& m) {
  if (!kafka_) return std::nullopt;
  if (kafka_->mode() == config::OffsetCommit::kBeforeProcessing) {
    // Its offset was committed at the poll: done, with nothing left to send that a fault could
    // lose (an ack_loss fault's lost ack would otherwise wait for a timeout that, after a leave,
    // never comes: the swarm's seeds 26 and 44 of the before_processing variant).
    Transition(m, MessageState::kAcked, TransitionNote{.cause = TransitionCause::kAcked});
    metrics_.Acked(m.kind_index, (now_ - m.published_at).micros());
    return AckFate::kAcked;
  }
  const uint32_t w = a.worker;
  kafka_->uncommitted(w).push_back(a.delivery);
  kafka_->MarkPending(m.id);
  if (kafka_->mode() == config::OffsetCommit::kAuto) {
    // Invariant (2) of kafka_commit.h: the consumer's position moves past it.
    broker_.groups().RemoveInFlight(broker_.groups().GroupOf(m.id));
    return AckFate::kNone;  // committed at a poll, or at the timer once idle (KafkaBatchDone)
  }
  // "batch": Spring commits once the listener has processed every record of the poll.
  if (pool_.has_buffered(w)) return AckFate::kNone;
  KafkaCommit(w);
  return AckFate::kAcked;
}

bool World::KafkaRecordFailed(uint32_t slot) {
  if (!kafka_) return false;
  const Delivery failed = pool_.attempt(slot).delivery;
  const uint32_t w = pool_.attempt(slot).worker;
  // Under before_processing a consumer that left its group (max.poll.interval.ms) had its batch
  // committed at the poll: the seek moves a position it no longer owns, and when it polls again
  // and rejoins it resumes from the committed offset, past them. The failed record and the rest
  // are lost to the application (at most once).
  const bool lost = kafka_->mode() == config::OffsetCommit::kBeforeProcessing &&
                    !left_group_.empty() && left_group_[w];
  // DefaultErrorHandler (SeekUtils.doSeeks): the partitions of the remaining records are sought
  // back to their first offsets; they come again with the next poll. Taken back in reverse, so
  // that each partition's front is its oldest again once the failed record is in front.
  std::vector<Delivery> rest;
  pool_.TakeBuffered(w, rest);
  for (auto it = rest.rbegin(); it != rest.rend(); ++it) {
    Message& m = messages_.Get(it->message);
    --m.copies_on_workers;
    if (IsCurrent(*it) && lost) {
      LoseByBroker(it->message, m, BrokerLossCause::kCommittedUnprocessed);
    } else if (IsCurrent(*it)) {
      Requeue(it->message, m, RedeliveryCause::kOther, TransitionCause::kReturned,
              ReadyFrom::kReturned);
    }
    ReleaseIfDone(it->message);
  }
  if (lost) {
    LoseByBroker(failed.message, messages_.Get(failed.message),
                 BrokerLossCause::kCommittedUnprocessed);
    return true;
  }
  // Spring commits the offsets of the records processed before the failed one: the container's
  // invokeErrorHandler runs processCommits() before handing the rest to the error handler
  // (KafkaMessageListenerContainer, spring-kafka 3f3cf7d; docs/PRESETS.md).
  if (kafka_->mode() == config::OffsetCommit::kBatch) KafkaCommit(w);
  return false;
}

void World::KafkaCrashing(uint32_t w) {
  if (!kafka_) return;
  const bool committed = kafka_->mode() == config::OffsetCommit::kBeforeProcessing;
  if (committed) {
    // At most once: the poll committed these offsets, so nobody fetches them again. The record
    // in hand first (its attempt ends in CrashWorker, which finds it no longer current).
    for (uint32_t slot = 0; slot < pool_.slot_count(); ++slot) {
      const Attempt& a = pool_.attempt(slot);
      if (!a.live || a.worker != w || !IsCurrent(a.delivery)) continue;
      Message& m = messages_.Get(a.delivery.message);
      m.cause = RedeliveryCause::kOther;
      LoseByBroker(a.delivery.message, m, BrokerLossCause::kCommittedUnprocessed);
    }
  }
  // In reverse, so that each partition's front is its oldest again once CrashWorker has put the
  // record in hand in front of them.
  std::vector<Delivery> buffered;
  pool_.TakeBuffered(w, buffered);
  for (auto it = buffered.rbegin(); it != buffered.rend(); ++it) {
    Message& m = messages_.Get(it->message);
    DRAINSIM_CHECK(m.copies_on_workers > 0);
    --m.copies_on_workers;
    if (IsCurrent(*it)) {
      if (committed) {
        m.cause = RedeliveryCause::kOther;
        LoseByBroker(it->message, m, BrokerLossCause::kCommittedUnprocessed);
      } else {
        ReturnToQueue(it->message, m, config::ReturnKind::kCrash, RedeliveryCause::kOther,
                      TransitionCause::kCrashRequeue);
      }
    }
    ReleaseIfDone(it->message);
  }
}

void World::KafkaCrashed(uint32_t w) {
  if (!kafka_) return;
  // The processed records whose offsets were not committed go back in front of the rest: their
  // work committed, so each run again is a duplicate (crash_after_commit).
  RedeliverUncommitted(w, RedeliveryCause::kCrashAfterCommit, TransitionCause::kCrashRequeue);
  // The consumer that comes back is a new KafkaConsumer: its auto-commit timer starts then.
  kafka_->set_next_auto_commit_at(w, now_ + scenario_.workers.restart + kafka_->auto_interval());
}

void World::RedeliverUncommitted(uint32_t w, RedeliveryCause cause, TransitionCause why) {
  std::vector<Delivery> done;
  done.swap(kafka_->uncommitted(w));
  for (auto it = done.rbegin(); it != done.rend(); ++it) {
    if (!IsCurrent(*it)) continue;
    Requeue(it->message, messages_.Get(it->message), cause, why, ReadyFrom::kReturned);
  }
}

bool World::KafkaPollIntervalExpired(const Delivery& d) {
  if (!kafka_) return false;
  const Message& m = messages_.Get(d.message);
  if (m.holder < 0 || !pool_.alive(static_cast<uint32_t>(m.holder))) return false;
  const auto w = static_cast<uint32_t>(m.holder);
  // Processed, its offset not committed: the timer of a poll the consumer is past ("auto"), or
  // of the batch whose records still held expire at this same instant, later in the FIFO.
  // Neither held nor processed: a failed record the retry policy left in flight (delivery
  // visibility_timeout), which the ordinary expiry hands out again.
  if (!pool_.Holds(w, d)) return kafka_->IsPending(m.id);
  if (!left_group_.empty() && left_group_[w]) return true;  // left already over this batch
  // The consumer has not polled for max.poll.interval.ms: it leaves its group. Under
  // before_processing its batch was committed at the poll: the next owner starts after it, and
  // the consumer, not knowing it left, processes it to the end. Otherwise every uncommitted
  // record goes back for the next owner, the ones in hand last first; the consumer goes on
  // with its copies, stale, and rejoins at its next poll (FinishCopy).
  if (kafka_->mode() != config::OffsetCommit::kBeforeProcessing) {
    std::vector<Delivery> held;
    for (uint32_t slot = 0; slot < pool_.slot_count(); ++slot) {
      const Attempt& a = pool_.attempt(slot);
      if (a.live && a.worker == w) held.push_back(a.delivery);
    }
    const std::deque<Delivery>& buffer = pool_.worker(w).buffer;
    held.insert(held.end(), buffer.begin(), buffer.end());
    for (auto it = held.rbegin(); it != held.rend(); ++it) {
      if (!IsCurrent(*it)) continue;
      Requeue(it->message, messages_.Get(it->message), RedeliveryCause::kRebalance,
              TransitionCause::kVisibilityTimeout, ReadyFrom::kTimedOut);
    }
    RedeliverUncommitted(w, RedeliveryCause::kRebalance, TransitionCause::kVisibilityTimeout);
  }
  LeaveGroup(w);
  Dispatch();
  return true;
}

void World::KafkaRebalancing() {
  if (!kafka_ || kafka_->mode() != config::OffsetCommit::kAuto) return;
  // Kafka commits before a rebalance when auto-commit is on (ConsumerCoordinator.onJoinPrepare):
  // every member that stays commits what it processed.
  for (uint32_t w = 0; w < pool_.size(); ++w) {
    if (pool_.alive(w) && (left_group_.empty() || !left_group_[w])) KafkaCommit(w);
  }
}

bool World::KafkaReleased(const Message& m) {
  if (!kafka_) return false;
  return kafka_->TakePending(m.id) && kafka_->mode() == config::OffsetCommit::kAuto;
}

}  // namespace drainsim::model
