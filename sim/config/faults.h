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
//
// Each type is one place: its struct opens with its kInfo (fault_info.h: its `type` word, what
// it is and acts on, its shape in time, the section it needs, whether the swarm draws it, its
// schema description) and may have a Detail() (its chart legend); its field table
// (fault_field.h: keys, kinds, the loader's limits, how the swarm and the fuzz generator draw
// it, each field's schema text in Doc()) follows it. Its FaultType is its index in the variant
// Fault. Adding a type is, by hand, its struct and table here, its behaviour in sim/model/ (an
// instant fault also an EventType in events.h), a test of that behaviour and a use in
// scenarios/full-vocabulary.json; then `tools/docs/regenerate` rewrites the schema's fault part
// and docs/SCENARIO-REFERENCE.md from this file (docs/MODEL.md, "One descriptor per fault
// type"). tests/scenario/fault_types_test.cc makes its sample from its table.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <variant>

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

// "errors": each attempt fails with `probability` (a flaky dependency).
struct ErrorsFault {
  static constexpr FaultInfo kInfo{"errors",
                                   "each attempt fails with a probability: a flaky dependency",
                                   FaultTarget::kAttempts,
                                   FaultShape::kWindow,
                                   FaultNeeds::kNothing,
                                   /*swarm_draws=*/true,
                                   "Each attempt fails with a probability: a flaky dependency."};
  std::optional<std::string> kind;            // Default null: every kind.
  double probability = 0;                     // [0, 1]. Required.
  ErrorClass error = ErrorClass::kTransient;  // Default "transient".
  std::optional<Duration> fail_after;         // JSON `fail_after_ms`, >= 0. Default null.
  Window window;                              // Default: the whole run.
  // The key `fitted` (drainsim fit's provenance of `probability`) is read and dumped beside the
  // table (read_faults.cc) and lives apart from the struct; the schema describes it thus.
  static constexpr std::string_view kFittedDoc =
      "Where probability came from when drainsim fit estimated it: the telemetry, the number of "
      "attempts, the method and the Wilson 95% interval. Kept by the loader and the dump; the run "
      "never reads it. Default: absent.";
  // The chart legend (DetailOf): "every kind, p=0.01, transient".
  std::string Detail() const {
    return kind.value_or("every kind") + ", p=" + base::Decimal(probability) + ", " +
           std::string(NameOf(error));
  }
  bool operator==(const ErrorsFault&) const = default;
};

template <>
inline constexpr auto kFieldsOf<ErrorsFault> = std::tuple_cat(
    std::tuple{Nullable("kind", &ErrorsFault::kind, fields::K::kKind)
                   .Doc("Kind affected (a key of /kinds); null: every kind. Default: null.")
                   .Swarm(fields::S::kCoin)
                   .Fuzz(50),
               Required("probability", &ErrorsFault::probability, fields::K::kNumber, Closed(0, 1))
                   .Doc("Probability that an attempt fails, 0..1. Required.")
                   .Swarm(fields::S::kDraw, kSwarmProbabilities)
                   .Fuzz(100, 0, 1)},
    fields::InjectedFields<ErrorsFault>(),
    std::tuple{Optional("window", &ErrorsFault::window, fields::K::kWindow)
                   .Swarm(fields::S::kDraw)
                   .Fuzz(50)});

// "synthetic_failures": the monthly rehearsal. The first `count` messages of `kind` attempted
// at or after `from` fail on every attempt until they are dead-lettered; replays succeed.
struct SyntheticFailuresFault {
  static constexpr FaultInfo kInfo{
      "synthetic_failures",
      "the first `count` messages of a kind fail until dead-lettered; replays "
      "succeed: the monthly rehearsal",
      FaultTarget::kMessages,
      FaultShape::kOnset,
      FaultNeeds::kNothing,
      /*swarm_draws=*/false,
      "The monthly rehearsal: the first count messages of kind attempted at or after from_s fail "
      "on every attempt until they are dead-lettered; replays succeed."};
  std::string kind;                           // Required.
  int64_t count = 0;                          // Required, >= 1.
  ErrorClass error = ErrorClass::kTransient;  // Default "transient".
  std::optional<Duration> fail_after;         // JSON `fail_after_ms`. Default null.
  Instant from;                               // JSON `from_s`. Default 0.
  std::string Detail() const {                // "500 purge, transient"
    return std::to_string(count) + " " + kind + ", " + std::string(NameOf(error));
  }
  bool operator==(const SyntheticFailuresFault&) const = default;
};

