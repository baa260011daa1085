// Reader for faults: one object per fault, its `type` picking the fields, read generically
// over the type's field table (sim/config/fault_field.h, faults.h). The worker crash's two forms
// keep a small reader of their own.
#include <algorithm>
#include <iterator>
#include <type_traits>
#include <utility>
#include <variant>

#include "sim/config/fault_types.h"
#include "sim/scenario/read_sections.h"

namespace drainsim::scenario::internal {

namespace {

using config::FaultLimits;
static_assert(FaultLimits::kTokenRatePerSMin == kTokenRatePerSecondMin);
static_assert(FaultLimits::kTokenRatePerSMax == kTokenRatePerSecondMax);

struct FaultReader {
  ObjectReader& o;
  Context& c;
  bool ok = true;
  // The keys declared so far and their nodes: a key of an "exactly one of" pair is declared
  // once, when the pair is checked, as "allowed keys" lists each key once in reading order.
  std::vector<std::pair<std::string_view, Node>> nodes;

  template <typename T>
  T Check(std::optional<T> value, const Node& node) {
    if (!value) {
      if (node.present()) ok = false;
      return T{};
    }
    return *value;
  }
  config::Window TimeWindow(bool required) {
    config::Window window;
    if (!ReadWindow(o, c, required, &window)) ok = false;
    c.has_fault_window = true;
    return window;
  }
  Node NodeFor(std::string_view key, config::Presence presence) {
    for (const auto& [known, node] : nodes) {
      if (known == key) return node;
    }
    Node node = presence == config::Presence::kRequired ? o.Required(key) : o.Optional(key);
    if (presence == config::Presence::kNullable) node = NullAsAbsent(node);
    nodes.emplace_back(key, node);
    return node;
  }
  void ExactlyOneOf(std::string_view first, std::string_view second) {
    const Node a = NodeFor(first, config::Presence::kNullable);
    const Node b = NodeFor(second, config::Presence::kNullable);
    if (a.present() == b.present()) {
      o.node().Error("needs exactly one of " + std::string(first) + ", " + std::string(second) +
                     (a.present() ? " (got both)" : ""));
      ok = false;
    }
  }
  // Faults that act on a section the scenario does not have.
  void Needs(bool present, std::string_view section, const Node& type_node) {
    if (!present) {
      type_node.Error("needs a '" + std::string(section) + "' section, and the scenario has none");
      ok = false;
    }
  }
};

Range RangeOf(const config::Limit& limit) {
  return Range{limit.min, limit.max, limit.min_open, limit.max_open};
}

// A bug's fix: after its onset, and by the end of the run; the latest one is where drains'
// start_after_fix_s counts from.
std::optional<engine::Instant> ReadFix(FaultReader& r, const Node& node, const Range& range,
                                       engine::Instant from) {
  std::optional<engine::Instant> fix = ReadInstant(node, range);
  if (fix && r.c.run_until && *fix > *r.c.run_until) {
    node.Error("must be <= " + RunEndText(r.c) + " (got " + Describe(node.json()) + ")");
    return std::nullopt;
  }
  if (fix && *fix <= from) {
    node.Error("must be > from_s = " + FormatNumber(from.seconds()) + " (got " +
               Describe(node.json()) + ")");
    return std::nullopt;
  }
  if (fix) r.c.last_fix = std::max(r.c.last_fix.value_or(*fix), *fix);
  return fix;
}

// A struct, not a variable template: clang warns of an unused const variable in an unnamed
// namespace when only a discarded branch names it.
template <typename>
struct Unreadable : std::false_type {};

// One value of a field's kind at `node` (absent: nullopt, silently).
template <typename V, typename F>
std::optional<V> ReadValue(FaultReader& r, config::FieldKind kind, const Range& range,
                           const Node& node, const F& fault) {
  using config::FieldKind;
  if constexpr (std::is_same_v<V, std::string>) {
    return ReadKindRef(node, r.c);
  } else if constexpr (std::is_same_v<V, double>) {
    return ReadNumber(node, range);
  } else if constexpr (std::is_same_v<V, int64_t>) {
    return ReadInt(node, range);
  } else if constexpr (std::is_enum_v<V>) {
    return ReadEnum<V>(node);
  } else if constexpr (std::is_same_v<V, engine::Duration>) {
    return kind == FieldKind::kMillis ? ReadMillis(node, range) : ReadSeconds(node, range);
  } else if constexpr (std::is_same_v<V, engine::Instant>) {
    if (kind != FieldKind::kFixAt) return ReadAt(node, r.c);
    if constexpr (requires { fault.from; }) return ReadFix(r, node, range, fault.from);
    DRAINSIM_CHECK(false && "kFixAt needs a from_s field");
    return std::nullopt;
  } else {
    static_assert(Unreadable<V>::value, "no reader for this member type");
  }
}

template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};

// One field of a table: required ones report their absence, optional ones keep the struct's
// default when absent, nullable ones (std::optional members) are none when absent or null.
template <typename F, typename M>
void ReadField(FaultReader& r, const config::Field<F, M>& field, F& fault) {
  M& member = fault.*field.member;
  const bool required = field.presence == config::Presence::kRequired;
  if constexpr (std::is_same_v<M, config::Window>) {
    if (!ReadWindow(r.o, r.c, required, &member)) r.ok = false;
  } else {
    if (!field.one_of.empty()) r.ExactlyOneOf(field.key, field.one_of);
    const Node node = r.NodeFor(field.key, field.presence);
    const Range range = RangeOf(field.limit);
    if constexpr (IsOptional<M>::value) {
      DRAINSIM_CHECK(field.presence == config::Presence::kNullable);
      member = ReadValue<typename M::value_type>(r, field.kind, range, node, fault);
      if (node.present() && !member) r.ok = false;
    } else {
      DRAINSIM_CHECK(field.presence != config::Presence::kNullable);
      if (required && !node.present()) r.ok = false;
      if (node.present()) member = r.Check(ReadValue<M>(r, field.kind, range, node, fault), node);
    }
  }
}

// What a type needs beyond its fields, after them (its keys come last in "allowed keys").
template <typename F>
void AfterFields(FaultReader& r, F& fault) {
  if constexpr (std::is_same_v<F, config::ErrorsFault>) {
    // `drainsim fit`'s provenance of the probability; not part of the typed configuration.
    ObjectReader& o = r.o;
    const Node fitted_node = o.Optional("fitted");
    const std::optional<config::Fitted> fitted = ReadFitted(fitted_node);
    if (fitted) o.node().problems().fitted[o.node().pointer()] = *fitted;
    if (fitted_node.present() && !fitted) r.ok = false;
    // And of fail_after_ms, which it needs (a provenance of nothing is a mistake).
    const Node after_node = o.Optional("fail_after_fitted");
    const std::optional<config::Fitted> after = ReadFitted(after_node);
    if (after && !fault.fail_after) {
      after_node.Error("needs fail_after_ms (the value it is the provenance of)");
      r.ok = false;
    } else if (after) {
      o.node().problems().fitted[o.node().pointer() + "/fail_after_fitted"] = *after;
    }
    if (after_node.present() && !after) r.ok = false;
  } else if constexpr (std::is_same_v<F, config::DownstreamRateLimitFault>) {
    if (!r.NodeFor("burst", config::Presence::kOptional).present()) {
      fault.burst = DefaultBurst(fault.rate_limit_per_s);
    }
  }
}

// worker_crash: a rate over a window, or `count` at one instant (faults.h, invariant (4)).
config::WorkerCrashFault ReadWorkerCrashFault(FaultReader& r) {
  ObjectReader& o = r.o;
  config::WorkerCrashFault f;
  const Node rate = NullAsAbsent(o.Optional("rate_per_h"));
  const Node at = NullAsAbsent(o.Optional("at_s"));
  const Node point = o.Optional("point");
  if (point.present()) f.point = r.Check(ReadEnum<config::CrashPoint>(point), point);
  if (rate.present() == at.present()) {
    o.node().Error("needs exactly one of rate_per_h, at_s" +
                   std::string(rate.present() ? " (got both)" : ""));
    r.ok = false;
    for (auto key : {"count", "from_s", "until_s"}) o.Optional(key);
    return f;
  }
  if (rate.present()) {
    f.rate_per_h = ReadNumber(rate, Range::AboveAtMost(0, FaultLimits::kCrashRatePerHMax));
    if (!f.rate_per_h) r.ok = false;
    f.window = r.TimeWindow(false);
    const Node count = o.Optional("count");
    if (count.present()) {
      count.Error("applies only with at_s (a rate crashes one worker at a time)");
      r.ok = false;
    }
  } else {
    f.at = ReadAt(at, r.c);
    if (!f.at) r.ok = false;
    const Node count = o.Optional("count");
    const double fleet =
        r.c.workers_count ? static_cast<double>(*r.c.workers_count) : FaultLimits::kCrashCountMax;
    if (count.present()) f.count = r.Check(ReadInt(count, Range::Closed(1, fleet)), count);
    for (auto key : {"from_s", "until_s"}) {
      const Node node = o.Optional(key);
      if (node.present()) {
        node.Error("applies only with rate_per_h (at_s crashes at one instant)");
        r.ok = false;
      }
    }
  }
  return f;
}

// A fault of type F, read field by field from its table (sim/config/faults.h). Each type reads
// its keys in its table's order, which is the order of its problems in the loader's report.
template <typename F>
config::Fault ReadOne(FaultReader& r) {
  if constexpr (std::is_same_v<F, config::WorkerCrashFault>) {
    return ReadWorkerCrashFault(r);
  } else {
    F fault;
    config::ForEachField<F>([&](const auto& field) { ReadField(r, field, fault); });
    AfterFields(r, fault);
    // A fault that lasts (a window, a bug until its fix, a broker down for a while) gives
    // expectations `during: faults` something to judge.
    if (config::TimingOf(fault, engine::Instant::Never()).until) r.c.has_fault_window = true;
    return fault;
  }
}

template <size_t... I>
config::Fault ReadTyped(config::FaultType type, FaultReader& r, std::index_sequence<I...>) {
  using Reader = config::Fault (*)(FaultReader&);
  static constexpr Reader kReaders[] = {&ReadOne<std::variant_alternative_t<I, config::Fault>>...};
  const auto index = static_cast<size_t>(type);
  DRAINSIM_CHECK(index < std::size(kReaders));
  return kReaders[index](r);
}

}  // namespace

void ReadFaults(const Node& node, Context& c, std::vector<config::Fault>* faults) {
  for (const Node& item : ArrayItems(node, 0, FaultLimits::kFaultsMax)) {
    ObjectReader o(item);
    if (!o.valid()) {
      if (item.is_null()) item.TypeError("an object");
      continue;
    }
    const Node type_node = o.Required("type");
    auto type = ReadEnum<config::FaultType>(type_node);
    if (!type) {
      // Without a type the other keys cannot be judged; report only the type.
      continue;
    }
    FaultReader reader{o, c, true, {}};
    switch (config::DescriptorOf(*type).needs) {
      case config::FaultNeeds::kNothing:
        break;
      case config::FaultNeeds::kDatabase:
        reader.Needs(c.has_database, "database", type_node);
        break;
      case config::FaultNeeds::kDownstream:
        reader.Needs(c.has_downstream, "downstream", type_node);
        break;
    }
    config::Fault fault =
        ReadTyped(*type, reader, std::make_index_sequence<std::variant_size_v<config::Fault>>());
    o.Finish("for type '" + std::string(config::NameOf(*type)) + "'");
    if (reader.ok) faults->push_back(std::move(fault));
  }
}

}  // namespace drainsim::scenario::internal
