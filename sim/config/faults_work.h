// The fault types that act on the work itself: errors while attempts run, and messages fated
// to fail (synthetic_failures, poison, bug). One struct and one field table per type; what they
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

// This family's types, in their order in the variant Fault (faults.h), whose index is a
// type's FaultType.
using WorkFaultTypes = std::tuple<ErrorsFault, SyntheticFailuresFault, PoisonFault, BugFault>;

}  // namespace drainsim::config
