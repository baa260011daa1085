#include "chaos/fault_draw.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "sim/base/check.h"
#include "sim/config/enum_names.h"
#include "sim/config/fault_types.h"
#include "sim/engine/rng.h"

namespace drainsim::chaos {

namespace {

using config::FaultType;
using engine::Duration;
using engine::Instant;
using engine::Rng;

constexpr uint64_t kSwarmStream = engine::StreamId("swarm");

using Limits = config::FaultLimits;

// One generator per fault type, with the draws every type needs.
class FaultDraw {
 public:
  FaultDraw(uint64_t seed, FaultType type, Instant safety_end)
      : rng_(Rng::ForStream(seed, kSwarmStream, static_cast<uint64_t>(type))),
        safety_ms_(safety_end.micros() / 1000) {
    DRAINSIM_CHECK(safety_ms_ >= 1);
  }

  bool Coin() { return rng_.Bernoulli(1, 2); }

  // Uniform on [low, high].
  int64_t Int(int64_t low, int64_t high) {
    DRAINSIM_CHECK(low <= high);
    return low + static_cast<int64_t>(rng_.UniformInt(static_cast<uint64_t>(high - low) + 1));
  }

  double Pick(std::span<const double> ladder) {
    DRAINSIM_CHECK(!ladder.empty());
    return ladder[rng_.UniformInt(ladder.size())];
  }

  // One of E's enumerators, each as likely.
  template <typename E>
  E Enum() {
    return static_cast<E>(rng_.UniformInt(config::EnumNames<E>().size()));
  }

  // A whole millisecond in [0, safety_end).
  Instant At() { return Ms(Int(0, safety_ms_ - 1)); }

  // [from, until) with whole-millisecond ends inside [0, safety_end), at least 1 ms long.
  config::Window Window() {
    const int64_t from_ms = Int(0, safety_ms_ - 1);
    const int64_t until_ms = Int(from_ms + 1, safety_ms_);
    return config::Window{Ms(from_ms), Ms(until_ms)};
  }

  int64_t safety_ms() const { return safety_ms_; }

 private:
  static Instant Ms(int64_t ms) { return Instant::Zero() + Duration::Millis(ms); }

  Rng rng_;
  int64_t safety_ms_;
};

std::string PickKind(FaultDraw& draw, const config::Scenario& s) {
  auto it = s.kinds.begin();
  std::advance(it, draw.Int(0, static_cast<int64_t>(s.kinds.size()) - 1));
  return it->first;
}

// A struct, not a variable template: clang warns of an unused const variable in an unnamed
// namespace when only a discarded branch names it.
template <typename>
struct Undrawable : std::false_type {};

// One value of a field, by its kind (fault_field.h's SwarmDraw::kDraw).
template <typename V, typename F, typename M>
V DrawValue(FaultDraw& draw, const config::Scenario& s, const config::Field<F, M>& field) {
  if constexpr (std::is_same_v<V, std::string>) {
    return PickKind(draw, s);
  } else if constexpr (std::is_same_v<V, double>) {
    return draw.Pick(field.ladder);
  } else if constexpr (std::is_same_v<V, int64_t>) {
    return static_cast<int64_t>(draw.Pick(field.ladder));
  } else if constexpr (std::is_enum_v<V>) {
    return draw.Enum<V>();
  } else if constexpr (std::is_same_v<V, Duration>) {
    // Ladders are whole numbers of the key's unit: whole milliseconds (invariant (3)).
    const auto value = static_cast<int64_t>(draw.Pick(field.ladder));
    return Duration::Millis(field.kind == config::FieldKind::kSeconds ? value * 1000 : value);
  } else if constexpr (std::is_same_v<V, Instant>) {
    return draw.At();
  } else if constexpr (std::is_same_v<V, config::Window>) {
    return draw.Window();
  } else {
    static_assert(Undrawable<V>::value, "no swarm draw for this member type");
  }
}

template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};

// The fields a table marks as drawn, in its order: a seed's plan depends on that order.
template <typename F, typename M>
void DrawField(FaultDraw& draw, const config::Scenario& s, const config::Field<F, M>& field,
               F& fault) {
  if (field.swarm == config::SwarmDraw::kNone) return;
  M& member = fault.*field.member;
  if constexpr (IsOptional<M>::value) {
    if (field.swarm == config::SwarmDraw::kCoin && !draw.Coin()) return;
    member = DrawValue<typename M::value_type>(draw, s, field);
  } else {
    DRAINSIM_CHECK(field.swarm == config::SwarmDraw::kDraw);
    member = DrawValue<M>(draw, s, field);
  }
}

// What a type needs beyond its table's draws: values that depend on the scenario or on the
// plan's safety phase.
template <typename F>
void AfterFields(FaultDraw& draw, const config::Scenario& s, F& f) {
  if constexpr (std::is_same_v<F, config::PoisonFault>) {
    // A pill that hangs can outlast its visibility (in a prefetch buffer behind other pills,
    // or on its own): its failure then comes from a stale copy and is ignored, and it is
    // delivered again, for ever. Only the broker's receive count can end that, so without
    // one the pills fail fast. The draw still happens, to keep the stream aligned.
    if (!s.broker.receive_count_max) f.fail_after.reset();
  } else if constexpr (std::is_same_v<F, config::BrokerRestartFault>) {
    // Invariant (2): the downtime ends in the safety phase.
    const int64_t left_ms = draw.safety_ms() - f.at.micros() / 1000;
    f.downtime = Duration::Millis(std::min(f.downtime.micros() / 1000, left_ms));
  } else if constexpr (std::is_same_v<F, config::DbConnectionsFault>) {
    f.connections = draw.Int(1, std::min(Limits::kConnectionsMax, 2 * s.database->connections));
  } else if constexpr (std::is_same_v<F, config::DownstreamRateLimitFault>) {
    f.burst = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(f.rate_limit_per_s)));
  }
}

