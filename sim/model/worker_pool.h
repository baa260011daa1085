// The workers and their attempts during one run (issue 15 step 3: a component of World): each
// worker's record (alive, prefetch buffer, ETA holds, withheld lost acks), the ring of workers
// able to take one more delivery, and the table of attempt slots with their generations. World
// decides what happens to deliveries and messages; the pool keeps the slots, the ring, the
// copies each worker holds and the counts those decisions read, and nothing else: no events, no
// messages, no results. World changes a worker only through the operations below, so the
// counts cannot drift from the copies they count.
//
// Invariants:
//  (1) worker(w).running is the number of live attempts whose worker is w; busy_slots() is the
//      number of live attempts: StartAttempt adds one to both, EndAttempt takes one off both.
//  (2) A worker is listed in the ring at most once, and worker(w).in_ring iff it is listed.
//  (3) A slot's generation changes when its attempt ends: an event or query completion naming
//      (slot, generation) of an ended attempt is stale (IsLive is false).
//  (4) worker(w).unacked == buffer + withheld + live attempts of w still on its channel (not
//      off_channel); ETA-held copies do not count. TakeHeld checks it at every lost channel.
//
// Thread-safety: one run's state; not shared.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "sim/base/check.h"
#include "sim/config/enums.h"
#include "sim/engine/rng.h"
#include "sim/engine/time.h"
#include "sim/model/message.h"

namespace drainsim::model {

// eta_in_consumer: a copy a worker holds outside its prefetch until its ETA.
struct EtaHold {
  Delivery delivery;
  engine::Instant eta;
};

struct Worker {
  bool alive = true;
  uint32_t generation = 0;  // bumped by a crash: stale restart events compare it
  int64_t unacked = 0;      // deliveries held (buffer + running + sleeping + withheld; not
                            // ETA-held, not attempts left running on a closed channel)
  int64_t running = 0;      // attempts in progress (slots used): invariant (1)
  bool in_ring = false;     // listed as able to take a delivery: invariant (2)
  // workers.autoscale: not running (never started, or removed), or being removed (its attempts
  // may finish); either way it takes no delivery.
  bool stopped = false;
  int64_t crash_after_commit_armed = 0;
  std::deque<Delivery> buffer;
  std::vector<EtaHold> eta_held;  // not counted in unacked; joins the buffer at the ETA
  // Deliveries whose ack was lost with on_visibility_timeout close_channel: still unacked on the
  // channel (RabbitMQ), holding a prefetch slot, until the consumer timeout closes the channel
  // or the worker crashes (World::WithholdLostAck).
  std::vector<Delivery> withheld;
};

enum class Step : uint8_t { kValidate, kInjectedFailure, kClaim, kDbOp, kCall, kCpu, kSleep };

struct Attempt {
  uint32_t generation = 0;
  bool live = false;
  uint32_t worker = 0;
  Delivery delivery;
  Step step = Step::kValidate;
  int64_t db_ops_left = 0;
  int64_t calls_left = 0;
  engine::Instant started_at;
  engine::Rng rng = engine::Rng::Unseeded();
  std::optional<config::ErrorClass> injected;  // the failure this attempt is fated to
  uint16_t injected_fault = 0;                 // the fault that fated it (for observers)
  engine::Duration injected_after;
  bool holds_claim = false;                     // this attempt inserted the claim row
  bool call_fails = false;                      // the current downstream call answers 503
  std::optional<engine::Duration> retry_after;  // from a 429's Retry-After
  bool off_channel = false;  // its channel closed (close_channel): no longer in unacked
};

class WorkerPool {
 public:
  // `count` workers, alive and listed in the ring in index order (AddToRing's rule).
  // REQUIRES: count >= 0.
  WorkerPool(int64_t count, int64_t prefetch, int64_t concurrency);

  uint32_t size() const { return static_cast<uint32_t>(workers_.size()); }
  // Read only: World changes a worker through the operations below (invariant (4)).
  const Worker& worker(uint32_t w) const { return workers_[w]; }
  bool alive(uint32_t w) const { return workers_[w].alive; }
  uint32_t generation(uint32_t w) const { return workers_[w].generation; }
  int64_t alive_count() const;
  // Each of the first `workers_max` workers as "unacked/withheld/in ring (y or n)", space
  // separated: why nobody takes the ready messages, for a model error's detail.
  std::string Describe(uint32_t workers_max) const;
  // Whether worker w may start one more attempt (a slot free: running < concurrency).
  bool HasFreeSlot(uint32_t w) const {
    return workers_[w].alive && workers_[w].running < concurrency_;
  }

