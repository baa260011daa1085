#include "sim/config/fault_types.h"

#include <array>
#include <type_traits>
#include <variant>

#include "sim/base/check.h"
#include "sim/base/decimal.h"
#include "sim/config/enum_names.h"

namespace drainsim::config {

namespace {

// Every fault type has a field table (fault_field.h); tests/scenario/fault_types_test.cc checks
// each against the loader.
template <typename... Ts>
constexpr bool AllHaveFieldTables(const std::variant<Ts...>*) {
  return (kHasFieldTable<Ts> && ...);
}
static_assert(AllHaveFieldTables(static_cast<Fault*>(nullptr)),
              "every fault type needs a field table (kFieldsOf, fault_field.h)");

// Invariant (2) of fault_field.h: the swarm's ladders lie inside the loader's limits.
template <typename F>
constexpr bool LaddersInside() {
  bool inside = true;
  ForEachField<F>([&](const auto& field) {
    for (double value : field.ladder) inside = inside && Inside(field.limit, value);
  });
  return inside;
}
template <typename... Ts>
constexpr bool AllLaddersInside(const std::variant<Ts...>*) {
  return (LaddersInside<Ts>() && ...);
}
static_assert(AllLaddersInside(static_cast<Fault*>(nullptr)),
              "a swarm ladder leaves its field's limit");

// A type without a kInfo would fail below with a less helpful message.
template <typename... Ts>
constexpr bool AllHaveInfo(const std::variant<Ts...>*) {
  return (requires { Ts::kInfo; } && ...);
}
static_assert(AllHaveInfo(static_cast<Fault*>(nullptr)),
              "every fault type needs its kInfo (sim/config/faults_work.h, faults_systems.h)");

// Whether a fault type is limited to a kind (has a `kind` member, required or optional).
template <typename F>
concept HasKind = requires(const F& f) {
  f.kind;
};

// A type's descriptor, from its struct's kInfo (faults.h).
template <typename F>
constexpr FaultDescriptor DescriptorFor() {
  const FaultInfo& info = F::kInfo;
  return FaultDescriptor{kTypeOf<F>, info.name,  info.what,  info.target,
                         info.shape, info.needs, HasKind<F>, info.swarm_draws};
}
// In FaultType's order (invariant (1)): kTypeOf<F> is F's index in the variant.
template <typename... Ts>
constexpr auto MakeDescriptors(const std::variant<Ts...>*) {
  return std::array{DescriptorFor<Ts>()...};
}
constexpr auto kDescriptors = MakeDescriptors(static_cast<Fault*>(nullptr));

// The `type` words, from the descriptors: the one place that names a fault type.
constexpr auto MakeTypeNames() {
  std::array<EnumName<FaultType>, kDescriptors.size()> names{};
  for (size_t i = 0; i < kDescriptors.size(); ++i) {
    names[i] = EnumName<FaultType>{kDescriptors[i].type, kDescriptors[i].name};
  }
  return names;
}
constexpr auto kTypeNames = MakeTypeNames();

}  // namespace

template <>
std::span<const EnumName<FaultType>> EnumNames<FaultType>() {
  return kTypeNames;
}

const FaultDescriptor& DescriptorOf(FaultType type) {
  const auto index = static_cast<size_t>(type);
  DRAINSIM_CHECK(index < kDescriptors.size());
  return kDescriptors[index];
}

std::span<const FaultDescriptor> FaultDescriptors() { return kDescriptors; }

const Window* WindowOf(const Fault& fault) {
  // Crashes at one instant leave the window field unused (its default is [0, 0)).
  if (const auto* crash = std::get_if<WorkerCrashFault>(&fault); crash && crash->at) {
    return nullptr;
  }
  return std::visit(
      [](const auto& f) -> const Window* {
        if constexpr (requires { f.window; }) {
          return &f.window;
        } else {
          return nullptr;
        }
      },
      fault);
}

FaultTiming TimingOf(const Fault& fault, Instant run_until) {
  FaultTiming timing;
  timing.shape = DescriptorOf(TypeOf(fault)).shape;
  if (const auto* crash = std::get_if<WorkerCrashFault>(&fault); crash && crash->at) {
    timing.shape = FaultShape::kInstant;  // invariant (3)'s exception
    timing.from = *crash->at;
    return timing;
  }
  if (const Window* window = WindowOf(fault)) {
    timing.from = window->from;
    timing.until = window->until;
    return timing;
  }
  std::visit(
      [&](const auto& f) {
        using F = std::decay_t<decltype(f)>;
        if constexpr (std::is_same_v<F, BrokerRestartFault>) {
          timing.from = f.at;
          if (f.back() > f.at) timing.until = f.back();
        } else if constexpr (std::is_same_v<F, BugFault>) {
          timing.from = f.from;
          timing.until = f.fixed_at.value_or(run_until);
        } else if constexpr (requires { f.from; }) {
          timing.from = f.from;
        } else if constexpr (requires { Instant{f.at}; }) {
          timing.from = f.at;  // an instant fault's strike: a new type needs no edit here
        }
      },
      fault);
  return timing;
}

const std::string* KindOf(const Fault& fault) {
  return std::visit(
      [](const auto& f) -> const std::string* {
        using F = std::decay_t<decltype(f)>;
        if constexpr (std::is_same_v<F, ErrorsFault>) {
          return f.kind ? &*f.kind : nullptr;
        } else if constexpr (requires { f.kind; }) {
          return &f.kind;
        } else {
          return nullptr;
        }
      },
      fault);
}

std::string DetailOf(const Fault& fault) {
  return std::visit(
      [](const auto& f) -> std::string {
        if constexpr (requires { f.Detail(); }) {
          return f.Detail();
        } else {
          return "";  // db_outage, downstream_outage: the type says it all
        }
      },
      fault);
}

}  // namespace drainsim::config
