// The database's live traffic (issue 15 step 3: a component of World): the queries the rest of
// the product sends to the database the queue's workers share, Poisson arrivals at a fixed rate,
// each with its own service draw. It decides when a live query arrives and how long it runs;
// World submits it to the Database and counts its answer (RunMetrics::LiveAnswered). No events,
// no messages, no results.
//
// Invariants:
//  (1) Every draw comes from one stream, ForStream(seed, kStreamLive, 0), two draws per query
//      (its service, then the gap to the next): live traffic never shifts another component's
//      draws, and the queue never shifts live traffic's.
//  (2) Owner tokens are distinct within a run and have kOwnerBit set; an attempt's token
//      ((generation << 32) | slot, World::SubmitQuery) never does.
//
// Thread-safety: one run's state; not shared.
#pragma once

#include <cmath>
#include <cstdint>

#include "sim/config/system.h"
#include "sim/engine/rng.h"
#include "sim/engine/time.h"
#include "sim/model/durations.h"

namespace drainsim::model {

inline constexpr uint64_t kStreamLive = engine::StreamId("live");

class LiveTraffic {
 public:
  // The bit that marks a database query's owner token as live traffic's (invariant (2)).
  static constexpr uint64_t kOwnerBit = uint64_t{1} << 63;
  static bool Owns(uint64_t owner) { return (owner & kOwnerBit) != 0; }

  LiveTraffic(const config::LiveTraffic& spec, uint64_t seed);

  struct Query {
    uint64_t owner = 0;         // the database's owner token (invariant (2))
    engine::Duration service;   // the query's base service draw, before overload and faults
    engine::Instant next_at;    // the next live query's arrival; Never past the clock's range
  };
  // The live query arriving at `now`, and when the next one arrives (invariant (1)). Inline:
  // out of line, returning the Query cost monthly-rehearsal 0.7% more instructions (callgrind).
  Query Arrive(engine::Instant now) {
    Query query;
    query.owner = kOwnerBit | static_cast<uint64_t>(sequence_++);
    query.service = query_.Sample(rng_);
    query.next_at = engine::Instant::Never();
    const double gap_us = std::nearbyint(-std::log(rng_.NextOpenDouble()) / rate_per_s_ * 1e6);
    if (gap_us < static_cast<double>(engine::kInputMicrosMax)) {
      query.next_at = now + engine::Duration::Micros(static_cast<int64_t>(gap_us));
    }
    return query;
  }

 private:
  const double rate_per_s_;
  const DurationSampler query_;
  engine::Rng rng_;
  int64_t sequence_ = 0;  // queries issued so far: the owner tokens' low bits
};

}  // namespace drainsim::model
