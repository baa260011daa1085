// The fault types that act on the systems around the work: the database, the downstream API,
// the consumers, the acks and the broker. One struct and one field table per type; what they
// share and how a type is described: faults.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

#include "sim/base/decimal.h"
#include "sim/config/enum_names.h"
#include "sim/config/enums.h"
#include "sim/config/fault_field.h"
#include "sim/config/fault_info.h"
#include "sim/config/fault_limits.h"
#include "sim/config/workload.h"
#include "sim/engine/time.h"

namespace drainsim::config {

using engine::Duration;
using engine::Instant;

// A legend's prefix and its number ("x25"). Appends rather than operator+ on a short literal:
// GCC 12 at -O3 warns falsely there (-Wrestrict).
inline std::string Prefixed(std::string_view prefix, const std::string& text) {
  std::string out;
  out.reserve(prefix.size() + text.size());
  out.append(prefix);
  out.append(text);
  return out;
}

// "db_slowdown": database service times multiplied by `factor`.
struct DbSlowdownFault {
  static constexpr FaultInfo kInfo{
      "db_slowdown",
      "database service times multiplied by a factor",
      FaultTarget::kDatabase,
      FaultShape::kWindow,
      FaultNeeds::kDatabase,
      /*swarm_draws=*/true,
      "Database service times multiplied by factor during the window. Needs the database section."};
  Window window;      // Required (both ends).
  double factor = 1;  // [1, 1000]. Required.
  std::string Detail() const { return Prefixed("x", base::Decimal(factor)); }  // "x25"
  bool operator==(const DbSlowdownFault&) const = default;
};

template <>
inline constexpr auto kFieldsOf<DbSlowdownFault> = std::tuple{
    Required("window", &DbSlowdownFault::window, fields::K::kWindow).Swarm(fields::S::kDraw),
    Required("factor", &DbSlowdownFault::factor, fields::K::kNumber,
             Closed(FaultLimits::kSlowdownFactorMin, FaultLimits::kSlowdownFactorMax))
        .Doc("Latency multiplier, 1..1000. Required.")
        .Swarm(fields::S::kDraw, kSwarmSlowdownFactors)
        .Fuzz(100, 1, 100)};

// "db_outage": every query fails at once with a transient error.
struct DbOutageFault {
  static constexpr FaultInfo kInfo{"db_outage",
                                   "every query fails at once with a transient error",
                                   FaultTarget::kDatabase,
                                   FaultShape::kWindow,
                                   FaultNeeds::kDatabase,
                                   /*swarm_draws=*/true,
                                   "Every query fails at once with a transient error during the "
                                   "window. Needs the database section."};
  Window window;  // Required (both ends).
  bool operator==(const DbOutageFault&) const = default;
};

template <>
inline constexpr auto kFieldsOf<DbOutageFault> = std::tuple{
    Required("window", &DbOutageFault::window, fields::K::kWindow).Swarm(fields::S::kDraw)};

// "db_connections": the pool shrinks (or grows) to `connections` during the window.
struct DbConnectionsFault {
  static constexpr FaultInfo kInfo{
      "db_connections",
      "the connection pool shrinks or grows",
      FaultTarget::kDatabase,
      FaultShape::kWindow,
      FaultNeeds::kDatabase,
      /*swarm_draws=*/true,
      "The pool has this many connections during the window. Needs the database section."};
  Window window;            // Required (both ends).
  int64_t connections = 1;  // 1..100000. Required.
  std::string Detail() const { return std::to_string(connections) + " connections"; }
  bool operator==(const DbConnectionsFault&) const = default;
};

// The swarm draws `connections` from the scenario's pool (chaos/fault_draw.cc).
template <>
inline constexpr auto kFieldsOf<DbConnectionsFault> = std::tuple{
    Required("window", &DbConnectionsFault::window, fields::K::kWindow).Swarm(fields::S::kDraw),
    Required("connections", &DbConnectionsFault::connections, fields::K::kCount,
             Closed(1, static_cast<double>(FaultLimits::kConnectionsMax)))
        .Doc("Pool size during the window, 1..100000. Required.")
        .Fuzz(100, 1, 4)};

// "downstream_outage": every call answers 503 (transient).
struct DownstreamOutageFault {
  static constexpr FaultInfo kInfo{"downstream_outage",
                                   "every downstream call answers 503 (transient)",
                                   FaultTarget::kDownstream,
                                   FaultShape::kWindow,
                                   FaultNeeds::kDownstream,
                                   /*swarm_draws=*/true,
                                   "Every downstream call answers 503 (transient) during the "
                                   "window. Needs the downstream section."};
  Window window;  // Required (both ends).
  bool operator==(const DownstreamOutageFault&) const = default;
};

template <>
inline constexpr auto kFieldsOf<DownstreamOutageFault> = std::tuple{
    Required("window", &DownstreamOutageFault::window, fields::K::kWindow).Swarm(fields::S::kDraw)};

// "downstream_rate_limit": the API's token bucket changes during the window.
struct DownstreamRateLimitFault {
  static constexpr FaultInfo kInfo{
      "downstream_rate_limit",
      "the downstream API's token bucket changes",
      FaultTarget::kDownstream,
      FaultShape::kWindow,
      FaultNeeds::kDownstream,
      /*swarm_draws=*/true,
      "The downstream token bucket changes during the window. Needs the downstream section."};
  Window window;                // Required (both ends).
  double rate_limit_per_s = 0;  // [1e-9, 1e9], the token bucket's range. Required.
  int64_t burst = 1;            // 1..1e9. Default: rate_limit_per_s rounded up.
  std::string Detail() const {  // "2/s, burst 2"
    return base::Decimal(rate_limit_per_s) + "/s, burst " + std::to_string(burst);
  }
  bool operator==(const DownstreamRateLimitFault&) const = default;
};

// Without `burst`, one second's worth of the rate (the loader's and the swarm's default).
template <>
inline constexpr auto kFieldsOf<DownstreamRateLimitFault> = std::tuple{
    Required("window", &DownstreamRateLimitFault::window, fields::K::kWindow)
        .Swarm(fields::S::kDraw),
    Required("rate_limit_per_s", &DownstreamRateLimitFault::rate_limit_per_s, fields::K::kNumber,
             Closed(FaultLimits::kTokenRatePerSMin, FaultLimits::kTokenRatePerSMax))
        .Doc("Refill rate during the window, in calls per second; 1e-9..1e9 (the token bucket's "
             "range). Required.")
        .Swarm(fields::S::kDraw, kSwarmRateLimitsPerS)
        .Fuzz(100, 0.01, 20),
    Optional("burst", &DownstreamRateLimitFault::burst, fields::K::kCount,
             Closed(1, FaultLimits::kBurstMax))
        .Doc("Bucket capacity during the window, 1..1e9. Default: rate_limit_per_s rounded up.")
        .Fuzz(50, 1, 10)};

// "worker_crash": consumers die (and come back after workers.restart_s), either at random
// at `rate_per_h` crashes per hour across the fleet during `window`, or `count` of them at
// instant `at`.
struct WorkerCrashFault {
  static constexpr FaultInfo kInfo{
      "worker_crash",
      "consumers die, at a rate over a window or some at one instant, and come "
      "back after workers.restart_s",
      FaultTarget::kWorkers,
      FaultShape::kWindow,
      FaultNeeds::kNothing,
      /*swarm_draws=*/true,
      "Consumers die and come back after workers.restart_s: at random at rate_per_h (with an "
      "optional window), or count of them at at_s."};
  std::optional<double> rate_per_h;          // > 0.
  std::optional<Instant> at;                 // JSON `at_s`.
  int64_t count = 1;                         // With `at` only: 1..workers.count. Default 1.
  CrashPoint point = CrashPoint::kAnywhere;  // Default "anywhere".
  Window window;                             // With rate_per_h only. Default: the whole run.
  std::string Detail() const {               // "anywhere, 2 at once", "anywhere, 10/h"
    const std::string point_name(NameOf(point));
    if (at) return point_name + ", " + std::to_string(count) + " at once";
    return point_name + ", " + base::Decimal(*rate_per_h) + "/h";
  }
  bool operator==(const WorkerCrashFault&) const = default;
};

// Its two forms (a rate over a window, or `count` at one instant) are read, dumped and drawn by
// small hooks beside the generic code; the table lists its keys and limits for them.
template <>
inline constexpr auto kFieldsOf<WorkerCrashFault> = std::tuple{
    Nullable("rate_per_h", &WorkerCrashFault::rate_per_h, fields::K::kNumber,
             AboveAtMost(0, FaultLimits::kCrashRatePerHMax))
        .Doc("Crashes per hour across the fleet; greater than 0, at most 1e6. Exactly one of "
             "rate_per_h and at_s. Required unless at_s is given.")
        .OneOf("at_s")
        .Swarm(fields::S::kDraw, kSwarmCrashRatesPerH),
    Nullable("at_s", &WorkerCrashFault::at, fields::K::kInstant)
        .Doc("Instant of the crash, in seconds from the start of the run; before run.until_s. "
             "Exactly one of rate_per_h and at_s. Required unless rate_per_h is given."),
    Optional("point", &WorkerCrashFault::point, fields::K::kEnum).Doc("Where the crash hits."),
    Optional("window", &WorkerCrashFault::window, fields::K::kWindow)
        .Doc("Start of the window (with rate_per_h only), in seconds from the start of the run; at "
             "least 0 and before run.until_s. Default: 0 (the start of the run).",
             "With rate_per_h only: end of the window, in seconds from the start of the run; after "
             "from_s and at most run.until_s. Default: run.until_s."),
    Optional("count", &WorkerCrashFault::count, fields::K::kCount,
             Closed(1, FaultLimits::kCrashCountMax))
        .Doc("With at_s only: consumers that crash, 1..workers.count. Default: 1.")};

// "ack_loss": each ack is lost with `probability`; the message is delivered again.
struct AckLossFault {
  static constexpr FaultInfo kInfo{
      "ack_loss",
      "each ack is lost with a probability; the message is delivered again",
      FaultTarget::kAcks,
      FaultShape::kWindow,
      FaultNeeds::kNothing,
      /*swarm_draws=*/true,
      "Each ack is lost with a probability; the message is delivered again (a duplicate if the "
      "work committed)."};
  double probability = 0;  // [0, 1]. Required.
  Window window;           // Default: the whole run.
  std::string Detail() const { return Prefixed("p=", base::Decimal(probability)); }  // "p=0.01"
  bool operator==(const AckLossFault&) const = default;
};

template <>
inline constexpr auto kFieldsOf<AckLossFault> = std::tuple{
    Required("probability", &AckLossFault::probability, fields::K::kNumber, Closed(0, 1))
        .Doc("Probability that an ack is lost, 0..1. Required.")
        .Swarm(fields::S::kDraw, kSwarmProbabilities)
        .Fuzz(100, 0, 1),
    Optional("window", &AckLossFault::window, fields::K::kWindow).Swarm(fields::S::kDraw).Fuzz(50)};

// "broker_restart": at `at` the broker restarts: every unacked delivery is requeued, and for
// `downtime` then `recovery` nothing is delivered or acked (docs/MODEL.md: the recovery is the
// broker's start and the clients' reconnection, the same unavailability as the downtime).
struct BrokerRestartFault {
  static constexpr FaultInfo kInfo{
      "broker_restart",
      "the broker restarts: unacked deliveries are requeued and nothing is "
      "delivered or acked for the downtime and recovery",
      FaultTarget::kBroker,
      FaultShape::kInstant,
      FaultNeeds::kNothing,
      /*swarm_draws=*/true,
      "The broker restarts: every connection closes (running attempts go on as stale copies, "
      "prefetched copies are dropped, every unacked delivery is returned and counted as a closed "
      "connection's return), and for downtime_s, then recovery_s, nothing is delivered or acked "
      "and no drain replays."};
  Instant at;         // JSON `at_s`. Required.
  Duration downtime;  // JSON `downtime_s`, >= 0. Default 0.
  Duration recovery;  // JSON `recovery_s`, >= 0. Default 0.
  // The instant delivery resumes: at + downtime + recovery.
  Instant back() const { return at + downtime + recovery; }
  std::string Detail() const {  // "5 s down + 2 s recovery"; "" for a bare restart
    if (downtime.micros() == 0 && recovery.micros() == 0) return "";
    std::string detail = base::Decimal(downtime.seconds()) + " s down";
    if (recovery.micros() > 0) detail += " + " + base::Decimal(recovery.seconds()) + " s recovery";
    return detail;
  }
  bool operator==(const BrokerRestartFault&) const = default;
};

// The swarm caps the downtime so that it ends in the safety phase (chaos/fault_draw.cc).
template <>
inline constexpr auto kFieldsOf<BrokerRestartFault> = std::tuple{
    Required("at_s", &BrokerRestartFault::at, fields::K::kInstant)
        .Doc("Instant of the restart, in seconds from the start of the run; before run.until_s. "
             "Required.")
        .Swarm(fields::S::kDraw),
    Optional("downtime_s", &BrokerRestartFault::downtime, fields::K::kSeconds,
             Closed(0, FaultLimits::kDowntimeSMax))
        .Doc("Seconds the broker is unavailable, 0..86400. Default: 0.")
        .Swarm(fields::S::kDraw, kSwarmDowntimeS)
        .Fuzz(60, 0, 60),
    // Dumped only when set: a scenario without it keeps its canonical form (and fingerprint).
    Optional("recovery_s", &BrokerRestartFault::recovery, fields::K::kSeconds,
             Closed(0, FaultLimits::kDowntimeSMax))
        .Doc("Seconds after the downtime until delivery resumes: the broker's start and the "
             "clients' reconnection (a real RabbitMQ and its clients: about 1 s, docs/LIVE.md), "
             "unavailable exactly as in the downtime; 0..86400. Default: 0 (delivery resumes the "
             "instant downtime_s ends).")
        .Fuzz(30, 0, 5)
        .DumpIfNonzero()};

// This family's types, in their order in the variant Fault (faults.h), whose index is a
// type's FaultType.
using SystemFaultTypes =
    std::tuple<DbSlowdownFault, DbOutageFault, DbConnectionsFault, DownstreamOutageFault,
               DownstreamRateLimitFault, WorkerCrashFault, AckLossFault, BrokerRestartFault>;

}  // namespace drainsim::config
