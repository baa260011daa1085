// The broker's queues during one run (issue 15 step 3: a component of World): the main queue's
// ready messages in delivery order, every delivery's visibility timeout, the DLQ in dead-letter
// order, the pipeline's entries for the age of the oldest message, and whether the broker is down.
// Entries go stale as their messages move on and are skipped lazily; the queues read the message
// store to tell, and never change a message. World moves the messages (MessageStore, the ledger)
// and puts them in and takes them out of these queues.
//
// Invariants:
//  (1) A DLQ entry is current iff its message is live, dead-lettered, and has the entry's
//      dead_letters count: every dead-lettered message has exactly one current entry.
//  (2) A pipeline entry is current iff its message is live, ready, delayed or in flight, and has
//      the entry's replays count; OldestAgeSeconds is the age of the oldest current one.
//  (3) After EnterPipeline the pipeline holds at most 2 x `current` + 4096 entries, so memory
//      follows the pipeline, not the run. (World's audit checks the main queue: simulation.h (2).)
//
// Thread-safety: one run's state; not shared.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <queue>
#include <utility>

#include "sim/base/check.h"
#include "sim/engine/time.h"
#include "sim/engine/timer_fifo.h"
#include "sim/model/message.h"
#include "sim/model/message_groups.h"

namespace drainsim::model {

// A message entering the pipeline (ready, delayed or in flight) by publish or replay; stale
// once it leaves or is replayed again.
struct PipelineEntry {
  engine::Instant entered_at;
  MessageRef ref;
  int32_t replays;
};

// A delivery's visibility timeout; stale once the delivery is acked, failed or redelivered.
struct VisibilityTimer {
  engine::Instant at;
  Delivery delivery;
};

class BrokerQueues {
 public:
  // REQUIRES: `messages` outlives the queues.
  explicit BrokerQueues(const MessageStore& messages) : messages_(messages) {}

  // ---- the main queue ----------------------------------------------------------------------
  // Ready messages wait in two lines: returned ones (broker.requeue_position head: a quorum
  // queue's returns queue), delivered first in the order returned, then all others in the
  // order they became ready. With restored_to_head the first line is a stack: a message whose
  // visibility timeout ran out is delivered before every other (kombu's RPUSH on Redis).
  // With message groups (EnableGroups) the lines are the groups' (message_groups.h): a publish
  // joins its group's back, a returned or restored message its group's front.
  void EnableGroups(int64_t count) { groups_.emplace(count); }
  // Groups owned by consumers (broker.partitions): a topic's partitions, each delivered only to
  // its owner (PopNextOf), in ranges over `consumers` (MessageGroups::AssignOwners).
  void EnablePartitions(int64_t count, uint32_t consumers) {
    groups_.emplace(count);
    groups_->AssignOwners(consumers);
  }
  bool grouped() const { return groups_.has_value(); }
  bool partitioned() const { return groups_ && groups_->owned(); }
  void PushReady(MessageRef ref) {
    if (groups_) [[unlikely]] {
      groups_->PushBack(ref, GroupOf(ref));
      return;
    }
    main_.push_back(ref);
  }
  void PushReturned(MessageRef ref) {
    if (groups_) [[unlikely]] {
      groups_->PushFront(ref, GroupOf(ref));
      return;
    }
    returns_.push_back(ref);
  }
  void PushRestored(MessageRef ref) {
    if (groups_) [[unlikely]] {
      groups_->PushFront(ref, GroupOf(ref));
      return;
    }
    returns_.push_front(ref);
  }
  // True iff a ready message may be delivered now: there is one, and with message groups its
  // group has nothing in flight.
  bool deliverable() {
    if (groups_) [[unlikely]] return groups_->deliverable();
    return !ready_empty();
  }
  // REQUIRES: deliverable(). The next to deliver, taken off.
  MessageRef PopOldestReady() {
    if (groups_) [[unlikely]] return groups_->PopNext();
    std::deque<MessageRef>& line = returns_.empty() ? main_ : returns_;
    DRAINSIM_CHECK(!line.empty());
    const MessageRef ref = line.front();
    line.pop_front();
    return ref;
  }
  // REQUIRES: the last one queued is a publish (PushReady); no message groups (the loader
  // refuses max_length with them). It is taken off (a refused publish).
  MessageRef PopNewestReady() {
    DRAINSIM_CHECK(!groups_ && !main_.empty());
    const MessageRef ref = main_.back();
    main_.pop_back();
    return ref;
  }
  bool ready_empty() const { return ready_count() == 0; }
  int64_t ready_count() const {
    if (groups_) [[unlikely]] return groups_->ready_count();
    return static_cast<int64_t>(main_.size() + returns_.size());
  }
  // REQUIRES: !ready_empty(); no message groups. The next to deliver, not taken off.
  MessageRef NextReady() const {
    DRAINSIM_CHECK(!groups_);
    return returns_.empty() ? main_.front() : returns_.front();
  }
  // Calls visit(ref) for every ready message: in delivery order, or with message groups group
  // by group.
  template <typename Visit>
  void ForEachReady(Visit&& visit) const {
    if (groups_) {
      groups_->ForEachReady(visit);
      return;
    }
    for (const MessageRef ref : returns_) visit(ref);
    for (const MessageRef ref : main_) visit(ref);
  }
  // REQUIRES: grouped(). The groups' lines, for what a transition does to a group's flight.
  MessageGroups& groups() { return *groups_; }

