// Reader for drain plans: start, selection, and the strategy's fields.
#include <algorithm>

#include "sim/scenario/read_sections.h"

namespace drainsim::scenario::internal {

namespace {

constexpr size_t kDrainsMax = 100;
// Drip, bounded and adaptive drains pace replays with a token bucket: its smallest rate.
constexpr Range kRateRange{kTokenRatePerSecondMin, kRateMax, false, false};

template <typename E>
std::optional<std::vector<E>> ReadEnumList(const Node& node, bool* ok) {
  if (!node.given()) return std::nullopt;
  std::vector<E> out;
  for (const Node& item : ArrayItems(node, 1, 100)) {
    auto value = ReadEnum<E>(item);
    if (!value) {
      *ok = false;
    } else if (std::find(out.begin(), out.end(), *value) != out.end()) {
      item.Error("repeats " + Quote(config::NameOf(*value)));
      *ok = false;
    } else {
      out.push_back(*value);
    }
  }
  if (out.empty()) *ok = false;
  return out;
}

config::DrainSelect ReadSelect(const Node& node, const Context& c, bool* ok) {
  config::DrainSelect select;
  ObjectReader o(node);
  if (!o.valid()) {
    if (node.is_null()) node.TypeError("an object");
    return select;
  }
  select.reasons = ReadEnumList<config::DlqReason>(o.Optional("reasons"), ok);
  select.errors = ReadEnumList<config::ErrorClass>(o.Optional("errors"), ok);
  const Node kinds = o.Optional("kinds");
  if (kinds.given()) {
    std::vector<std::string> names;
    for (const Node& item : ArrayItems(kinds, 1, 1000)) {
      auto name = ReadKindRef(item, c);
      if (!name) {
        *ok = false;
      } else if (std::find(names.begin(), names.end(), *name) != names.end()) {
        item.Error("repeats " + Quote(*name));
        *ok = false;
      } else {
        names.push_back(*name);
      }
    }
    if (names.empty()) *ok = false;
    select.kinds = names;
  }
  o.Finish();
  return select;
}

struct Fields {
  ObjectReader& o;
  bool ok = true;
  double Rate(std::string_view key, bool required) {
    const Node node = required ? o.Required(key) : NullAsAbsent(o.Optional(key));
    auto value = ReadNumber(node, kRateRange);
    if (!value && (required || node.present())) ok = false;
    return value.value_or(0);
  }
};

config::DripDrain ReadDrip(ObjectReader& o, Fields& f) {
  config::DripDrain drip;
  drip.rate_per_s = f.Rate("rate_per_s", true);
  const Node burst = o.Optional("burst");
  if (auto n = ReadInt(burst, Range::Closed(1, 1e9))) {
    drip.burst = *n;
  } else if (burst.present()) {
    f.ok = false;
  }
  return drip;
}

config::BoundedDrain ReadBounded(ObjectReader& o, Fields& f, std::optional<int64_t> limit,
                                 bool limit_ok) {
  config::BoundedDrain bounded;
  const Node rate = NullAsAbsent(o.Optional("rate_per_s"));
  bounded.rate_per_s = ReadNumber(rate, kRateRange);
  if (!bounded.rate_per_s && rate.present()) f.ok = false;
  if (!limit && limit_ok) {
    o.Optional("limit").Error("is required for strategy 'bounded'");
    f.ok = false;
  }
  return bounded;
}

// The adaptive drain's rates: min <= max, and how fast it moves between them.
void ReadAdaptiveRates(ObjectReader& o, Fields& f, config::AdaptiveDrain* a) {
  a->rate_min_per_s = f.Rate("rate_min_per_s", true);
  const Node max_node = o.Optional("rate_max_per_s");
  a->rate_max_per_s = f.Rate("rate_max_per_s", true);
  if (a->rate_min_per_s > 0 && a->rate_max_per_s > 0 && a->rate_max_per_s < a->rate_min_per_s) {
    max_node.Error("must be >= rate_min_per_s = " + FormatNumber(a->rate_min_per_s) + " (got " +
                   FormatNumber(a->rate_max_per_s) + ")");
    f.ok = false;
  }
  a->increase_per_s = f.Rate("increase_per_s", true);
  const Node decrease = o.Optional("decrease_factor");
  if (auto v = ReadNumber(decrease, Range{0, 1, true, true})) {
    a->decrease_factor = *v;
  } else if (decrease.present()) {
    f.ok = false;
  }
}

config::AdaptiveDrain ReadAdaptive(ObjectReader& o, Fields& f, const Context& c,
                                   const Node& strategy_node) {
  config::AdaptiveDrain a;
  if (!c.has_database) {
    strategy_node.Error("'adaptive' needs a 'database' section: it adapts to its latency");
    f.ok = false;
  }
  ReadAdaptiveRates(o, f, &a);
  const Node target = o.Required("latency_target_ms");
  if (auto d = ReadMillis(target, Range::AboveAtMost(0, kDaySeconds * 1000))) {
    a.latency_target = *d;
  } else {
    f.ok = false;
  }
  const Node every = o.Optional("adjust_every_s");
  if (auto d = ReadSeconds(every, Range::AboveAtMost(0, kDaySeconds))) {
    a.adjust_every = *d;
  } else if (every.present()) {
    f.ok = false;
  }
  return a;
}

std::optional<config::Drain::Strategy> ReadStrategy(config::DrainStrategy kind, ObjectReader& o,
                                                    const Context& c, const Node& strategy_node,
                                                    std::optional<int64_t> limit, bool limit_ok) {
  Fields f{o};
  std::optional<config::Drain::Strategy> out;
  switch (kind) {
    case config::DrainStrategy::kBulk:
      out = config::BulkDrain{};
      break;
    case config::DrainStrategy::kDrip:
      out = ReadDrip(o, f);
      break;
    case config::DrainStrategy::kBounded:
      out = ReadBounded(o, f, limit, limit_ok);
      break;
    case config::DrainStrategy::kAdaptive:
      out = ReadAdaptive(o, f, c, strategy_node);
      break;
  }
  if (!f.ok) return std::nullopt;
  return out;
}

void ReadDrain(const Node& node, size_t index, Context& c, std::vector<config::Drain>* drains) {
  ObjectReader o(node);
  if (!o.valid()) {
    if (node.is_null()) node.TypeError("an object");
    return;
  }
  config::Drain drain;
  bool ok = true;
  const Node at = NullAsAbsent(o.Optional("start_at_s"));
  const Node after_fix = NullAsAbsent(o.Optional("start_after_fix_s"));
  if (at.present() == after_fix.present()) {
    node.Error("needs exactly one of start_at_s, start_after_fix_s" +
               std::string(at.present() ? " (got both)" : ""));
    ok = false;
  } else if (at.present()) {
    drain.start_at = ReadAt(at, c);
    ok = ok && drain.start_at.has_value();
  } else {
    drain.start_after_fix = ReadSeconds(after_fix, Range::AtLeast(0));
    if (drain.start_after_fix && !c.last_fix) {
      after_fix.Error(
          "needs a 'bug' fault with fixed_at_s: the drain starts this long after "
          "the last fix");
      ok = false;
    } else if (drain.start_after_fix && c.run_until &&
               *c.last_fix + *drain.start_after_fix >= *c.run_until) {
      after_fix.Error(
          "starts the drain at " + FormatNumber((*c.last_fix + *drain.start_after_fix).seconds()) +
          " s, not before " + RunEndText(c) + " (got " + Describe(after_fix.json()) + ")");
      ok = false;
    }
    ok = ok && drain.start_after_fix.has_value();
  }
  drain.select = ReadSelect(o.Optional("select"), c, &ok);
  const Node others = o.Optional("others");
  if (auto v = ReadEnum<config::DrainOthers>(others)) {
    drain.others = *v;
  } else if (others.present()) {
    ok = false;
  }
  const Node limit = NullAsAbsent(o.Optional("limit"));
  drain.limit = ReadInt(limit, Range::Closed(1, 1e9));
  const bool limit_ok = drain.limit.has_value() || !limit.present();
  ok = ok && limit_ok;
  const Node replay_ms = NullAsAbsent(o.Optional("replay_ms"));
  drain.replay_ms = ReadDistribution(replay_ms);
  ok = ok && (drain.replay_ms.has_value() || !replay_ms.present());
  const Node strategy_node = o.Required("strategy");
  auto kind = ReadEnum<config::DrainStrategy>(strategy_node);
  if (!kind) {
    // The strategy decides which keys belong; without it, judge none of them.
    for (auto key : {"rate_per_s", "burst", "rate_min_per_s", "rate_max_per_s", "increase_per_s",
                     "decrease_factor", "latency_target_ms", "adjust_every_s"}) {
      o.Optional(key);
    }
    o.Finish();
    return;
  }
  auto strategy = ReadStrategy(*kind, o, c, strategy_node, drain.limit, limit_ok);
  o.Finish("for strategy '" + std::string(config::NameOf(*kind)) + "'");
  if (!ok || !strategy) return;
  drain.strategy = *strategy;
  drains->push_back(std::move(drain));
  c.drain_origins.push_back(index);
}

}  // namespace

void ReadDrains(const Node& node, Context& c, std::vector<config::Drain>* drains) {
  c.has_drains = node.given() && !(node.json().is_array() && node.json().empty());
  size_t index = 0;
  for (const Node& item : ArrayItems(node, 0, kDrainsMax)) ReadDrain(item, index++, c, drains);
}

}  // namespace drainsim::scenario::internal
