// The work a scenario describes: message kinds with their handlers, producers, the initial
// backlog, and the time windows used throughout the format.
//
// Invariants of a loaded scenario (the loader checks them):
//  (1) Window: 0 <= from < until <= run.until.
//  (2) Every kind name matches [A-Za-z0-9][A-Za-z0-9_.-]{0,63}; every producer and backlog
//      entry names a kind of Scenario::kinds.
//  (3) Every placeholder of a kind's key_pattern is built in ({id}, {kind}, {date}) or set in
//      the `fields` of every producer and backlog entry of that kind.
//  (4) Producers and backlog together publish something, and about 1e9 messages at most
//      (about 1.07e8 while 160 bytes each of pending messages must fit in 16 GiB).
//  (5) BacklogEntry: `error` is set iff where != main; `reason` iff where == dlq; `due_in`
//      iff where == delayed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>

#include "sim/config/distribution.h"
#include "sim/config/enums.h"
#include "sim/engine/time.h"

namespace drainsim::config {

// Every name a scenario gives (kinds, producers, fields, fitted parameters) is 1..64 bytes: long
// enough for any sensible name, short enough for report columns and JSON pointers.
inline constexpr size_t kNameBytesMax = 64;

using engine::Duration;
using engine::Instant;

// Per-message fields that fill a key_pattern's placeholders: {"tenant": "acme"}.
// Names match [A-Za-z_][A-Za-z0-9_]{0,63} and are not `id` or `kind` (those are fixed); a field
// named `date` overrides the built-in {date}. At most 32 fields, values at most 200 bytes.
using Fields = std::map<std::string, std::string>;

// [from, until): JSON `from_s`, `until_s`, seconds from the start of the run.
struct Window {
  Instant from;   // Default 0.
  Instant until;  // Default: run.until_s.
  bool operator==(const Window&) const = default;
};

// What one attempt of a kind's handler does, in order: validate, claim (kinds with
// idempotency "claim": one more database operation), db_ops database operations,
// downstream_calls API calls, cpu time, commit, ack.
struct Handler {
  // JSON `validate_ms`. Default {"constant": 0}. Time spent parsing and validating before any
  // I/O; a poison pill detected here fails fast.
  DistributionSpec validate_ms = DistributionSpec::Constant(0);
  // Database operations per attempt, 0..1000. Default 0. Each holds a connection for one
  // db_op_ms draw; more ops mean more exposure to a slow database.
  int64_t db_ops = 0;
  // JSON `db_op_ms`. Service time of one database operation, before overload and faults.
  // Required iff db_ops > 0 (a guess would hide the scenario's most important number).
  std::optional<DistributionSpec> db_op_ms;
  // Downstream API calls per attempt, 0..1000. Default 0. Needs a `downstream` section.
  int64_t downstream_calls = 0;
  // JSON `cpu_ms`. Default {"constant": 0}. Worker CPU time per attempt (no connection held).
  DistributionSpec cpu_ms = DistributionSpec::Constant(0);
  bool operator==(const Handler&) const = default;
};

struct Kind {
  // Default "none": the pessimistic choice, every duplicate execution is visible.
  Idempotency idempotency = Idempotency::kNone;
  // How the idempotency key is derived from the work. Default "{kind}:{id}". Placeholders:
  // {id} (the message's index, unique in the run), {kind} (the kind's name), {date} (the
  // simulated day of the message's first publish, "day-N" with N = floor(publish_s / 86400):
  // "day-0" from the run's start, "day-m1" for the day before it, so a backlog message aged
  // 1 s is on "day-m1"; a `date` field overrides it), and any field set by every producer
  // and backlog entry of this kind. At most 200 bytes; '{' and '}' only around placeholders.
  // A pattern without {id} makes messages share keys on purpose.
  std::string key_pattern = "{kind}:{id}";
  Handler handler;
  bool operator==(const Kind&) const = default;
};

// {"fanout": {...}}: a cron trigger fanning out `count` messages at `at`.
struct FanoutSchedule {
  Instant at;                                // JSON `at_s`. Required, inside the run.
  int64_t count = 0;                         // Required, >= 1.
  std::optional<double> publish_rate_per_s;  // > 0. Default null: all at once.
  std::optional<Duration> every;             // JSON `every_s`, > 0. Default null: fire once.
  bool operator==(const FanoutSchedule&) const = default;
};

// {"constant": {...}}: evenly spaced publishes at rate_per_s over the window.
struct ConstantSchedule {
  double rate_per_s = 0;  // Required, > 0.
  Window window;
  bool operator==(const ConstantSchedule&) const = default;
};

// {"poisson": {...}}: Poisson arrivals at rate_per_s over the window.
struct PoissonSchedule {
  double rate_per_s = 0;  // Required, > 0.
  Window window;
  bool operator==(const PoissonSchedule&) const = default;
};

// {"burst": {...}}: `count` messages at one instant, optionally repeated.
struct BurstSchedule {
  Instant at;                     // JSON `at_s`. Required, inside the run.
  int64_t count = 0;              // Required, >= 1.
  std::optional<Duration> every;  // JSON `every_s`, > 0. Default null: once.
  bool operator==(const BurstSchedule&) const = default;
};

struct Producer {
  using Schedule = std::variant<FanoutSchedule, ConstantSchedule, PoissonSchedule, BurstSchedule>;
  std::string kind;  // Required; a key of Scenario::kinds.
  Fields fields;     // Default {}.
  Schedule schedule;
  ProducerShape shape() const { return static_cast<ProducerShape>(schedule.index()); }
  bool operator==(const Producer&) const = default;
};
static_assert(std::variant_size_v<Producer::Schedule> ==
              static_cast<size_t>(ProducerShape::kBurst) + 1);

// Messages that already exist when the run starts: the DLQ after a bad night, a queue that
// built up during an outage.
struct BacklogEntry {
  BacklogWhere where = BacklogWhere::kMain;  // Required.
  std::string kind;                          // Required; a key of Scenario::kinds.
  int64_t count = 0;                         // Required, >= 1.
  // JSON `age_s`: how long before the run's start they were first published. Default 0.
  // Drives age alerts and DLQ retention.
  Duration age;
  // Attempts already made. Default 0 for main, 1 otherwise. Replays start again at 1.
  int64_t attempts = 0;
  // Last failure's class; set iff where != main. Default "transient".
  std::optional<ErrorClass> error;
  // Why they were dead-lettered; set iff where == dlq. Default "max_attempts".
  std::optional<DlqReason> reason;
  // JSON `due_in_s`: when the delayed retry becomes ready, from the run's start; set iff
  // where == delayed. Default 0.
  std::optional<Duration> due_in;
  Fields fields;  // Default {}.
  bool operator==(const BacklogEntry&) const = default;
};

}  // namespace drainsim::config
