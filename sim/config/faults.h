// Faults: the chaos a scenario injects. One struct per JSON `type`, held in a std::variant.
//
// Common shapes:
//  - a window (`from_s`, `until_s`; see Window) during which the fault is active;
//  - an injected error: `error` (the class the handler sees) and `fail_after_ms` (how long the
//    failing attempt runs, holding its worker slot, before it fails; null: right after
//    validation). A 30-second hang before the failure is the seed's "failing slowly".
//
// Invariants of a loaded scenario (the loader checks them):
//  (1) Every window and instant lies inside the run (0 <= from < until <= run.until,
//      0 <= at < run.until).
//  (2) Every `kind` names a kind of Scenario::kinds.
//  (3) Database faults need Scenario::database, downstream faults Scenario::downstream.
//  (4) PoisonFault: exactly one of count, fraction. WorkerCrashFault: exactly one of
//      rate_per_h (with `window`) and at (with `count`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "sim/engine/time.h"
#include "sim/config/enums.h"
#include "sim/config/workload.h"

namespace drainsim::config {

using engine::Duration;
using engine::Instant;

// "errors": each attempt fails with `probability` (a flaky dependency).
struct ErrorsFault {
  std::optional<std::string> kind;            // Default null: every kind.
  double probability = 0;                     // [0, 1]. Required.
  ErrorClass error = ErrorClass::kTransient;  // Default "transient".
  std::optional<Duration> fail_after;         // JSON `fail_after_ms`, >= 0. Default null.
  Window window;                              // Default: the whole run.
  bool operator==(const ErrorsFault&) const = default;
};

// "synthetic_failures": the monthly rehearsal. The first `count` messages of `kind` attempted
// at or after `from` fail on every attempt until they are dead-lettered; replays succeed.
struct SyntheticFailuresFault {
  std::string kind;                           // Required.
  int64_t count = 0;                          // Required, >= 1.
  ErrorClass error = ErrorClass::kTransient;  // Default "transient".
  std::optional<Duration> fail_after;         // JSON `fail_after_ms`. Default null.
  Instant from;                               // JSON `from_s`. Default 0.
  bool operator==(const SyntheticFailuresFault&) const = default;
};

// "poison": messages of `kind` published at or after `from` that fail on every attempt,
// replays included: the first `count` of them, or each with probability `fraction`.
struct PoisonFault {
  std::string kind;                           // Required.
  std::optional<int64_t> count;               // >= 1. Exactly one of count, fraction.
  std::optional<double> fraction;             // (0, 1].
  ErrorClass error = ErrorClass::kPermanent;  // Default "permanent".
  std::optional<Duration> fail_after;         // JSON `fail_after_ms`. Default null.
  Instant from;                               // JSON `from_s`. Default 0.
  bool operator==(const PoisonFault&) const = default;
};

// "bug": from `from` until a fix is deployed at `fixed_at`, a `fraction` of the messages of
// `kind` (chosen per message, so the same ones fail every time) fail. Drains may start a
// while after the fix (Drain::start_after_fix).
struct BugFault {
  std::string kind;                           // Required.
  double fraction = 0;                        // (0, 1]. Required.
  ErrorClass error = ErrorClass::kPermanent;  // Default "permanent".
  std::optional<Duration> fail_after;         // JSON `fail_after_ms`. Default null.
  Instant from;                               // JSON `from_s`. Default 0.
  std::optional<Instant> fixed_at;            // JSON `fixed_at_s`, > from. Default null: never.
  bool operator==(const BugFault&) const = default;
};

// "db_slowdown": database service times multiplied by `factor`.
struct DbSlowdownFault {
  Window window;      // Required (both ends).
  double factor = 1;  // [1, 1000]. Required.
  bool operator==(const DbSlowdownFault&) const = default;
};

// "db_outage": every query fails at once with a transient error.
struct DbOutageFault {
  Window window;  // Required (both ends).
  bool operator==(const DbOutageFault&) const = default;
};

// "db_connections": the pool shrinks (or grows) to `connections` during the window.
struct DbConnectionsFault {
  Window window;            // Required (both ends).
  int64_t connections = 1;  // 1..100000. Required.
  bool operator==(const DbConnectionsFault&) const = default;
};

// "downstream_outage": every call answers 503 (transient).
struct DownstreamOutageFault {
  Window window;  // Required (both ends).
  bool operator==(const DownstreamOutageFault&) const = default;
};

// "downstream_rate_limit": the API's token bucket changes during the window.
struct DownstreamRateLimitFault {
  Window window;                // Required (both ends).
  double rate_limit_per_s = 0;  // [1e-9, 1e9], the token bucket's range. Required.
  int64_t burst = 1;            // 1..1e9. Default: rate_limit_per_s rounded up.
  bool operator==(const DownstreamRateLimitFault&) const = default;
};

// "worker_crash": consumers die (and come back after workers.restart_s), either at random
// at `rate_per_h` crashes per hour across the fleet during `window`, or `count` of them at
// instant `at`.
struct WorkerCrashFault {
  std::optional<double> rate_per_h;          // > 0.
  std::optional<Instant> at;                 // JSON `at_s`.
  int64_t count = 1;                         // With `at` only: 1..workers.count. Default 1.
  CrashPoint point = CrashPoint::kAnywhere;  // Default "anywhere".
  Window window;                             // With rate_per_h only. Default: the whole run.
  bool operator==(const WorkerCrashFault&) const = default;
};

// "ack_loss": each ack is lost with `probability`; the message is delivered again.
struct AckLossFault {
  double probability = 0;  // [0, 1]. Required.
  Window window;           // Default: the whole run.
  bool operator==(const AckLossFault&) const = default;
};

// "broker_restart": at `at` the broker restarts: every unacked delivery is requeued, and for
// `downtime` then `recovery` nothing is delivered or acked (docs/MODEL.md: the recovery is the
// broker's start and the clients' reconnection, the same unavailability as the downtime).
struct BrokerRestartFault {
  Instant at;         // JSON `at_s`. Required.
  Duration downtime;  // JSON `downtime_s`, >= 0. Default 0.
  Duration recovery;  // JSON `recovery_s`, >= 0. Default 0.
  // The instant delivery resumes: at + downtime + recovery.
  Instant back() const { return at + downtime + recovery; }
  bool operator==(const BrokerRestartFault&) const = default;
};

using Fault =
    std::variant<ErrorsFault, SyntheticFailuresFault, PoisonFault, BugFault, DbSlowdownFault,
                 DbOutageFault, DbConnectionsFault, DownstreamOutageFault, DownstreamRateLimitFault,
                 WorkerCrashFault, AckLossFault, BrokerRestartFault>;
static_assert(std::variant_size_v<Fault> == static_cast<size_t>(FaultType::kBrokerRestart) + 1);

inline FaultType TypeOf(const Fault& fault) { return static_cast<FaultType>(fault.index()); }

}  // namespace drainsim::config
