// The worker pool as a component (sim/model/worker_pool.h): the ring's order and its listing
// rule, attempt slots reused last-freed first with their generations moving on, and the running
// and busy counts (invariant (1)). tests/model/lease_test.cc and lost_ack_channel_test.cc check
// what World does with the pool inside whole runs.
#include "sim/model/worker_pool.h"

#include <catch2/catch.hpp>

namespace drainsim::model {
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
  pool.worker(1).unacked = 2;  // its prefetch is full
  pool.AddToRing(1);
  CHECK(pool.ring_empty());
  CHECK_FALSE(pool.CanTake(1));
  pool.worker(2).alive = false;
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

}  // namespace
}  // namespace drainsim::model
