// The chaos swarm's plan: what every variant of one base scenario shares, whatever its seed.
//
// A swarm run replays a base scenario many times, each time with a random set of faults drawn
// from a swarm seed (fault_draw.h). Each run has two phases:
//   safety phase   [0, safety_end): producers publish, faults act, drains may start;
//   liveness phase [safety_end, safety_end + liveness): no fault starts or is active, nothing
//                  is published, and by its end every message must rest (acked, parked,
//                  expired, or in the DLQ).
// MakeSwarmPlan turns the base into the variants' common skeleton: the base's faults and
// expectations removed, producers clipped to the safety phase, drains kept only when they start
// in it, and run.until moved to the end of the liveness phase. docs/SWARM.md has the reasons.
//
// Invariants of a plan returned by MakeSwarmPlan:
//  (1) 0 < safety_end, 0 < liveness, and skeleton.run.until == safety_end + liveness.
//  (2) skeleton.faults and skeleton.expect are empty.
//  (3) No producer can publish at or after safety_end; every drain starts before it.
//  (4) The skeleton still publishes something.
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/engine/time.h"

namespace drainsim::chaos {

// The loader's limit on run.until_s: 100 days.
inline constexpr int64_t kRunMicrosMax = int64_t{100} * 86400 * 1'000'000;

struct SwarmParams {
  // End of the safety phase (`--safety-s`). Default null: the base's run.until_s.
  std::optional<engine::Duration> safety;
  // Length of the liveness phase (`--liveness-s`), the bound within which every message must
  // come to rest once faults stop. Default null: each variant's DefaultLiveness, from the
  // policy it runs (VariantLiveness).
  std::optional<engine::Duration> liveness;
  // `--vary-policies`: whether each variant draws its own retry and broker policy
  // (policy_draw.h). Default true.
  bool vary_policies = true;
};

struct SwarmPlan {
  config::Scenario skeleton;  // the base as every variant shares it; no faults yet
  engine::Instant safety_end;
  // The liveness bound given, or else the base's DefaultLiveness: the skeleton's. A variant's
  // own is VariantLiveness.
  engine::Duration liveness;
  bool liveness_given = false;  // `--liveness-s` was given: every variant uses it
  bool vary_policies = true;
  // What was changed from the base beyond dropping its faults, one sentence each, for the
  // swarm's header (a user should know a drain was dropped before reading its results).
  std::vector<std::string> notes;
};

struct PlanOrError {
  std::optional<SwarmPlan> plan;
  std::string error;  // set iff !plan: why this base and these params make no swarm
};

// REQUIRES: `base` came from the loader.
PlanOrError MakeSwarmPlan(const config::Scenario& base, const SwarmParams& params);

// A generous liveness bound for `base` (liveness.cc), from its retry policy, broker, timeouts and
// restarts:
//   600 s + 2 * (chain + attempts * (visibility timeout + handler + hang + breaker open)
//                + restart + broker downtime)
// where, over the retry classes, `attempts` is the most attempts a message that always fails
// gets (attempts_max, lowered by the broker's receive_count_max and, for "requeue" retries
// whose return it counts, delivery_limit + 1), and `chain` the longest sum of the waits before
// its retries: the class's backoff ceilings (the model's BackoffCeiling, Sidekiq's random term
// at its largest, times the largest jitter factor; a decorrelated one at its cap) for the
// "republish", "sleep_in_consumer" and "eta_in_consumer" deliveries, the broker's redelivery
// backoff for "requeue", the visibility timeout for "visibility_timeout". `handler` is the
// database timeouts of the slowest handler, `hang` the longest injected one (FailAfterMax),
// `breaker open` the breaker's open_s when there is one, and the broker downtime
// BrokerDowntimeMax. The 600 s are for the backlog left at the end of the safety phase. A
// heuristic: it knows nothing of throughput, so a scenario that ends its safety phase with a
// deep queue may need more. Whole seconds, at least 600 s, at most 100 days.
engine::Duration DefaultLiveness(const config::Scenario& base);

// The liveness bound of one variant (its policy and faults drawn): the plan's when
// `--liveness-s` was given, else the variant's own DefaultLiveness plus, with a circuit
// breaker, pills * attempts * open_s: each failure of a poison pill (the poison faults'
// counts, or fractions of what the kind publishes at most) may open the breaker for open_s.
// Whole seconds, at most what is left of 100 days after the safety phase.
engine::Duration VariantLiveness(const SwarmPlan& plan, const config::Scenario& variant);

// Seconds as the command line writes them: exact, no trailing zeros ("1800", "0.25").
std::string FormatSeconds(engine::Duration span);

}  // namespace drainsim::chaos
