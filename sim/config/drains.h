// Drain plans: how the dead letter queue is replayed ("redriven") into the main queue.
//
// A drain starts at a time (or a while after the last bug fix), selects DLQ messages by
// reason, error class and kind, deals with the rest (`others`), and replays the selection with
// a strategy. A replayed message starts again at attempt 1 with a replay_of header.
//
// Invariants of a loaded scenario (the loader checks them):
//  (1) Exactly one of start_at, start_after_fix is set; the start lies inside the run.
//      start_after_fix needs a bug fault with fixed_at; it counts from the latest fix.
//  (2) Selection lists, when set, are non-empty, without repeats; kinds exist.
//  (3) Bounded drains have a limit; adaptive drains satisfy 0 < rate_min <= rate_max,
//      decrease_factor in (0, 1), and need Scenario::database.
//  (4) Every rate is in [1e-9, 1e6] per second: a token bucket paces the replays, and its
//      rate cannot be below 1e-9 (one token every 31.7 years).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "sim/engine/time.h"
#include "sim/config/distribution.h"
#include "sim/config/enums.h"

namespace drainsim::config {

using engine::Duration;
using engine::Instant;

// Which DLQ messages a drain replays: those matching every list that is set (null: any).
struct DrainSelect {
  std::optional<std::vector<DlqReason>> reasons;  // e.g. ["max_attempts"]. Default null.
  std::optional<std::vector<ErrorClass>> errors;  // e.g. ["transient"]. Default null.
  std::optional<std::vector<std::string>> kinds;  // Kind names. Default null.
  bool operator==(const DrainSelect&) const = default;
};

// "bulk": everything at once, the console's "Redrive to Source" button.
struct BulkDrain {
  bool operator==(const BulkDrain&) const = default;
};

// "drip": a token bucket at rate_per_s (the seed's 20/s).
struct DripDrain {
  double rate_per_s = 0;  // [1e-9, 1e6]. Required.
  int64_t burst = 1;      // 1..1e9. Default 1: strictly spaced.
  bool operator==(const DripDrain&) const = default;
};

// "bounded": at most Drain::limit messages (required), then stop and look at the blast
// radius; at rate_per_s, or all at once when it is null.
struct BoundedDrain {
  std::optional<double> rate_per_s;  // [1e-9, 1e6]. Default null: bulk.
  bool operator==(const BoundedDrain&) const = default;
};

// "adaptive": AIMD on database health. Starts at rate_min; every adjust_every, if the p99 of
// database query latency (wait + service) over the last interval is under latency_target
// and no query timed out, the rate grows by increase_per_s * adjust_every; otherwise it is
// multiplied by decrease_factor. Always within [rate_min, rate_max].
struct AdaptiveDrain {
  double rate_min_per_s = 0;     // [1e-9, 1e6]. Required.
  double rate_max_per_s = 0;     // >= rate_min_per_s, <= 1e6. Required.
  double increase_per_s = 0;     // [1e-9, 1e6], messages/s gained per second of health. Required.
  double decrease_factor = 0.5;  // (0, 1). Default 0.5.
  Duration latency_target;       // JSON `latency_target_ms`, > 0. Required.
  Duration adjust_every = Duration::Seconds(10);  // JSON `adjust_every_s`, > 0. Default 10.
  bool operator==(const AdaptiveDrain&) const = default;
};

struct Drain {
  using Strategy = std::variant<BulkDrain, DripDrain, BoundedDrain, AdaptiveDrain>;
  std::optional<Instant> start_at;          // JSON `start_at_s`.
  std::optional<Duration> start_after_fix;  // JSON `start_after_fix_s`, >= 0.
  DrainSelect select;                       // Default: everything.
  // Default "leave". "park" moves unselected DLQ messages to the parking lot for a human, so
  // the next drain does not re-test broken payloads.
  DrainOthers others = DrainOthers::kLeave;
  std::optional<int64_t> limit;  // 1..1e9. Default null; required by "bounded".
  // JSON `replay_ms`: the drainer's own time per replay (fetch from the DLQ, publish, confirm),
  // during which it takes no token; the copy is in the main queue when the replay starts.
  // Default null: instantaneous. A real drainer stalls now and then (a slow basic.get, a
  // descheduled thread); a burst-1 bucket never makes that time up (drainsim live measures it).
  std::optional<DistributionSpec> replay_ms;
  Strategy strategy;             // JSON `strategy` plus its fields, flat in the drain object.
  DrainStrategy kind() const { return static_cast<DrainStrategy>(strategy.index()); }
  bool operator==(const Drain&) const = default;
};
static_assert(std::variant_size_v<Drain::Strategy> ==
              static_cast<size_t>(DrainStrategy::kAdaptive) + 1);

}  // namespace drainsim::config
