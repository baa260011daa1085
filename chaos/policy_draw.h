// The chaos swarm's policy generator: from a swarm seed, a retry and broker policy for one
// variant, so that the swarm explores the breaker, the budget, the delivery modes and the
// broker presets and not only the one policy its base happens to have.
//
// Four draws, each on its own stream Rng::ForStream(seed, StreamId("swarm-policy"), dimension),
// apart from the fault draws' StreamId("swarm") streams:
//   preset    with probability 1/3 the base's broker and retry fields stay as they are;
//             otherwise uniform over "none" (drainsim's own defaults) and the seven presets
//             (sqs only when no drain is faster than SQS allows): every field any preset sets
//             (docs/PRESETS.md) is removed from the base's dump, so that the drawn preset
//             fills them, or the loader's defaults do (an explicit value would win over the
//             preset's default).
//   delivery  without a drawn preset (base kept, or "none"): uniform over the five
//             retry.delivery modes. A drawn preset keeps its own: a preset's delivery, counts
//             and timeouts are one package (Sidekiq's 26 attempts with requeue, say, is no
//             broker's behaviour).
//   budget    on or off with probability 1/2 each; when on, ratio, burst and window from
//             ladders.
//   breaker   on or off with probability 1/2 each; when on, its five parameters from ladders.
//
// Invariants of DrawPolicy(skeleton, seed):
//  (1) Same arguments, same result (the project's generator only, never the standard library).
//  (2) A drawn scenario went through the loader (DumpCanonical, the JSON edits above,
//      LoadScenarioText): every loader rule holds, a preset's hard limits included. A refusal
//      is returned as `problems` (a bug of the swarm, never of the seed).
//  (3) Only /broker and /retry change: kinds, workers, producers, backlog, database and
//      downstream stay the skeleton's, so DrawFaults finds the same applicable fault types.
//  (4) A drawn preset's visibility timeout is at most kSwarmVisibilityMaxS (Sidekiq's stand-in
//      for "never", 100 days, would make every liveness phase 100 days long); `drawn` says so.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/config.h"

namespace drainsim::chaos {

inline constexpr int64_t kSwarmVisibilityMaxS = 3600;

struct DrawnPolicy {
  std::optional<config::Scenario> scenario;  // set iff problems is empty
  // What was drawn, one "name: value" per dimension ("preset: sqs", "budget: off", ...), for
  // the seed's report and the variant's description.
  std::vector<std::string> drawn;
  std::vector<std::string> problems;  // the loader's refusal, formatted
};

// REQUIRES: `skeleton` came from MakeSwarmPlan (or the loader).
DrawnPolicy DrawPolicy(const config::Scenario& skeleton, uint64_t seed);

}  // namespace drainsim::chaos