template <>
inline constexpr auto kFieldsOf<SyntheticFailuresFault> = std::tuple_cat(
    std::tuple{Required("kind", &SyntheticFailuresFault::kind, fields::K::kKind)
                   .Doc("Kind affected. Must name a key of /kinds. Required."),
               Required("count", &SyntheticFailuresFault::count, fields::K::kCount,
                        Closed(1, FaultLimits::kCountMax))
                   .Doc("Messages forced to fail, 1..1e9. Required.")
                   .Fuzz(100, 1, 20)},
    fields::InjectedFields<SyntheticFailuresFault>(),
    std::tuple{Optional("from_s", &SyntheticFailuresFault::from, fields::K::kInstant)
                   .Doc("Only messages published at or after this instant, in seconds from the "
                        "start of the run; before run.until_s. Default: 0.")
                   .Fuzz(50)});

// "poison": messages of `kind` published at or after `from` that fail on every attempt,
// replays included: the first `count` of them, or each with probability `fraction`.
struct PoisonFault {
  static constexpr FaultInfo kInfo{
      "poison",
      "messages of a kind that fail on every attempt, replays included",
      FaultTarget::kMessages,
      FaultShape::kOnset,
      FaultNeeds::kNothing,
      /*swarm_draws=*/true,
      "Poison pills: messages that fail on every attempt, replays included; either the first count "
      "messages of kind published at or after from_s, or each with probability fraction."};
  std::string kind;                           // Required.
  std::optional<int64_t> count;               // >= 1. Exactly one of count, fraction.
  std::optional<double> fraction;             // (0, 1].
  ErrorClass error = ErrorClass::kPermanent;  // Default "permanent".
  std::optional<Duration> fail_after;         // JSON `fail_after_ms`. Default null.
  Instant from;                               // JSON `from_s`. Default 0.
  std::string Detail() const {                // "3 job, permanent", "fraction 0.01 job, permanent"
    return (count ? std::to_string(*count) : "fraction " + base::Decimal(*fraction)) + " " + kind +
           ", " + std::string(NameOf(error));
  }
  bool operator==(const PoisonFault&) const = default;
};

template <>
inline constexpr auto kFieldsOf<PoisonFault> = std::tuple_cat(
    std::tuple{
        Required("kind", &PoisonFault::kind, fields::K::kKind)
            .Doc("Kind affected. Must name a key of /kinds. Required.")
            .Swarm(fields::S::kDraw),
        Nullable("count", &PoisonFault::count, fields::K::kCount, Closed(1, FaultLimits::kCountMax))
            .Doc("The first this many messages are poison, 1..1e9. Exactly one of count and "
                 "fraction. Required unless fraction is given.")
            .OneOf("fraction")
            .Fuzz(50, 1, 20),
        // The swarm draws fractions only: a count of pills would end up in the DLQ.
        Nullable("fraction", &PoisonFault::fraction, fields::K::kNumber, AboveAtMost(0, 1))
            .Doc("Each message is poison with this probability, (0, 1]. Exactly one of count and "
                 "fraction. Required unless count is given.")
            .Swarm(fields::S::kDraw, kSwarmPoisonFractions)
            .Fuzz(50, 0.001, 1)},
    fields::InjectedFields<PoisonFault>(),
    std::tuple{Optional("from_s", &PoisonFault::from, fields::K::kInstant)
                   .Doc("Only messages published at or after this instant, in seconds from the "
                        "start of the run; before run.until_s. Default: 0.")
                   .Swarm(fields::S::kDraw)
                   .Fuzz(50)});