  // ---- the DLQ -----------------------------------------------------------------------------
  void AddDeadLetter(MessageRef ref, int32_t dead_letters) {
    dlq_.push_back(DlqEntry{ref, dead_letters});
  }
  bool IsCurrent(const DlqEntry& entry) const {  // invariant (1)
    if (!messages_.IsLive(entry.ref)) return false;
    const Message& m = messages_.Get(entry.ref);
    return m.state == MessageState::kDeadLettered && m.dead_letters == entry.dead_letters;
  }
  bool dlq_empty() const { return dlq_.empty(); }
  // REQUIRES: !dlq_empty(). The oldest entry, current or stale, taken off.
  DlqEntry PopOldestDeadLetter() {
    DRAINSIM_CHECK(!dlq_.empty());
    const DlqEntry entry = dlq_.front();
    dlq_.pop_front();
    return entry;
  }
  // Every entry, current and stale, oldest first.
  const std::deque<DlqEntry>& dlq() const { return dlq_; }

  // ---- dead letters a full DLQ refused, kept at least once (kDeadLetterWaiting) -----------
  // Every waiting message leaves only into the DLQ, so the FIFO holds no stale entries.
  void HoldDeadLetter(MessageRef ref) { waiting_dead_letters_.push_back(ref); }
  bool dead_letters_waiting() const { return !waiting_dead_letters_.empty(); }
  // REQUIRES: dead_letters_waiting(). The one that has waited longest, taken off.
  MessageRef PopWaitingDeadLetter() {
    DRAINSIM_CHECK(!waiting_dead_letters_.empty());
    const MessageRef ref = waiting_dead_letters_.front();
    waiting_dead_letters_.pop_front();
    return ref;
  }

  // ---- DLQ retention deadlines, for a broker that expires only when a message dies --------
  // (broker.dlq_trim on_dead_letter). Entries stay here, current or stale, until taken.
  void AddRetentionDeadline(engine::Instant deadline, const DlqEntry& entry) {
    deadlines_.push(RetentionDeadline{deadline, next_deadline_sequence_++, entry});
  }
  // Takes the entry with the earliest deadline if that deadline is before `now` (strictly:
  // Sidekiq's ZREMRANGEBYSCORE -inf (now - timeout) keeps an entry exactly at it), into
  // `entry`; false if there is none. Equal deadlines come out in the order they were added.
  bool TakeRetentionDeadlineBefore(engine::Instant now, DlqEntry* entry) {
    if (deadlines_.empty() || !(deadlines_.top().at < now)) return false;
    *entry = deadlines_.top().entry;
    deadlines_.pop();
    return true;
  }
  // Keeps, in order, the current entries for which keep(entry) is true; stale entries go.
  // `keep` may move messages (it is asked about each entry once, oldest first, and may make a
  // later entry stale) but must not add to the DLQ.
  template <typename Keep>
  void FilterDeadLetters(Keep&& keep) {
    std::deque<DlqEntry> kept;
    for (const DlqEntry& entry : dlq_) {
      if (IsCurrent(entry) && keep(entry)) kept.push_back(entry);
    }
    dlq_ = std::move(kept);
  }

  // ---- visibility timeouts -----------------------------------------------------------------
  // Every delivery's visibility timeout, behind one pending kVisibilityExpired event.
  engine::TimerFifo<VisibilityTimer>& visibility_timers() { return visibility_timers_; }

  // ---- the pipeline ------------------------------------------------------------------------
  // `current`: the messages ready, delayed or in flight now (invariant (3)).
  void EnterPipeline(const PipelineEntry& entry, int64_t current) {
    pipeline_.push_back(entry);
    if (static_cast<int64_t>(pipeline_.size()) > 2 * current + 4096) CompactPipeline();
  }
  // The age at `now` of the oldest current entry (invariant (2)); 0 when there is none.
  double OldestAgeSeconds(engine::Instant now);

  // ---- the broker's availability -----------------------------------------------------------
  // Down from a restart (or a test stall) until it is back: nothing is delivered or replayed.
  bool down() const { return down_; }
  void set_down(bool down) { down_ = down; }

 private:
  bool InPipeline(const PipelineEntry& entry) const;
  uint32_t GroupOf(MessageRef ref) const { return groups_->GroupOf(messages_.Get(ref).id); }
  // Entries of messages that finished behind a stuck one pile up; compacting them away when
  // they outnumber the current ones removes at least half, so memory follows the pipeline, not
  // the run, even between samples.
  void CompactPipeline();

  struct RetentionDeadline {
    engine::Instant at;
    uint64_t sequence;  // ties in the order they were added
    DlqEntry entry;
    // For a min-heap: std::priority_queue puts the greatest first.
    bool operator<(const RetentionDeadline& other) const {
      if (at != other.at) return other.at < at;
      return other.sequence < sequence;
    }
  };

  const MessageStore& messages_;
  std::deque<MessageRef> main_;
  std::deque<MessageRef> returns_;  // requeue_position head, redeliveries_first, restored_to_head
  std::optional<MessageGroups> groups_;  // broker.message_groups: replaces main_ and returns_
  engine::TimerFifo<VisibilityTimer> visibility_timers_;
  std::deque<DlqEntry> dlq_;                          // dead-letter order
  std::deque<MessageRef> waiting_dead_letters_;       // refused by the DLQ, oldest first
  std::priority_queue<RetentionDeadline> deadlines_;  // earliest deadline on top
  uint64_t next_deadline_sequence_ = 0;
  std::deque<PipelineEntry> pipeline_;  // entry order; lazily compacted
  bool down_ = false;
};

}  // namespace drainsim::model