  // ---- the ring: workers able to take a delivery, round robin ------------------------------
  // Lists w if it is alive, not listed yet and below its prefetch.
  void AddToRing(uint32_t w) {
    Worker& worker = workers_[w];
    if (worker.alive && !worker.stopped && !worker.in_ring && worker.unacked < prefetch_) {
      worker.in_ring = true;
      ring_.push_back(w);
    }
  }
  bool ring_empty() const { return ring_.empty(); }
  // The first listed worker, taken off the ring. REQUIRES: !ring_empty().
  uint32_t PopRing() {
    DRAINSIM_CHECK(!ring_.empty());
    const uint32_t w = ring_.front();
    ring_.pop_front();
    workers_[w].in_ring = false;
    return w;
  }
  // Whether w can take one more delivery now: alive, not stopped and below its prefetch.
  bool CanTake(uint32_t w) const {
    return workers_[w].alive && !workers_[w].stopped && workers_[w].unacked < prefetch_;
  }

  // ---- the copies a worker holds --------------------------------------------------------------
  // A delivery joins w's prefetch buffer and counts as unacked.
  void Buffer(uint32_t w, const Delivery& delivery) {
    ++workers_[w].unacked;
    workers_[w].buffer.push_back(delivery);
  }
  bool has_buffered(uint32_t w) const { return !workers_[w].buffer.empty(); }
  // The oldest buffered delivery of w, taken off the buffer to start an attempt (it stays
  // unacked: invariant (4)). REQUIRES: has_buffered(w). (A bool and a pop rather than an
  // optional: StartAttempts' loop cost a third more with one, callgrind.)
  Delivery PopBuffered(uint32_t w) {
    Worker& worker = workers_[w];
    DRAINSIM_CHECK(!worker.buffer.empty());
    const Delivery d = worker.buffer.front();
    worker.buffer.pop_front();
    return d;
  }
  // Every buffered delivery of w leaves the buffer (appended to `out`, oldest first) and stops
  // counting as unacked: a Kafka consumer's seek or crash gives back the rest of its batch.
  void TakeBuffered(uint32_t w, std::vector<Delivery>& out) {
    Worker& worker = workers_[w];
    worker.unacked -= static_cast<int64_t>(worker.buffer.size());
    out.insert(out.end(), worker.buffer.begin(), worker.buffer.end());
    worker.buffer.clear();
  }
  // eta_in_consumer: w holds `delivery` outside its prefetch (not unacked) until `eta`.
  void HoldUntil(uint32_t w, const Delivery& delivery, engine::Instant eta) {
    workers_[w].eta_held.push_back(EtaHold{delivery, eta});
  }
  // The ETA-held copies of w due at `now` join its buffer, in the order they were taken, and
  // count as unacked from now on. False (and nothing moves) iff w crashed since `generation`.
  bool ReleaseDue(uint32_t w, uint32_t generation, engine::Instant now);
  // A lost ack under close_channel: the delivery stays unacked on w's channel (Worker::withheld).
  void Withhold(uint32_t w, const Delivery& delivery) {
    ++workers_[w].unacked;
    workers_[w].withheld.push_back(delivery);
  }
  // Whether alive worker w holds `delivery` on its channel: buffered, ETA-held, withheld, or in
  // one of its live attempts not yet off the channel. O(copies of w + slots).
  bool Holds(uint32_t w, const Delivery& delivery) const;
  // Every live attempt of w still on its channel goes off it (its delivery tag is gone with
  // the channel, Attempt::off_channel) and stops counting as unacked; their deliveries are
  // appended to `out` in slot order.
  void TakeOffChannel(uint32_t w, std::vector<Delivery>& out);
  // Where TakeHeld put each kind of copy in its `out`.
  struct HeldRanges {
    size_t withheld_from = 0;  // first withheld lost ack
    size_t eta_from = 0;       // first ETA-held copy
  };
  // Every copy w holds outside its attempts leaves it, appended to `out` in the order its lost
  // channel returns them: the prefetch buffer, the withheld lost acks, the ETA-held copies.
  // REQUIRES: no live attempt of w on its channel (ended, or TakeOffChannel); then unacked is
  // 0 afterwards (invariant (4)).
  HeldRanges TakeHeld(uint32_t w, std::vector<Delivery>& out);

