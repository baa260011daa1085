// Reader for faults: one object per fault, its `type` picking the fields.
#include <algorithm>

#include "sim/config/fault_types.h"
#include "sim/scenario/read_sections.h"

namespace drainsim::scenario::internal {

namespace {

using Limits = config::FaultLimits;

struct FaultReader {
  ObjectReader& o;
  Context& c;
  bool ok = true;

  template <typename T>
  T Check(std::optional<T> value, const Node& node) {
    if (!value) {
      if (node.present()) ok = false;
      return T{};
    }
    return *value;
  }
  std::string Kind(bool required) {
    const Node node = required ? o.Required("kind") : NullAsAbsent(o.Optional("kind"));
    auto kind = ReadKindRef(node, c);
    if (!kind && (required || node.present())) ok = false;
    return kind.value_or("");
  }
  void Injected(config::ErrorClass fallback, config::ErrorClass* error,
                std::optional<engine::Duration>* fail_after) {
    const Node error_node = o.Optional("error");
    *error = Check(ReadEnum<config::ErrorClass>(error_node), error_node);
    if (!error_node.present()) *error = fallback;
    const Node fail_node = NullAsAbsent(o.Optional("fail_after_ms"));
    *fail_after = ReadMillis(fail_node, Range::Closed(0, Limits::kFailAfterMsMax));
    if (!*fail_after && fail_node.present()) ok = false;
  }
  engine::Instant From() {
    const Node node = o.Optional("from_s");
    return Check(ReadAt(node, c), node);
  }
  config::Window TimeWindow(bool required) {
    config::Window window;
    if (!ReadWindow(o, c, required, &window)) ok = false;
    c.has_fault_window = true;
    return window;
  }
  double Number(std::string_view key, const Range& range) {
    const Node node = o.Required(key);
    if (!node.present()) ok = false;
    return Check(ReadNumber(node, range), node);
  }
  int64_t Int(std::string_view key, const Range& range) {
    const Node node = o.Required(key);
    if (!node.present()) ok = false;
    return Check(ReadInt(node, range), node);
  }
  // Faults that act on a section the scenario does not have.
  void Needs(bool present, std::string_view section, const Node& type_node) {
    if (!present) {
      type_node.Error("needs a '" + std::string(section) + "' section, and the scenario has none");
      ok = false;
    }
  }
};

// One reader per fault type. Each reads its keys in a fixed order, which is the order of its
// problems in the loader's report.
config::ErrorsFault ReadErrorsFault(FaultReader& r) {
  ObjectReader& o = r.o;
  config::ErrorsFault f;
  const std::string kind = r.Kind(false);
  if (!kind.empty()) f.kind = kind;
  f.probability = r.Number("probability", Range::Probability());
  r.Injected(config::ErrorClass::kTransient, &f.error, &f.fail_after);
  f.window = r.TimeWindow(false);
  const Node fitted_node = o.Optional("fitted");
  const std::optional<config::Fitted> fitted = ReadFitted(fitted_node);
  if (fitted) o.node().problems().fitted[o.node().pointer()] = *fitted;
  if (fitted_node.present() && !fitted) r.ok = false;
  return f;
}

config::SyntheticFailuresFault ReadSyntheticFailuresFault(FaultReader& r) {
  config::SyntheticFailuresFault f;
  f.kind = r.Kind(true);
  f.count = r.Int("count", Range::Closed(1, Limits::kCountMax));
  r.Injected(config::ErrorClass::kTransient, &f.error, &f.fail_after);
  f.from = r.From();
  return f;
}

config::PoisonFault ReadPoisonFault(FaultReader& r) {
  ObjectReader& o = r.o;
  config::PoisonFault f;
  f.kind = r.Kind(true);
  const Node count = NullAsAbsent(o.Optional("count"));
  const Node fraction = NullAsAbsent(o.Optional("fraction"));
  if (count.present() == fraction.present()) {
    o.node().Error("needs exactly one of count, fraction" +
                   std::string(count.present() ? " (got both)" : ""));
    r.ok = false;
  }
  f.count = ReadInt(count, Range::Closed(1, Limits::kCountMax));
  f.fraction = ReadNumber(fraction, Range::AboveAtMost(0, 1));
  if ((count.present() && !f.count) || (fraction.present() && !f.fraction)) r.ok = false;
  r.Injected(config::ErrorClass::kPermanent, &f.error, &f.fail_after);
  f.from = r.From();
  return f;
}

config::BugFault ReadBugFault(FaultReader& r) {
  ObjectReader& o = r.o;
  config::BugFault f;
  f.kind = r.Kind(true);
  f.fraction = r.Number("fraction", Range::AboveAtMost(0, 1));
  r.Injected(config::ErrorClass::kPermanent, &f.error, &f.fail_after);
  f.from = r.From();
  const Node fixed = NullAsAbsent(o.Optional("fixed_at_s"));
  f.fixed_at = ReadInstant(fixed, Range::Above(0));
  if (f.fixed_at && r.c.run_until && *f.fixed_at > *r.c.run_until) {
    fixed.Error("must be <= " + RunEndText(r.c) + " (got " + Describe(fixed.json()) + ")");
    f.fixed_at.reset();
  } else if (f.fixed_at && *f.fixed_at <= f.from) {
    fixed.Error("must be > from_s = " + FormatNumber(f.from.seconds()) + " (got " +
                Describe(fixed.json()) + ")");
    f.fixed_at.reset();
  }
  if (fixed.present() && !f.fixed_at) r.ok = false;
  if (f.fixed_at) r.c.last_fix = std::max(r.c.last_fix.value_or(*f.fixed_at), *f.fixed_at);
  r.c.has_fault_window = true;
  return f;
}

config::DbSlowdownFault ReadDbSlowdownFault(FaultReader& r) {
  config::DbSlowdownFault f;
  f.window = r.TimeWindow(true);
  f.factor =
      r.Number("factor", Range::Closed(Limits::kSlowdownFactorMin, Limits::kSlowdownFactorMax));
  return f;
}

config::DbOutageFault ReadDbOutageFault(FaultReader& r) {
  return config::DbOutageFault{r.TimeWindow(true)};
}

config::DbConnectionsFault ReadDbConnectionsFault(FaultReader& r) {
  config::DbConnectionsFault f;
  f.window = r.TimeWindow(true);
  f.connections =
      r.Int("connections", Range::Closed(1, static_cast<double>(Limits::kConnectionsMax)));
  return f;
}

config::DownstreamOutageFault ReadDownstreamOutageFault(FaultReader& r) {
  return config::DownstreamOutageFault{r.TimeWindow(true)};
}

config::DownstreamRateLimitFault ReadDownstreamRateLimitFault(FaultReader& r) {
  ObjectReader& o = r.o;
  config::DownstreamRateLimitFault f;
  f.window = r.TimeWindow(true);
  f.rate_limit_per_s =
      r.Number("rate_limit_per_s", Range::Closed(kTokenRatePerSecondMin, kTokenRatePerSecondMax));
  f.burst = DefaultBurst(f.rate_limit_per_s);
  const Node burst = o.Optional("burst");
  if (burst.present())
    f.burst = r.Check(ReadInt(burst, Range::Closed(1, Limits::kBurstMax)), burst);
  return f;
}

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
    f.rate_per_h = ReadNumber(rate, Range::AboveAtMost(0, Limits::kCrashRatePerHMax));
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
    const double fleet = static_cast<double>(r.c.workers_count.value_or(100000));
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

config::AckLossFault ReadAckLossFault(FaultReader& r) {
  config::AckLossFault f;
  f.probability = r.Number("probability", Range::Probability());
  f.window = r.TimeWindow(false);
  return f;
}

config::BrokerRestartFault ReadBrokerRestartFault(FaultReader& r) {
  ObjectReader& o = r.o;
  config::BrokerRestartFault f;
  const Node at = o.Required("at_s");
  f.at = r.Check(ReadAt(at, r.c), at);
  if (!at.present()) r.ok = false;
  const Node downtime = o.Optional("downtime_s");
  f.downtime = r.Check(ReadSeconds(downtime, Range::Closed(0, Limits::kDowntimeSMax)), downtime);
  const Node recovery = o.Optional("recovery_s");
  f.recovery = r.Check(ReadSeconds(recovery, Range::Closed(0, Limits::kDowntimeSMax)), recovery);
  if (f.downtime + f.recovery > engine::Duration::Zero()) r.c.has_fault_window = true;
  return f;
}

std::optional<config::Fault> ReadTyped(config::FaultType type, FaultReader& r) {
  switch (type) {
    case config::FaultType::kErrors:
      return ReadErrorsFault(r);
    case config::FaultType::kSyntheticFailures:
      return ReadSyntheticFailuresFault(r);
    case config::FaultType::kPoison:
      return ReadPoisonFault(r);
    case config::FaultType::kBug:
      return ReadBugFault(r);
    case config::FaultType::kDbSlowdown:
      return ReadDbSlowdownFault(r);
    case config::FaultType::kDbOutage:
      return ReadDbOutageFault(r);
    case config::FaultType::kDbConnections:
      return ReadDbConnectionsFault(r);
    case config::FaultType::kDownstreamOutage:
      return ReadDownstreamOutageFault(r);
    case config::FaultType::kDownstreamRateLimit:
      return ReadDownstreamRateLimitFault(r);
    case config::FaultType::kWorkerCrash:
      return ReadWorkerCrashFault(r);
    case config::FaultType::kAckLoss:
      return ReadAckLossFault(r);
    case config::FaultType::kBrokerRestart:
      return ReadBrokerRestartFault(r);
  }
  return std::nullopt;
}

}  // namespace

void ReadFaults(const Node& node, Context& c, std::vector<config::Fault>* faults) {
  for (const Node& item : ArrayItems(node, 0, Limits::kFaultsMax)) {
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
    FaultReader reader{o, c};
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
    std::optional<config::Fault> fault = ReadTyped(*type, reader);
    o.Finish("for type '" + std::string(config::NameOf(*type)) + "'");
    if (fault && reader.ok) faults->push_back(std::move(*fault));
  }
}

}  // namespace drainsim::scenario::internal