// "bug": from `from` until a fix is deployed at `fixed_at`, a `fraction` of the messages of
// `kind` (chosen per message, so the same ones fail every time) fail. Drains may start a
// while after the fix (Drain::start_after_fix).
struct BugFault {
  static constexpr FaultInfo kInfo{
      "bug",
      "a fraction of a kind's messages fail until a fix is deployed",
      FaultTarget::kMessages,
      FaultShape::kOnset,
      FaultNeeds::kNothing,
      /*swarm_draws=*/false,
      "A code bug: from from_s until a fix is deployed at fixed_at_s, a fraction of the messages "
      "of kind (the same ones every time) fail. Drains may start a while after the fix "
      "(start_after_fix_s)."};
  std::string kind;                           // Required.
  double fraction = 0;                        // (0, 1]. Required.
  ErrorClass error = ErrorClass::kPermanent;  // Default "permanent".
  std::optional<Duration> fail_after;         // JSON `fail_after_ms`. Default null.
  Instant from;                               // JSON `from_s`. Default 0.
  std::optional<Instant> fixed_at;            // JSON `fixed_at_s`, > from. Default null: never.
  std::string Detail() const {                // "job, fraction 0.1, permanent"
    return kind + ", fraction " + base::Decimal(fraction) + ", " + std::string(NameOf(error)) +
           (fixed_at ? "" : ", never fixed");
  }
  bool operator==(const BugFault&) const = default;
};

template <>
inline constexpr auto kFieldsOf<BugFault> = std::tuple_cat(
    std::tuple{Required("kind", &BugFault::kind, fields::K::kKind)
                   .Doc("Kind affected. Must name a key of /kinds. Required."),
               Required("fraction", &BugFault::fraction, fields::K::kNumber, AboveAtMost(0, 1))
                   .Doc("Fraction of messages that hit the bug, (0, 1]. Required.")
                   .Fuzz(100, 0.001, 1)},
    fields::InjectedFields<BugFault>(),
    std::tuple{Optional("from_s", &BugFault::from, fields::K::kInstant)
                   .Doc("When the bug ships, in seconds from the start of the run; before "
                        "run.until_s. Default: 0."),
               Nullable("fixed_at_s", &BugFault::fixed_at, fields::K::kFixAt,
                        AboveAtMost(0, std::numeric_limits<double>::infinity()))
                   .Doc("When the fix is deployed, in seconds from the start of the run; after "
                        "from_s, at most run.until_s. null: never fixed. Default: null.")
                   .Fuzz(70)});

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

using Fault =
    std::variant<ErrorsFault, SyntheticFailuresFault, PoisonFault, BugFault, DbSlowdownFault,
                 DbOutageFault, DbConnectionsFault, DownstreamOutageFault, DownstreamRateLimitFault,
                 WorkerCrashFault, AckLossFault, BrokerRestartFault>;

// A fault type's FaultType is its index in Fault: one place orders them (enums.h).
template <typename F, typename... Ts>
constexpr size_t IndexIn(const std::variant<Ts...>*) {
  constexpr bool kSame[] = {std::is_same_v<F, Ts>...};
  for (size_t i = 0; i < sizeof...(Ts); ++i) {
    if (kSame[i]) return i;
  }
  return sizeof...(Ts);
}
template <typename F>
inline constexpr FaultType kTypeOf =
    static_cast<FaultType>(IndexIn<F>(static_cast<Fault*>(nullptr)));

inline FaultType TypeOf(const Fault& fault) { return static_cast<FaultType>(fault.index()); }

// Compile-time checks of every type (its kInfo, its field table, its ladders): fault_types.cc.

}  // namespace drainsim::config
