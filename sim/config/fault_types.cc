#include "sim/config/fault_types.h"

#include <array>
#include <type_traits>
#include <variant>

#include "sim/base/check.h"
#include "sim/base/decimal.h"
#include "sim/config/enum_names.h"

namespace drainsim::config {

namespace {

using base::Decimal;
using T = FaultTarget;
using S = FaultShape;
using N = FaultNeeds;

// In FaultType's order (invariant (1)).
constexpr std::array kDescriptors = {
    FaultDescriptor{kTypeOf<ErrorsFault>, "errors",
                    "each attempt fails with a probability: a flaky dependency", T::kAttempts,
                    S::kWindow, N::kNothing, true, true},
    FaultDescriptor{kTypeOf<SyntheticFailuresFault>, "synthetic_failures",
                    "the first `count` messages of a kind fail until dead-lettered; replays "
                    "succeed: the monthly rehearsal",
                    T::kMessages, S::kOnset, N::kNothing, true, false},
    FaultDescriptor{kTypeOf<PoisonFault>, "poison",
                    "messages of a kind that fail on every attempt, replays included", T::kMessages,
                    S::kOnset, N::kNothing, true, true},
    FaultDescriptor{kTypeOf<BugFault>, "bug",
                    "a fraction of a kind's messages fail until a fix is deployed", T::kMessages,
                    S::kOnset, N::kNothing, true, false},
    FaultDescriptor{kTypeOf<DbSlowdownFault>, "db_slowdown",
                    "database service times multiplied by a factor", T::kDatabase, S::kWindow,
                    N::kDatabase, false, true},
    FaultDescriptor{kTypeOf<DbOutageFault>, "db_outage",
                    "every query fails at once with a transient error", T::kDatabase, S::kWindow,
                    N::kDatabase, false, true},
    FaultDescriptor{kTypeOf<DbConnectionsFault>, "db_connections",
                    "the connection pool shrinks or grows", T::kDatabase, S::kWindow, N::kDatabase,
                    false, true},
    FaultDescriptor{kTypeOf<DownstreamOutageFault>, "downstream_outage",
                    "every downstream call answers 503 (transient)", T::kDownstream, S::kWindow,
                    N::kDownstream, false, true},
    FaultDescriptor{kTypeOf<DownstreamRateLimitFault>, "downstream_rate_limit",
                    "the downstream API's token bucket changes", T::kDownstream, S::kWindow,
                    N::kDownstream, false, true},
    FaultDescriptor{kTypeOf<WorkerCrashFault>, "worker_crash",
                    "consumers die, at a rate over a window or some at one instant, and come "
                    "back after workers.restart_s",
                    T::kWorkers, S::kWindow, N::kNothing, false, true},
    FaultDescriptor{kTypeOf<AckLossFault>, "ack_loss",
                    "each ack is lost with a probability; the message is delivered again", T::kAcks,
                    S::kWindow, N::kNothing, false, true},
    FaultDescriptor{kTypeOf<BrokerRestartFault>, "broker_restart",
                    "the broker restarts: unacked deliveries are requeued and nothing is "
                    "delivered or acked for the downtime and recovery",
                    T::kBroker, S::kInstant, N::kNothing, false, true},
};
static_assert(kDescriptors.size() == std::variant_size_v<Fault>,
              "every fault type needs a descriptor");

constexpr bool InOrder() {
  for (size_t i = 0; i < kDescriptors.size(); ++i) {
    if (static_cast<size_t>(kDescriptors[i].type) != i) return false;
  }
  return true;
}
static_assert(InOrder(), "descriptors are in FaultType's order");

// The `type` words, from the descriptors: the one place that names a fault type.
constexpr auto MakeTypeNames() {
  std::array<EnumName<FaultType>, kDescriptors.size()> names{};
  for (size_t i = 0; i < kDescriptors.size(); ++i) {
    names[i] = EnumName<FaultType>{kDescriptors[i].type, kDescriptors[i].name};
  }
  return names;
}
constexpr auto kTypeNames = MakeTypeNames();

std::string KindText(const std::optional<std::string>& kind) { return kind ? *kind : "every kind"; }
std::string ErrorText(ErrorClass error) { return std::string(NameOf(error)); }

// Appends rather than operator+ on a short literal: GCC 12 at -O3 warns falsely (-Wrestrict).
std::string Prefixed(std::string_view prefix, const std::string& text) {
  std::string out;
  out.reserve(prefix.size() + text.size());
  out.append(prefix);
  out.append(text);
  return out;
}

std::string InjectedDetail(const SyntheticFailuresFault& f) {
  return std::to_string(f.count) + " " + f.kind + ", " + ErrorText(f.error);
}
std::string InjectedDetail(const PoisonFault& f) {
  return (f.count ? std::to_string(*f.count) : "fraction " + Decimal(*f.fraction)) + " " + f.kind +
         ", " + ErrorText(f.error);
}
std::string InjectedDetail(const BugFault& f) {
  return f.kind + ", fraction " + Decimal(f.fraction) + ", " + ErrorText(f.error) +
         (f.fixed_at ? "" : ", never fixed");
}

std::string RestartDetail(const BrokerRestartFault& f) {
  if (f.downtime.micros() == 0 && f.recovery.micros() == 0) return "";
  std::string detail = Decimal(f.downtime.seconds()) + " s down";
  if (f.recovery.micros() > 0) detail += " + " + Decimal(f.recovery.seconds()) + " s recovery";
  return detail;
}

std::string CrashDetail(const WorkerCrashFault& f) {
  std::string detail(NameOf(f.point));
  if (f.at) return detail + ", " + std::to_string(f.count) + " at once";
  return detail + ", " + Decimal(*f.rate_per_h) + "/h";
}

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
        using F = std::decay_t<decltype(f)>;
        if constexpr (std::is_same_v<F, ErrorsFault>) {
          return KindText(f.kind) + ", p=" + Decimal(f.probability) + ", " + ErrorText(f.error);
        } else if constexpr (std::is_same_v<F, SyntheticFailuresFault> ||
                             std::is_same_v<F, PoisonFault> || std::is_same_v<F, BugFault>) {
          return InjectedDetail(f);
        } else if constexpr (std::is_same_v<F, DbSlowdownFault>) {
          return Prefixed("x", Decimal(f.factor));
        } else if constexpr (std::is_same_v<F, DbConnectionsFault>) {
          return std::to_string(f.connections) + " connections";
        } else if constexpr (std::is_same_v<F, DownstreamRateLimitFault>) {
          return Decimal(f.rate_limit_per_s) + "/s, burst " + std::to_string(f.burst);
        } else if constexpr (std::is_same_v<F, WorkerCrashFault>) {
          return CrashDetail(f);
        } else if constexpr (std::is_same_v<F, AckLossFault>) {
          return Prefixed("p=", Decimal(f.probability));
        } else if constexpr (std::is_same_v<F, BrokerRestartFault>) {
          return RestartDetail(f);
        } else {
          return "";  // db_outage, downstream_outage: the type says it all
        }
      },
      fault);
}

}  // namespace drainsim::config