  // ---- workers.autoscale: workers started and removed (world_autoscale.cc) -------------------
  // w stops taking deliveries (a removal began); its attempts may go on. Its prefetch buffer
  // and ETA-held copies are appended to `out` (buffer first), no longer held: only copies in
  // live attempts and withheld lost acks stay unacked (invariant (4)).
  void Stop(uint32_t w, std::vector<Delivery>& out);
  // w is gone: down, stopped, its generation moved on so that a restart scheduled by an earlier
  // crash is stale. REQUIRES: w runs no attempt and holds no copy.
  void Retire(uint32_t w);
  // w starts afresh: alive, taking deliveries, listed in the ring; a new generation.
  // REQUIRES: w was retired (Retire).
  void Start(uint32_t w);
  bool stopped(uint32_t w) const { return workers_[w].stopped; }
  // One more worker, retired (down, stopped), for Start: its index. The pool only grows.
  uint32_t AddRetired() {
    Worker& worker = workers_.emplace_back();
    worker.alive = false;
    worker.stopped = true;
    return size() - 1;
  }

  // ---- crashes and restarts ---------------------------------------------------------------------
  // Worker w crashes: not alive, its generation moves on (stale restart and ETA events compare
  // it). False (nothing changes) iff it was already down.
  bool Crash(uint32_t w) {
    Worker& worker = workers_[w];
    if (!worker.alive) return false;
    worker.alive = false;
    ++worker.generation;
    return true;
  }
  // Worker w restarts, listed in the ring again; false (nothing changes) iff it is alive or
  // crashed again since `generation`.
  bool Restart(uint32_t w, uint32_t generation);
  // A crash fault's between_commit_and_ack point: w dies at its next commit.
  void ArmCrashAfterCommit(uint32_t w) { ++workers_[w].crash_after_commit_armed; }
  // Whether w was armed to die at this commit; takes the arming off iff so.
  bool TakeCrashAfterCommit(uint32_t w) {
    Worker& worker = workers_[w];
    if (worker.crash_after_commit_armed == 0) return false;
    --worker.crash_after_commit_armed;
    return true;
  }

  // ---- attempt slots -----------------------------------------------------------------------
  // A new live attempt of worker w in a free slot (the one freed last, else a new one), reset
  // but for its generation; the worker's running count and busy_slots() go up by one.
  uint32_t StartAttempt(uint32_t w) {
    uint32_t slot;
    if (!free_attempts_.empty()) {
      slot = free_attempts_.back();
      free_attempts_.pop_back();
    } else {
      slot = static_cast<uint32_t>(attempts_.size());
      attempts_.emplace_back();
    }
    Attempt& a = attempts_[slot];
    const uint32_t generation = a.generation;
    a = Attempt{};
    a.generation = generation;
    a.live = true;
    a.worker = w;
    ++workers_[w].running;
    return slot;
  }
  // The attempt in `slot` ends with its copy: its worker's running count and busy_slots() go
  // down by one, the copy stops counting as unacked unless it was off the channel already
  // (invariant (4)), the slot is free and its generation moves on (invariant (3)).
  // REQUIRES: the attempt is live.
  void EndAttempt(uint32_t slot) {
    Worker& worker = workers_[attempts_[slot].worker];
    if (!attempts_[slot].off_channel) --worker.unacked;
    FreeSlot(slot);
  }
  // The attempt in `slot` ends but its worker keeps the copy, unacked as before, for the next
  // attempt of the same delivery (a retry slept in the consumer). REQUIRES: the attempt is live.
  void EndAttemptKeepingCopy(uint32_t slot) { FreeSlot(slot); }
  Attempt& attempt(uint32_t slot) { return attempts_[slot]; }
  const Attempt& attempt(uint32_t slot) const { return attempts_[slot]; }
  // Whether `slot` holds the live attempt of `generation`: events and query completions of an
  // ended attempt are stale.
  bool IsLive(uint32_t slot, uint32_t generation) const {
    return slot < attempts_.size() && attempts_[slot].live &&
           attempts_[slot].generation == generation;
  }
  // Every slot ever used, live or free, for scans in slot order.
  uint32_t slot_count() const { return static_cast<uint32_t>(attempts_.size()); }
  // Attempts in progress across all workers (invariant (1)).
  int64_t busy_slots() const {
    return static_cast<int64_t>(attempts_.size() - free_attempts_.size());
  }

 private:
  void FreeSlot(uint32_t slot) {
    Attempt& a = attempts_[slot];
    DRAINSIM_CHECK(a.live);
    Worker& worker = workers_[a.worker];
    --worker.running;
    DRAINSIM_CHECK(worker.running >= 0);
    a.live = false;
    ++a.generation;
    free_attempts_.push_back(slot);
  }

  const int64_t prefetch_;
  const int64_t concurrency_;
  std::vector<Worker> workers_;
  std::deque<uint32_t> ring_;
  std::vector<Attempt> attempts_;
  std::vector<uint32_t> free_attempts_;
};

}  // namespace drainsim::model