// worker_crash: a rate over a window, or some workers at one instant.
config::WorkerCrashFault DrawWorkerCrashFault(FaultDraw& draw, const config::Scenario& s) {
  config::WorkerCrashFault f;
  if (draw.Coin()) {
    f.rate_per_h = draw.Pick(config::kSwarmCrashRatesPerH);
    f.window = draw.Window();
  } else {
    f.at = draw.At();
    f.count = draw.Int(1, s.workers.count);
  }
  f.point = draw.Coin() ? config::CrashPoint::kAnywhere : config::CrashPoint::kBetweenCommitAndAck;
  return f;
}

template <typename F>
config::Fault DrawOne(FaultDraw& draw, const config::Scenario& s) {
  if constexpr (std::is_same_v<F, config::WorkerCrashFault>) {
    return DrawWorkerCrashFault(draw, s);
  } else {
    F fault;
    config::ForEachField<F>([&](const auto& field) { DrawField(draw, s, field, fault); });
    AfterFields(draw, s, fault);
    return fault;
  }
}

template <size_t... I>
config::Fault DrawTyped(FaultType type, FaultDraw& draw, const config::Scenario& s,
                        std::index_sequence<I...>) {
  using Drawer = config::Fault (*)(FaultDraw&, const config::Scenario&);
  static constexpr Drawer kDrawers[] = {&DrawOne<std::variant_alternative_t<I, config::Fault>>...};
  const auto index = static_cast<size_t>(type);
  DRAINSIM_CHECK(index < std::size(kDrawers));
  return kDrawers[index](draw, s);
}

// The descriptor says which types the swarm draws and which section each needs.
bool Applicable(FaultType type, const config::Scenario& s) {
  const config::FaultDescriptor& d = config::DescriptorOf(type);
  if (!d.swarm_draws) return false;
  switch (d.needs) {
    case config::FaultNeeds::kNothing:
      return true;
    case config::FaultNeeds::kDatabase:
      return s.database.has_value();
    case config::FaultNeeds::kDownstream:
      return s.downstream.has_value();
  }
  return false;
}

}  // namespace

// The ladders rise: their last step is the longest.
Duration FailAfterMax() {
  return Duration::Millis(static_cast<int64_t>(std::span(config::kSwarmFailAfterMs).back()));
}
Duration BrokerDowntimeMax() {
  return Duration::Seconds(static_cast<int64_t>(std::span(config::kSwarmDowntimeS).back()));
}

std::vector<config::Fault> DrawFaults(const config::Scenario& skeleton, Instant safety_end,
                                      uint64_t seed) {
  std::vector<config::Fault> faults;
  for (const config::FaultDescriptor& descriptor : config::FaultDescriptors()) {
    const FaultType type = descriptor.type;
    if (!Applicable(type, skeleton)) continue;
    FaultDraw draw(seed, type, safety_end);
    if (!draw.Coin()) continue;
    faults.push_back(DrawTyped(type, draw, skeleton,
                               std::make_index_sequence<std::variant_size_v<config::Fault>>()));
  }
  return faults;
}

}  // namespace drainsim::chaos
