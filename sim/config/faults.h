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
// Fault. The structs live in two headers by what they act on: faults_work.h (attempts and
// messages) and faults_systems.h (the database, the downstream API, consumers, acks, the broker).
// Adding a type is, by hand, its struct, table and place in its header's list there, its
// behaviour in sim/model/ (an instant fault also an EventType in events.h), a test of that
// behaviour and a use in scenarios/full-vocabulary.json; then `tools/docs/regenerate` rewrites
// the schema's fault part and docs/SCENARIO-REFERENCE.md from these (docs/MODEL.md, "One
// descriptor per fault type"). tests/scenario/fault_types_test.cc makes its sample from its
// table.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <variant>

#include "sim/config/enums.h"
#include "sim/config/faults_systems.h"
#include "sim/config/faults_work.h"

namespace drainsim::config {

// The two families' lists, in this order, are the variant: a type's place in its family's list
// (faults_work.h, faults_systems.h) is its place here, so that adding a type edits one header.
template <typename Work, typename Systems>
struct JoinedVariant;
template <typename... Work, typename... Systems>
struct JoinedVariant<std::tuple<Work...>, std::tuple<Systems...>> {
  using type = std::variant<Work..., Systems...>;
};
using Fault = JoinedVariant<WorkFaultTypes, SystemFaultTypes>::type;

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
