// The worker pool as a component (sim/model/worker_pool.h): the ring's order and its listing
// rule, attempt slots reused last-freed first with their generations moving on, and the running
// and busy counts (invariant (1)). tests/model/lease_test.cc and lost_ack_channel_test.cc check
// what World does with the pool inside whole runs.
#include "sim/model/worker_pool.h"

#include <catch2/catch.hpp>

namespace drainsim::model {
namespace worker_pool_test {
namespace {

TEST_CASE("worker pool: the ring lists able workers once each, round robin", "[model][pool]") {
  WorkerPool pool(3, /*prefetch=*/2, /*concurrency=*/1);
  REQUIRE(pool.size() == 3);
  CHECK(pool.alive_count() == 3);
  CHECK(pool.PopRing() == 0);
  CHECK_FALSE(pool.worker(0).in_ring);
  pool.AddToRing(0);
  pool.AddToRing(0);  // listed already: once
  pool.AddToRing(1);  // listed already
  CHECK(pool.PopRing() == 1);
  CHECK(pool.PopRing() == 2);
  CHECK(pool.PopRing() == 0);
  CHECK(pool.ring_empty());
  pool.Buffer(1, Delivery{MessageRef{1, 0}, 1});
  pool.Buffer(1, Delivery{MessageRef{2, 0}, 1});  // its prefetch is full
  pool.AddToRing(1);
  CHECK(pool.ring_empty());
  CHECK_FALSE(pool.CanTake(1));
  CHECK(pool.Crash(2));
  CHECK_FALSE(pool.Crash(2));  // down already
  pool.AddToRing(2);
  CHECK(pool.ring_empty());
  CHECK_FALSE(pool.CanTake(2));
  CHECK(pool.alive_count() == 2);
  CHECK(pool.CanTake(0));
}

TEST_CASE("worker pool: attempt slots, generations and the running counts", "[model][pool]") {
  WorkerPool pool(2, /*prefetch=*/4, /*concurrency=*/2);
  const uint32_t a = pool.StartAttempt(0);
  const uint32_t b = pool.StartAttempt(0);
  const uint32_t c = pool.StartAttempt(1);
  CHECK(a == 0);
  CHECK(b == 1);
  CHECK(c == 2);
  CHECK(pool.worker(0).running == 2);
  CHECK(pool.worker(1).running == 1);
  CHECK(pool.busy_slots() == 3);
  CHECK_FALSE(pool.HasFreeSlot(0));  // concurrency 2
  CHECK(pool.HasFreeSlot(1));
  CHECK(pool.attempt(b).worker == 0);
  const uint32_t generation = pool.attempt(b).generation;
  CHECK(pool.IsLive(b, generation));
  pool.attempt(b).holds_claim = true;
  pool.EndAttempt(b);
  CHECK_FALSE(pool.IsLive(b, generation));  // its events are stale now
  CHECK(pool.worker(0).running == 1);
  CHECK(pool.busy_slots() == 2);
  pool.EndAttempt(a);
  // The slot freed last is reused first, reset but for its generation.
  CHECK(pool.worker(0).running == 0);
  CHECK(pool.StartAttempt(1) == a);
  const uint32_t again = pool.StartAttempt(0);
  CHECK(again == b);
  CHECK(pool.attempt(again).generation == generation + 1);
  CHECK_FALSE(pool.attempt(again).holds_claim);
  CHECK(pool.attempt(again).worker == 0);
  CHECK(pool.IsLive(again, generation + 1));
  CHECK_FALSE(pool.IsLive(again, generation));
  CHECK_FALSE(pool.IsLive(99, 0));  // never used
  CHECK(pool.slot_count() == 3);
  CHECK(pool.worker(0).running == 1);
  CHECK(pool.worker(1).running == 2);
  CHECK(pool.busy_slots() == 3);
}

TEST_CASE("worker pool: the copies a worker holds and its unacked count", "[model][pool]") {
  WorkerPool pool(1, /*prefetch=*/8, /*concurrency=*/2);
  const Delivery a{MessageRef{1, 0}, 1};
  const Delivery b{MessageRef{2, 0}, 1};
  const Delivery c{MessageRef{3, 0}, 1};
  const Delivery d{MessageRef{4, 0}, 1};
  pool.Buffer(0, a);
  pool.Buffer(0, b);
  pool.HoldUntil(0, c, engine::Instant::Micros(50));
  CHECK(pool.worker(0).unacked == 2);  // ETA-held copies do not count (invariant (4))
  CHECK(pool.Holds(0, c));
  CHECK_FALSE(pool.Holds(0, d));
  // A buffered delivery starts an attempt and stays unacked until the attempt ends.
  REQUIRE(pool.has_buffered(0));
  const Delivery taken = pool.PopBuffered(0);
  CHECK(taken.message == a.message);
  const uint32_t slot = pool.StartAttempt(0);
  pool.attempt(slot).delivery = taken;
  CHECK(pool.worker(0).unacked == 2);
  CHECK(pool.Holds(0, a));
  // Too early for the ETA, then due: it joins the buffer and counts.
  CHECK(pool.ReleaseDue(0, pool.generation(0), engine::Instant::Micros(49)));
  CHECK(pool.worker(0).unacked == 2);
  CHECK_FALSE(pool.ReleaseDue(0, pool.generation(0) + 1, engine::Instant::Micros(50)));  // stale
  CHECK(pool.ReleaseDue(0, pool.generation(0), engine::Instant::Micros(50)));
  CHECK(pool.worker(0).unacked == 3);
  pool.Withhold(0, d);
  CHECK(pool.worker(0).unacked == 4);
  // The channel closes: the attempt goes on off it, every held copy leaves in order.
  std::vector<Delivery> running;
  pool.TakeOffChannel(0, running);
  REQUIRE(running.size() == 1);
  CHECK(running[0].message == a.message);
  CHECK_FALSE(pool.Holds(0, a));  // off the channel
  std::vector<Delivery> held;
  const WorkerPool::HeldRanges ranges = pool.TakeHeld(0, held);
  REQUIRE(held.size() == 3);
  CHECK(held[0].message == b.message);  // buffer, then withheld
  CHECK(held[1].message == c.message);
  CHECK(held[2].message == d.message);
  CHECK(ranges.withheld_from == 2);
  CHECK(ranges.eta_from == 3);
  CHECK(pool.worker(0).unacked == 0);
  pool.EndAttempt(slot);  // off the channel already: unacked stays 0
  CHECK(pool.worker(0).unacked == 0);
  CHECK(pool.worker(0).running == 0);
}

TEST_CASE("worker pool: crashes, restarts and crashes armed at commit", "[model][pool]") {
  WorkerPool pool(2, /*prefetch=*/1, /*concurrency=*/1);
  CHECK_FALSE(pool.TakeCrashAfterCommit(0));
  pool.ArmCrashAfterCommit(0);
  pool.ArmCrashAfterCommit(0);
  CHECK(pool.TakeCrashAfterCommit(0));
  CHECK(pool.TakeCrashAfterCommit(0));
  CHECK_FALSE(pool.TakeCrashAfterCommit(0));
  while (!pool.ring_empty()) pool.PopRing();
  const uint32_t generation = pool.generation(1);
  CHECK(pool.Crash(1));
  CHECK_FALSE(pool.alive(1));
  CHECK(pool.generation(1) == generation + 1);
  CHECK_FALSE(pool.Restart(1, generation));  // a restart scheduled before this crash
  CHECK(pool.Restart(1, generation + 1));
  CHECK(pool.alive(1));
  CHECK_FALSE(pool.Restart(1, generation + 1));  // alive already
  CHECK(pool.PopRing() == 1);                    // listed again
  CHECK(pool.alive_count() == 2);
}

}  // namespace
}  // namespace worker_pool_test
}  // namespace drainsim::model
