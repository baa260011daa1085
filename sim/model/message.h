// Message records and the store that owns them.
//
// A record lives from publish until the message is terminal (acked, parked, expired) and no
// copy of it is still on a worker; then its slot is reused. Events refer to a record by
// MessageRef (slot + generation), so an event that outlives its message is recognised as
// stale instead of acting on a stranger.
//
// Invariants:
//  (1) A live record's `state` is the message's one state (model::Ledger counts the same).
//  (2) `attempts` counts handler attempts in the current life (reset to 0 by a replay);
//      `receive_count` counts broker deliveries in the current life (SQS ApproximateReceiveCount);
//      `delivery_count` the returns broker.delivery_counted names (quorum x-delivery-count).
//  (3) Slots are reused only after Release; a released slot's generation is bumped.
//  (4) `audited_state` is written by MessageStore only (Create, Move): it is the state the
//      message's last transition (or its publish) gave it, and the store counts live records by
//      it. Move and Release check that `state` still equals it, so a write to `state` that
//      bypasses World::Transition is caught at the message's next transition or its release
//      (the audit's per-message check; a message that never moves again is caught by the
//      audit's recount, World::Audit).
//  (5) At most live_max records are live at once (memory_cost.h (1)): Create throws
//      PendingMessagesMaxExceeded rather than make one more, and creates nothing then.
//
// Thread-safety: none; a run owns its store.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/base/check.h"
#include "sim/config/enums.h"
#include "sim/engine/time.h"
#include "sim/model/memory_cost.h"
#include "sim/model/message_state.h"

