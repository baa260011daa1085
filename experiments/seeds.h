// Replication seeds: replication i of an experiment with base seed S runs with
// ReplicationSeed(S, i).
//
// Contract:
//  (1) A pure function of (base, index): the same on every machine, thread and shard, so any
//      replication can be rerun alone (`drainsim run SCENARIO --seed SEED` prints the same
//      figures), and two scenarios compared with the same base seed see the same seeds (common
//      random numbers: the model derives every message's fate from the run seed, MODEL.md).
//  (2) For a fixed base, distinct indices give distinct seeds: splitmix64's mixer is a
//      bijection, and index * the golden-ratio constant (odd) is injective modulo 2^64.
//  (3) ReplicationSeed(S, i) is unrelated to S itself: replication 0 is not the plain run of
//      seed S, so a replicated experiment never silently reuses one hand-picked seed's luck.
//
// Thread-safety: pure.
#pragma once

#include <cstdint>

#include "sim/engine/rng.h"

namespace drainsim::experiments {

inline constexpr uint64_t ReplicationSeed(uint64_t base, uint64_t index) {
  // The base is mixed first so that consecutive bases do not give shifted seed sequences.
  constexpr uint64_t kSalt = engine::StreamId("replication");
  return engine::SplitMix64::Mix(engine::SplitMix64::Mix(base ^ kSalt) +
                                 index * 0x9e3779b97f4a7c15);
}

// Independent seeds for the other side of an unpaired comparison (`compare --independent`):
// a stream of seeds that shares none of ReplicationSeed's by construction of a different salt.
inline constexpr uint64_t IndependentSeed(uint64_t base, uint64_t index) {
  constexpr uint64_t kSalt = engine::StreamId("independent replication");
  return engine::SplitMix64::Mix(engine::SplitMix64::Mix(base ^ kSalt) +
                                 index * 0x9e3779b97f4a7c15);
}

}  // namespace drainsim::experiments
