// The producers of one run (issue 15 step 3: a component of World): each producer's schedule
// (fanout, burst, constant or Poisson), where it stands in it, and its arrivals stream. At each
// of a producer's ticks it decides how many messages it publishes and when it ticks next; World
// publishes them (World::Publish), schedules the next tick, dispatches and enforces the queue's
// max_length. No events, no messages, no results.
//
// Invariants:
//  (1) Producer p draws only from ForStream(seed, kStreamArrivals, p), one draw per Poisson gap
//      (the first one at construction): producers never shift each other's arrivals, and
//      nothing else shifts theirs.
//  (2) A tick's next instant is at or after the tick's `now`; Never once the schedule is done
//      (its window or count spent, or the next instant past the clock's range).
//  (3) A paced publish's instant is computed from its index (publish_spacing.h), never by
//      adding gaps, so the k-th publish of a stream is where the chaos swarm expects it.
//
// Thread-safety: one run's state; not shared.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/config/workload.h"
#include "sim/engine/rng.h"
#include "sim/engine/time.h"

namespace drainsim::model {

inline constexpr uint64_t kStreamArrivals = engine::StreamId("arrivals");

class Producers {
 public:
  // `kind_index[p]`: the index of producer p's kind among the scenario's kinds.
  // REQUIRES: kind_index.size() == producers.size(); `producers` outlives this.
  Producers(const std::vector<config::Producer>& producers, std::vector<uint32_t> kind_index,
            uint64_t seed);

  uint32_t size() const { return static_cast<uint32_t>(states_.size()); }
  // Producer p's first tick: its schedule's start (a Poisson stream's first arrival).
  engine::Instant first_tick(uint32_t p) const { return states_[p].first_tick; }

  struct Tick {
    uint32_t kind_index = 0;  // the kind of every message of this tick
    int64_t count = 0;        // messages to publish at the tick's instant, >= 1
    engine::Instant next;     // the next tick (invariant (2))
  };
  // Producer p ticks at `now`. REQUIRES: `now` is first_tick(p) or the last Tick's `next`.
  Tick Fire(uint32_t p, engine::Instant now);

 private:
  struct State {
    engine::Rng rng = engine::Rng::Unseeded();  // Poisson gaps: invariant (1)
    int64_t firing = 0;                         // how many times a fanout or burst has fired
    int64_t index = 0;          // messages published in this firing (or overall, for streams)
    engine::Instant firing_at;  // start of the current firing (or of the stream)
    engine::Instant first_tick;
  };
  void FireFanout(const config::FanoutSchedule& fanout, State& state, Tick& tick);

  const std::vector<config::Producer>& producers_;
  const std::vector<uint32_t> kind_index_;
  std::vector<State> states_;
};

}  // namespace drainsim::model