namespace drainsim::model {

using engine::Duration;
using engine::Instant;

struct MessageRef {
  uint32_t slot = 0;
  uint32_t generation = 0;
  bool operator==(const MessageRef&) const = default;
};

// One delivery of a message: its copy is current iff delivery_generation equals the message's.
struct Delivery {
  MessageRef message;
  uint32_t delivery_generation = 0;
  bool operator==(const Delivery&) const = default;
};

// An entry of the DLQ (or of a drain's list of it): current iff the message is still dead-lettered
// and its dead_letters count equals `dead_letters`; older entries are stale and skipped.
struct DlqEntry {
  MessageRef ref;
  int32_t dead_letters = 0;
};

// Why a message came back for another execution; attributes duplicate executions to a cause.
enum class RedeliveryCause : uint8_t {
  kNone,
  kLostAck,            // its ack was lost after the work committed
  kCrashAfterCommit,   // its worker died between commit and ack
  kVisibilityTimeout,  // its visibility timeout ran out while a worker was still on it
  kRedrive,            // a drain replayed it
  kNotDeleted,  // its attempt failed and was left for the visibility timeout (SQS) from the DLQ
  kOther,       // crash before commit, broker restart, ...
  kRebalance,   // its consumer overran the visibility timeout (Kafka's max.poll.interval.ms) and
                // left the group: the partition's next owner takes it (world_lease.cc)
  // An earlier message of its Pub/Sub ordering key came back (world_ordered.cc).
  kOrderingKey,
};

// What the database knows about one idempotency key: its work committed, or an uncommitted
// transaction holds its claim row.
struct KeyState {
  bool committed = false;
  bool claim_held = false;
};

struct Message {
  uint64_t id = 0;            // publish order, unique in the run; {id} in key patterns
  uint64_t key_hash = 0;      // hash of the idempotency key when keys are shared, else 0
  KeyState own_key;           // the key's state when keys are unique (key_hash == 0)
  uint32_t kind_index = 0;    // index into the run's kinds (sorted by name)
  uint32_t source_index = 0;  // producer or backlog entry that published it (for key fields)
  bool from_backlog = false;
  MessageState state = MessageState::kReady;
  MessageState audited_state = MessageState::kReady;  // see (4): MessageStore's copy
  bool redelivered = false;                           // the broker's boolean flag
  bool poison = false;                                // fails every attempt, replays included
  bool synthetic = false;          // fails every attempt until dead-lettered once
  bool bug_victim = false;         // fails while the bug fault is active
  bool synthetic_checked = false;  // synthetic-failure selection already considered it
  RedeliveryCause cause = RedeliveryCause::kNone;
  config::ErrorClass last_error = config::ErrorClass::kUnknown;
  config::DlqReason dlq_reason = config::DlqReason::kMaxAttempts;
  config::DlqReason first_dlq_reason = config::DlqReason::kMaxAttempts;  // x-first-death-reason
  uint16_t copies_on_workers = 0;  // deliveries of this message still held by workers
  int32_t attempts = 0;
  int32_t receive_count = 0;
  int32_t delivery_count = 0;  // counted returns in the current life (broker.delivery_limit)
  int32_t stalled_count = 0;   // lock expiries in the current life (stalled_count_max)
  int32_t replays = 0;
  int32_t replayed_by_drain = -1;    // the last drain that replayed it
  int32_t pending_in_drain = -1;     // the drain whose queue lists it, if any
  bool replay_in_pipeline = false;   // replayed and not yet terminal or dead-lettered again
  int32_t failures = 0;              // failed attempts over all lives (dead-letter metadata)
  int32_t executions = 0;            // attempts over all lives: names per-attempt streams
  int32_t dead_letters = 0;          // times dead-lettered: stale DLQ entries compare it
  uint32_t delivery_generation = 0;  // bumped per delivery; stale timers compare it
  Instant published_at;              // first publish (backlog: now - age)
  Instant entered_queue_at;          // entered the main pipeline (first publish or replay): age
  Instant ready_at;                  // last became ready (queue_wait_s is measured from here)
  Instant first_failure_at = Instant::Never();
  Instant dead_lettered_at = Instant::Never();
  Duration backoff_previous;                  // decorrelated jitter's memory
  Instant retry_ready_at = Instant::Never();  // a 429 said: not before this (true time)
  // Leases, ETAs and consumer timeouts (world_lease.cc).
  Instant eta = Instant::Never();     // eta_in_consumer: not to run before this; cleared when
                                      // acked, dead-lettered or parked
  int32_t holder = -1;                // worker given the latest delivery
  uint32_t lock_lost_generation = 0;  // the delivery whose lock expired (0: none)
};

// Why a delivery whose visibility timeout ran out comes back: a lost ack, a crash after commit
// or a failed attempt left undeleted left its cause behind; otherwise a worker was still on it
// (or dead).
inline RedeliveryCause ExpiryCause(const Message& m) {
  return m.cause == RedeliveryCause::kLostAck || m.cause == RedeliveryCause::kCrashAfterCommit ||
                 m.cause == RedeliveryCause::kNotDeleted
             ? m.cause
             : RedeliveryCause::kVisibilityTimeout;
}

class MessageStore {
 public:
  // REQUIRES: 1 <= live_max <= kPendingMessagesMaxLimit (memory_cost.h).
  explicit MessageStore(int64_t live_max = kPendingMessagesMaxLimit)
      : live_max_(static_cast<size_t>(live_max)) {
    DRAINSIM_CHECK(live_max >= 1);
    DRAINSIM_CHECK(live_max <= kPendingMessagesMaxLimit);
  }

  // Creates a record in `state` and returns its reference. The caller fills the other fields.
  // Throws PendingMessagesMaxExceeded iff live_max records are live already (5): the cap's one
  // compare, on a counter the store keeps anyway.
  MessageRef Create(MessageState state = MessageState::kReady) {
    if (live_count_ >= live_max_) [[unlikely]] {
      ThrowPendingMessagesMaxExceeded(static_cast<int64_t>(live_max_));
    }
    uint32_t slot;
    if (!free_.empty()) {
      slot = free_.back();
      free_.pop_back();
    } else {
      DRAINSIM_CHECK(size_ < kSlotsMax);
      slot = static_cast<uint32_t>(size_);
      if (size_ == chunks_.size() * kChunkRecords) {
        chunks_.push_back(std::make_unique<Record[]>(kChunkRecords));
      }
      ++size_;
    }
    Record& r = At(slot);
    r.live = true;
    r.message = Message{};
    r.message.state = state;
    r.message.audited_state = state;
    ++live_by_state_[static_cast<size_t>(state)];
    ++live_count_;
    return MessageRef{slot, r.generation};
  }

