// One descriptor per fault type (issue 15 step 2): what the fault is, what it acts on, when it
// acts, how charts and traces draw it, whether the chaos swarm draws it, and its limits. The
// model, the loader, the swarm and the reports read these instead of each deciding by itself
// which types have a window, a kind or a needed section.
//
// What stays apart, per type: the fields (faults.h), reading and dumping them (sim/scenario/
// read_faults.cc, dump_policy.cc), the behaviour (sim/model/world_faults.cc) and the swarm's
// parameter ladders (chaos/fault_draw.cc). docs/MODEL.md ("One descriptor per fault type") lists
// what adding a type touches.
//
// Invariants:
//  (1) Every FaultType has exactly one descriptor, and DescriptorOf(t).type == t (a static_assert
//      in fault_types.cc and tests/config/fault_types_test.cc keep the table complete).
//  (2) DescriptorOf(t).name == NameOf(t): the JSON `type`.
//  (3) TimingOf(fault).shape == DescriptorOf(TypeOf(fault)).shape, except a worker_crash, whose
//      shape follows its fields (a rate over a window, or `count` at one instant).
//  (4) WindowOf(fault) is non-null iff the fault acts over a window (TimingOf's shape kWindow);
//      the model opens and closes that window with events, and reports count the attempts inside
//      it. A worker_crash at an instant has none: its `window` field is unused.
//
// Thread-safety: constant tables and pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "sim/config/enums.h"
#include "sim/config/faults.h"

namespace drainsim::config {

// What a fault acts on.
enum class FaultTarget : uint8_t {
  kAttempts,    // fails attempts as they run (errors)
  kMessages,    // fates chosen messages to fail on every attempt (synthetic, poison, bug)
  kDatabase,    // the database's speed, availability or pool
  kDownstream,  // the downstream API's availability or rate limit
  kWorkers,     // kills consumers
  kAcks,        // loses acks
  kBroker,      // the broker itself (a restart)
};

// How a fault is placed in time: what charts shade or mark and traces name.
enum class FaultShape : uint8_t {
  kWindow,   // active over [from, until): shaded; the trace names it opening and closing
  kOnset,    // applies to messages from `from` on (until a fix, if any): a mark at each edge
  kInstant,  // strikes at `from` (a broker restart may then be down until `until`): a line
};

// The scenario section a fault needs; the loader refuses it without one.
enum class FaultNeeds : uint8_t { kNothing, kDatabase, kDownstream };

struct FaultDescriptor {
  FaultType type;
  std::string_view name;  // the JSON `type`
  std::string_view what;  // one sentence, for docs and explanations
  FaultTarget target;
  FaultShape shape;
  FaultNeeds needs;
  bool per_kind;     // has a `kind` (required, or optional for errors)
  bool swarm_draws;  // the chaos swarm draws it (docs/SWARM.md says why bug and synthetic don't)
};

// REQUIRES: `type` is an enumerator of FaultType.
const FaultDescriptor& DescriptorOf(FaultType type);
std::span<const FaultDescriptor> FaultDescriptors();

// The loader's limits on fault fields (sim/scenario/read_faults.cc), which the swarm's draws
// must respect too (chaos/fault_draw.cc).
struct FaultLimits {
  static constexpr size_t kFaultsMax = 1000;          // faults per scenario
  static constexpr double kFailAfterMsMax = 86400e3;  // fail_after_ms: one day
  static constexpr double kDowntimeSMax = 86400;      // downtime_s, recovery_s: one day
  static constexpr double kCountMax = 1e9;            // synthetic and poison counts
  static constexpr double kSlowdownFactorMin = 1;     // db_slowdown factor
  static constexpr double kSlowdownFactorMax = 1000;
  static constexpr int64_t kConnectionsMax = 100'000;  // db_connections connections
  static constexpr double kCrashRatePerHMax = 1e6;     // worker_crash rate_per_h
  static constexpr double kBurstMax = 1e9;             // downstream_rate_limit burst
};

// When one fault acts, in simulated time (invariant (3)).
struct FaultTiming {
  FaultShape shape = FaultShape::kWindow;
  Instant from;
  // kWindow: the window's end. kOnset: a bug's fix, or the run's end for a bug never fixed;
  // none for poison and synthetic failures. kInstant: the end of a broker restart's
  // unavailability when it has one.
  std::optional<Instant> until;
};
FaultTiming TimingOf(const Fault& fault, Instant run_until);

// The window the model opens and closes (invariant (4)); nullptr for a fault without one.
const Window* WindowOf(const Fault& fault);

// The kind a fault is limited to; nullptr: every kind (or a fault that has no kind).
const std::string* KindOf(const Fault& fault);

// What it does, briefly, for chart legends and notes: "x25", "500 purge, transient", "p=0.0005".
std::string DetailOf(const Fault& fault);

}  // namespace drainsim::config
