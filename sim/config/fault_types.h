// One descriptor per fault type (issue 15 step 2): what the fault is, what it acts on, when it
// acts, how charts and traces draw it, whether the chaos swarm draws it, and its limits,
// gathered from what each type says of itself beside its struct (kInfo, Detail(), the field
// table: faults.h). The model, the loader, the swarm and the reports read these instead of
// each deciding by itself which types have a window, a kind or a needed section. The field
// tables are walked by the loader, the dump, the swarm and the fuzz generator; the behaviour is
// in sim/model/. docs/MODEL.md ("One descriptor per fault type") lists what adding a type
// touches.
//
// Invariants:
//  (1) Every FaultType has exactly one descriptor, and DescriptorOf(t).type == t: the table is
//      made from the variant's types in order, and a type without a kInfo does not compile
//      (tests/scenario/fault_types_test.cc checks it too).
//  (2) DescriptorOf(t).name == NameOf(t): the JSON `type` (EnumNames<FaultType> is made from the
//      descriptors).
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
#include "sim/config/fault_info.h"
#include "sim/config/faults.h"

namespace drainsim::config {

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

// REQUIRES: `type` is a fault type (an index of the variant Fault).
const FaultDescriptor& DescriptorOf(FaultType type);
std::span<const FaultDescriptor> FaultDescriptors();

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
