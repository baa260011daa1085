// Pending events of a discrete-event run, handed back earliest first.
//
// EventQueue<Payload> is the future event list: Push schedules a payload at an Instant, Pop
// takes the earliest. Events due at the same instant leave in the order they were pushed, so a
// run never depends on how a heap happens to break ties; that is part of what makes one seed
// reproduce one run.
//
// Layout: the order lives in an EventHeap of 16-byte entries {time_us, key}, with
// key = (push sequence << kSlotBits) | pool slot. Payloads sit still in a pool (a vector plus a
// free list) and are moved exactly twice, in at Push and out at Pop, so a sift moves 16 bytes
// whatever the payload's size.
//
// There is no cancellation. A caller that must cancel puts a generation token in the payload
// and ignores the event when it pops with a stale token.
//
// Invariants:
//  (1) Pop returns events in nondecreasing time: Push refuses an instant earlier than the last
//      popped one (that would make simulated time run backwards).
//  (2) Events with equal times pop in push order.
//  (3) size() <= kPendingMax; pushed_count() <= kPushedMax. Both are checked, in release too.
//  (4) Every pool slot is either referenced by exactly one heap entry or on the free list,
//      never both (CheckInvariants verifies it).
//
// Thread-safety: none. A queue belongs to one run; callers synchronize if they share it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "sim/base/check.h"
#include "sim/engine/event_heap.h"
#include "sim/engine/time.h"

namespace drainsim::engine {

template <typename Payload>
class EventQueue {
 public:
  // The low kSlotBits of a key name the payload's pool slot; the high bits hold the sequence.
  static constexpr int kSlotBits = 24;
  // At most this many events pending at once (16,777,216): far above any scenario we run, low
  // enough that a runaway feedback loop fails a check instead of eating the machine's memory.
  static constexpr std::size_t kPendingMax = std::size_t{1} << kSlotBits;
  // At most this many pushes in the queue's life (2^40, about 1.1e12): at ten million events a
  // second that is 30 hours of wall-clock time, beyond any single run.
  static constexpr uint64_t kPushedMax = uint64_t{1} << (64 - kSlotBits);
  static_assert(kPendingMax == EventHeap::kSizeMax);

  struct Event {
    Instant at;
    Payload payload;
  };

  EventQueue() = default;

  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  // Pushes over the queue's whole life, Clear included; an event loop asserts progress with it.
  uint64_t pushed_count() const { return pushed_count_; }
  uint64_t popped_count() const { return popped_count_; }
  // The time of the last popped event; the earliest instant Push accepts. Before the first Pop
  // (and after Clear) it is the smallest Instant, so any time is accepted.
  Instant last_popped_time() const { return last_popped_time_; }

  // The time of the earliest pending event.
  // REQUIRES: !empty()
  Instant NextTime() const { return Instant::Micros(heap_.Min().time_us); }

  // Schedules `payload` at `at`.
  // REQUIRES: at >= last_popped_time()
  // REQUIRES: size() < kPendingMax
  // REQUIRES: pushed_count() < kPushedMax
  void Push(Instant at, Payload payload) {
    DRAINSIM_CHECK(at >= last_popped_time_);
    DRAINSIM_CHECK(heap_.size() < kPendingMax);
    DRAINSIM_CHECK(pushed_count_ < kPushedMax);
    uint64_t slot = 0;
    if (!free_slots_.empty()) {
      slot = free_slots_.back();
      free_slots_.pop_back();
      pool_[slot] = std::move(payload);
    } else {
      // The pool grows only when every slot is in use, so its size never exceeds kPendingMax and
      // every slot index fits in kSlotBits.
      slot = pool_.size();
      pool_.push_back(std::move(payload));
    }
    DRAINSIM_DCHECK(slot < kPendingMax);
    heap_.Push(HeapEntry{at.micros(), (pushed_count_ << kSlotBits) | slot});
    pushed_count_++;
  }

  // Removes and returns the earliest event; among equal times, the earliest pushed.
  // REQUIRES: !empty()
  Event Pop() {
    // Start loading the payload now, so that its cache miss overlaps the heap's descent instead
    // of following it (a large pool is scattered across memory).
    __builtin_prefetch(&pool_[heap_.Min().key & kSlotMask]);
    const HeapEntry entry = heap_.PopMin();
    const Instant at = Instant::Micros(entry.time_us);
    // Invariant (1), asserted where it is cheap: one comparison per event.
    DRAINSIM_CHECK(at >= last_popped_time_);
    last_popped_time_ = at;
    popped_count_++;
    const uint32_t slot = static_cast<uint32_t>(entry.key & kSlotMask);
    free_slots_.push_back(slot);
    // The moved-from payload stays in its slot until the slot is reused or the queue cleared.
    return Event{at, std::move(pool_[slot])};
  }

  // Makes room for n pending events without reallocating.
  // REQUIRES: n <= kPendingMax
  void Reserve(std::size_t n) {
    DRAINSIM_CHECK(n <= kPendingMax);
    heap_.Reserve(n);
    pool_.reserve(n);
    free_slots_.reserve(n);
  }

  // Drops every pending event and forgets last_popped_time(), so the queue can start a new run.
  // pushed_count() and popped_count() keep counting: sequence numbers are never reused.
  void Clear() {
    heap_.Clear();
    pool_.clear();
    free_slots_.clear();
    last_popped_time_ = kBeforeEverything;
  }

  // Checks invariants (1), (3) and (4) over the whole queue: O(size()). For tests and
  // expensive-check builds.
  void CheckInvariants() const {
    heap_.CheckInvariants();
    DRAINSIM_CHECK(size() <= kPendingMax);
    DRAINSIM_CHECK(pushed_count_ <= kPushedMax);
    DRAINSIM_CHECK(popped_count_ <= pushed_count_);
    DRAINSIM_CHECK(pool_.size() == heap_.size() + free_slots_.size());
    std::vector<uint8_t> referenced(pool_.size(), 0);
    for (uint32_t slot : free_slots_) {
      DRAINSIM_CHECK(slot < pool_.size());
      DRAINSIM_CHECK(referenced[slot] == 0);
      referenced[slot] = 1;
    }
    if (!empty()) DRAINSIM_CHECK(NextTime() >= last_popped_time_);
    heap_.ForEach([&](const HeapEntry& entry) {
      const uint64_t slot = entry.key & kSlotMask;
      DRAINSIM_CHECK(slot < pool_.size());
      DRAINSIM_CHECK(referenced[slot] == 0);
      referenced[slot] = 1;
      DRAINSIM_CHECK((entry.key >> kSlotBits) < pushed_count_);
      DRAINSIM_CHECK(Instant::Micros(entry.time_us) >= last_popped_time_);
    });
  }

 private:
  static constexpr uint64_t kSlotMask = (uint64_t{1} << kSlotBits) - 1;
  static constexpr Instant kBeforeEverything = Instant::Micros(std::numeric_limits<int64_t>::min());

  EventHeap heap_;
  std::vector<Payload> pool_;
  std::vector<uint32_t> free_slots_;
  uint64_t pushed_count_ = 0;
  uint64_t popped_count_ = 0;
  Instant last_popped_time_ = kBeforeEverything;
};

}  // namespace drainsim::engine