  // True iff `ref` names a live record (not released since the reference was made).
  bool IsLive(MessageRef ref) const {
    return ref.slot < size_ && At(ref.slot).live && At(ref.slot).generation == ref.generation;
  }

  // REQUIRES: IsLive(ref).
  Message& Get(MessageRef ref) {
    DRAINSIM_DCHECK(IsLive(ref));
    return At(ref.slot).message;
  }
  const Message& Get(MessageRef ref) const {
    DRAINSIM_DCHECK(IsLive(ref));
    return At(ref.slot).message;
  }

  // Frees the slot. REQUIRES: IsLive(ref), the message is terminal and no worker holds it.
  void Release(MessageRef ref) {
    DRAINSIM_CHECK(IsLive(ref));
    Record& r = At(ref.slot);
    DRAINSIM_CHECK(IsTerminal(r.message.state));
    DRAINSIM_CHECK(r.message.copies_on_workers == 0);
    DRAINSIM_CHECK(r.message.state == r.message.audited_state);  // (4)
    --live_by_state_[static_cast<size_t>(r.message.audited_state)];
    r.live = false;
    ++r.generation;
    free_.push_back(ref.slot);
    --live_count_;
  }

  // The per-message check of (4) and the count by state, for a transition of `message` (a live
  // record of this store) to `to`; the caller then sets message.state = to. O(1).
  void Move(Message& message, MessageState to) {
    DRAINSIM_CHECK(message.state == message.audited_state);  // (4)
    --live_by_state_[static_cast<size_t>(message.audited_state)];
    ++live_by_state_[static_cast<size_t>(to)];
    message.audited_state = to;
  }

  size_t live_count() const { return live_count_; }
  // Live records whose last transition left them in `state` (kept by Create, Move, Release).
  int64_t live_count(MessageState state) const {
    return live_by_state_[static_cast<size_t>(state)];
  }
  // High-water mark of slots: memory is proportional to this, not to messages published.
  size_t slot_count() const { return size_; }

  // Calls fn(ref, message) for every live record, in slot order (deterministic).
  template <typename F>
  void ForEachLive(F&& fn) const {
    for (uint32_t slot = 0; slot < size_; ++slot) {
      const Record& r = At(slot);
      if (r.live) fn(MessageRef{slot, r.generation}, r.message);
    }
  }

 private:
  static constexpr size_t kSlotsMax = uint32_t{0xffffffff};
  struct Record {
    Message message;
    uint32_t generation = 0;
    bool live = false;
  };
  // sim/model/memory_cost.h's figures were measured with this size: re-measure them (the
  // default cap and the loader's refusals follow from them) and update this line when a field
  // is added.
  static_assert(sizeof(Record) == 176, "re-measure sim/model/memory_cost.h");
  // Records live in chunks that never move. A doubling vector would copy its records into an
  // array twice as large, holding both at once: up to twice the records' memory at the peak
  // (a backlog of 2e7 messages peaked at 6.3 GB, issue 20). Chunks cost one record a message.
  static constexpr uint32_t kChunkBits = 12;  // 4096 records, 704 KB
  static constexpr size_t kChunkRecords = size_t{1} << kChunkBits;
  Record& At(uint32_t slot) { return chunks_[slot >> kChunkBits][slot & (kChunkRecords - 1)]; }
  const Record& At(uint32_t slot) const {
    return chunks_[slot >> kChunkBits][slot & (kChunkRecords - 1)];
  }
  std::vector<std::unique_ptr<Record[]>> chunks_;
  size_t size_ = 0;  // slots handed out: records in use or on free_
  std::vector<uint32_t> free_;
  size_t live_count_ = 0;
  size_t live_max_;  // (5)
  std::array<int64_t, kMessageStateCount> live_by_state_{};
};

}  // namespace drainsim::model
