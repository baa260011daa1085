// The generator's timed sections and judgement: faults of every type (each only where its
// section exists, its fields drawn from its table in sim/config/faults.h), drains of every strategy
// (within the broker's redrive cap), alerts and expectations (each only where the metric's section,
// alert, drain or fault window exists).
#include <algorithm>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

#include "sim/config/enum_names.h"
#include "sim/config/fault_types.h"
#include "tools/fuzz/scenario_gen_parts.h"

namespace drainsim::fuzz::internal {

namespace {

const char* const kErrors[] = {"transient", "rate_limited", "permanent", "unknown"};

std::string KindName(Choices& in, const GenContext& c) {
  return c.kinds[in.Below(c.kinds.size())].name;
}

void Window(Choices& in, GenContext& c, Json& fault) {
  const auto [from_s, until_s] = WindowIn(in, c);
  fault["from_s"] = from_s;
  fault["until_s"] = until_s;
  c.has_fault_window = true;
}

// worker_crash: a rate over a window, or some workers at one instant (faults.h, invariant (4)).
void CrashFields(Choices& in, GenContext& c, Json& f) {
  if (in.Chance(50)) {
    f["rate_per_h"] = in.RealIn(1, 2000);
    if (in.Chance(50)) Window(in, c, f);
  } else {
    f["at_s"] = InstantIn(in, c);
    if (in.Chance(50)) f["count"] = in.IntIn(1, c.workers);
  }
  if (in.Chance(50)) f["point"] = in.Chance(50) ? "anywhere" : "between_commit_and_ack";
}

bool Present(Choices& in, const config::FuzzDraw& fuzz) {
  return fuzz.percent >= 100 || in.Chance(fuzz.percent);
}

// One field's value, drawn as its table's FuzzDraw says (sim/config/fault_field.h).
template <typename F, typename M>
Json FieldValue(Choices& in, const GenContext& c, const config::Field<F, M>& field) {
  using config::FieldKind;
  const config::FuzzDraw& fuzz = field.fuzz;
  switch (field.kind) {
    case FieldKind::kKind:
      return KindName(in, c);
    case FieldKind::kCount:
      return in.IntIn(static_cast<int64_t>(fuzz.low), static_cast<int64_t>(fuzz.high));
    case FieldKind::kEnum:
      if constexpr (std::is_same_v<M, config::ErrorClass>) {
        return in.Pick(kErrors);  // in the generator's own order, older than the enum's
      } else if constexpr (std::is_enum_v<M>) {
        const auto names = config::EnumNames<M>();
        return std::string(names[in.Below(names.size())].name);
      }
      break;
    case FieldKind::kInstant:
      return InstantIn(in, c);
    case FieldKind::kNumber:
    case FieldKind::kMillis:
    case FieldKind::kSeconds:
      if (fuzz.or_else != 0 && !in.Chance(50)) return fuzz.or_else;
      return in.RealIn(fuzz.low, fuzz.high);
    case FieldKind::kFixAt:
    case FieldKind::kWindow:
      break;
  }
  return nullptr;
}

// The fields of one table in its order, each present as its FuzzDraw says, the window last;
// an "exactly one of" pair gives one of the two; an onset with a fix draws both as a window.
template <typename F>
void TableFields(Choices& in, GenContext& c, Json& f) {
  bool has_fix = false;
  config::ForEachField<F>(
      [&](const auto& field) { has_fix = has_fix || field.kind == config::FieldKind::kFixAt; });
  std::string_view skip;  // the second of a pair already decided
  const config::FuzzDraw* window = nullptr;
  config::ForEachField<F>([&](const auto& field) {
    const std::string key(field.key);
    if (field.key == skip || field.kind == config::FieldKind::kFixAt) return;
    if (field.kind == config::FieldKind::kWindow) {
      window = &field.fuzz;
    } else if (!field.one_of.empty()) {
      skip = field.one_of;
      // Only the first's FuzzDraw is read for the pair's second: the tables give both.
      if (in.Chance(50)) {
        config::ForEachField<F>([&](const auto& other) {
          if (other.key == field.one_of) f[std::string(other.key)] = FieldValue(in, c, other);
        });
      } else {
        f[key] = FieldValue(in, c, field);
      }
    } else if (has_fix && key == "from_s") {
      const auto [from_s, fixed_at_s] = WindowIn(in, c);
      f[key] = from_s;
      if (in.Chance(70)) {
        f["fixed_at_s"] = fixed_at_s;
        c.latest_fix_s = std::max(c.latest_fix_s.value_or(0), fixed_at_s);
      }
    } else if (Present(in, field.fuzz)) {
      f[key] = FieldValue(in, c, field);
    }
  });
  if (window != nullptr && Present(in, *window)) Window(in, c, f);
}

template <typename F>
void TypeFields(Choices& in, GenContext& c, Json& f) {
  if constexpr (std::is_same_v<F, config::WorkerCrashFault>) {
    CrashFields(in, c, f);
  } else {
    TableFields<F>(in, c, f);
  }
}

template <size_t... I>
void FieldsOfType(config::FaultType type, Choices& in, GenContext& c, Json& f,
                  std::index_sequence<I...>) {
  using Writer = void (*)(Choices&, GenContext&, Json&);
  static constexpr Writer kWriters[] = {
      &TypeFields<std::variant_alternative_t<I, config::Fault>>...};
  kWriters[static_cast<size_t>(type)](in, c, f);
}

// A fault of any type the scenario's sections allow, its fields from its table.
Json Fault(Choices& in, GenContext& c) {
  const auto descriptors = config::FaultDescriptors();
  const config::FaultDescriptor* d = &descriptors[in.Below(descriptors.size())];
  if (d->needs == config::FaultNeeds::kDatabase && !c.has_database) {
    d = &config::DescriptorOf(config::kTypeOf<config::ErrorsFault>);
  }
  if (d->needs == config::FaultNeeds::kDownstream && !c.has_downstream) {
    d = &config::DescriptorOf(config::kTypeOf<config::AckLossFault>);
  }
  Json f = {{"type", std::string(d->name)}};
  FieldsOfType(d->type, in, c, f, std::make_index_sequence<std::variant_size_v<config::Fault>>());
  // A window open for the whole run by default still is one.
  if (d->shape == config::FaultShape::kWindow &&
      d->type != config::kTypeOf<config::WorkerCrashFault>) {
    c.has_fault_window = true;
  }
  return f;
}

// A rate within the broker's redrive cap.
double DrainRate(Choices& in, const GenContext& c) {
  return std::min(in.RealIn(0.01, 200), c.drain_rate_max_per_s);
}

Json Select(Choices& in, const GenContext& c) {
  static const char* const kReasons[] = {"max_attempts", "not_retryable", "receive_count_max",
                                         "retry_budget", "max_length",    "delivery_limit",
                                         "stalled",      "worker_lost"};
  Json select = Json::object();
  if (in.Chance(40)) select["reasons"] = {in.Pick(kReasons)};
  if (in.Chance(30)) select["errors"] = {in.Pick(kErrors)};
  if (in.Chance(30)) select["kinds"] = {KindName(in, c)};
  return select;
}

Json Drain(Choices& in, GenContext& c) {
  static const char* const kStrategies[] = {"bulk", "drip", "bounded", "adaptive"};
  std::string strategy = in.Pick(kStrategies);
  if (strategy == "adaptive" && !c.has_database) strategy = "drip";
  Json d = {{"strategy", strategy}};
  if (c.latest_fix_s && *c.latest_fix_s < c.until_s - 0.01 && in.Chance(40)) {
    d["start_after_fix_s"] = std::min(in.RealIn(0, c.until_s), (c.until_s - *c.latest_fix_s) / 2);
  } else {
    d["start_at_s"] = InstantIn(in, c);
  }
  if (in.Chance(50)) d["select"] = Select(in, c);
  if (in.Chance(40)) d["others"] = in.Chance(50) ? "park" : "leave";
  if (strategy == "bounded" || in.Chance(20)) d["limit"] = in.IntIn(1, 30);
  if (strategy == "drip") {
    d["rate_per_s"] = DrainRate(in, c);
    if (in.Chance(40)) d["burst"] = in.IntIn(1, 10);
  } else if (strategy == "bounded") {
    if (in.Chance(60)) d["rate_per_s"] = DrainRate(in, c);
  } else if (strategy == "adaptive") {
    const double max = DrainRate(in, c);
    d["rate_min_per_s"] = std::min(max, in.RealIn(0.01, 10));
    d["rate_max_per_s"] = max;
    d["increase_per_s"] = in.RealIn(0.01, 10);
    if (in.Chance(50)) d["decrease_factor"] = in.RealIn(0.01, 0.99);
    d["latency_target_ms"] = in.RealIn(0.1, 200);
    if (in.Chance(50)) d["adjust_every_s"] = in.RealIn(0.1, 30);
  }
  // Last, so that the draws before it decode as they did before the field existed.
  if (in.Chance(25)) d["replay_ms"] = Distribution(in, 20);
  return d;
}

}  // namespace

Json Faults(Choices& in, GenContext& c) {
  Json faults = Json::array();
  const int64_t count = in.IntIn(0, 4);
  for (int64_t i = 0; i < count; ++i) faults.push_back(Fault(in, c));
  return faults;
}

Json Drains(Choices& in, GenContext& c) {
  Json drains = Json::array();
  // Without a DLQ there is nothing to drain (the loader refuses a drain).
  const int64_t count = c.no_dlq ? 0 : in.IntIn(0, 3);
  for (int64_t i = 0; i < count; ++i) drains.push_back(Drain(in, c));
  c.has_drain = count > 0;
  return drains;
}

Json Alerts(Choices& in, GenContext& c) {
  Json alerts = Json::object();
  if ((c.alert_age = in.Chance(30))) alerts["oldest_age_s"] = in.RealIn(0.001, 300);
  if ((c.alert_depth = in.Chance(30))) alerts["depth"] = in.IntIn(0, 20);
  if ((c.alert_dlq_depth = in.Chance(30))) alerts["dlq_depth"] = in.IntIn(0, 5);
  return alerts;
}

namespace {

// A metric the scenario allows, with whether it is per kind and windowable.
struct MetricChoice {
  const char* name;
  bool per_kind;
  bool windowable;
};

std::optional<MetricChoice> RunMetric(Choices& in, const GenContext& c) {
  static const MetricChoice kMetrics[] = {{"time_to_empty_s", false, false},
                                          {"time_to_quiet_s", false, false},
                                          {"duplicate_executions", true, true},
                                          {"duplicates_suppressed", true, true},
                                          {"visible_duplicates", true, true},
                                          {"human_needed", true, false},
                                          {"parked", true, false},
                                          {"lost", true, false},
                                          {"expired", true, true},
                                          {"refilled", true, true},
                                          {"published", true, true},
                                          {"acked", true, true},
                                          {"attempts", true, true},
                                          {"attempts_per_success", true, true},
                                          {"wasted_worker_s", true, true},
                                          {"oldest_age_s", false, true},
                                          {"message_latency_mean_s", true, true},
                                          {"message_latency_p50_s", true, true},
                                          {"message_latency_p99_s", true, true},
                                          {"message_latency_max_s", true, true},
                                          {"queue_wait_mean_s", true, true},
                                          {"queue_wait_p50_s", true, true},
                                          {"queue_wait_p99_s", true, true},
                                          {"dlq_inflow", true, true},
                                          {"dlq_outflow", true, true},
                                          {"db_utilisation", false, true},
                                          {"db_timeouts", false, true},
                                          {"db_queue_max", false, true},
                                          {"live_p50_ms", false, true},
                                          {"live_p99_ms", false, true},
                                          {"live_errors", false, true},
                                          {"age_alert_first_s", false, false},
                                          {"depth_alert_first_s", false, false},
                                          {"dlq_depth_alert_first_s", false, false}};
  const MetricChoice m = in.Pick(kMetrics);
  const std::string name = m.name;
  if (name == "time_to_empty_s" && !c.has_drain) return std::nullopt;
  if (name.rfind("db_", 0) == 0 && !c.has_database) return std::nullopt;
  if (name.rfind("live_", 0) == 0 && !c.has_live_traffic) return std::nullopt;
  if (name == "age_alert_first_s" && !c.alert_age) return std::nullopt;
  if (name == "depth_alert_first_s" && !c.alert_depth) return std::nullopt;
  if (name == "dlq_depth_alert_first_s" && !c.alert_dlq_depth) return std::nullopt;
  return m;
}

// Bounds, kind and during shared by every expectation form.
void Body(Choices& in, const GenContext& c, bool per_kind, bool windowable, Json& e) {
  const double a = in.RealIn(0, 100);
  switch (in.Below(3)) {
    case 0:
      e["max"] = a;
      break;
    case 1:
      e["min"] = a;
      if (in.Chance(50)) e["max"] = a + in.RealIn(0, 100);
      break;
    default:
      e["equals"] = std::floor(a / 10);
  }
  if (per_kind && in.Chance(30)) e["kind"] = c.kinds[in.Below(c.kinds.size())].name;
  if (windowable && in.Chance(30)) {
    const int64_t during = in.Below(3);
    if (during == 1 && c.has_drain) e["during"] = "drains";
    if (during == 2 && c.has_fault_window) e["during"] = "faults";
    if (during == 0) e["during"] = "run";
  }
}

std::optional<Json> Property(Choices& in, const GenContext& c) {
  static const char* const kSeries[] = {
      "depth",        "delayed_depth",    "dlq_depth",         "parked",           "in_flight",
      "oldest_age_s", "dlq_inflow_per_s", "dlq_outflow_per_s", "workers_busy",     "db_utilisation",
      "db_queue",     "live_p50_ms",      "live_p99_ms",       "live_errors_per_s"};
  const std::string series = in.Pick(kSeries);
  if (series.rfind("db_", 0) == 0 && !c.has_database) return std::nullopt;
  if (series.rfind("live_", 0) == 0 && !c.has_live_traffic) return std::nullopt;
  Json e = {{in.Chance(50) ? "always" : "sometimes", series}};
  Body(in, c, false, true, e);
  return e;
}

}  // namespace

Json Expect(Choices& in, const GenContext& c) {
  const int64_t count = in.IntIn(0, 4);
  if (in.Chance(20)) {
    // The object form: metric expectations only, one per metric name.
    Json expect = Json::object();
    for (int64_t i = 0; i < count; ++i) {
      const std::optional<MetricChoice> m = RunMetric(in, c);
      if (!m) continue;
      Json bounds = Json::object();
      Body(in, c, m->per_kind, m->windowable, bounds);
      expect[m->name] = bounds;
    }
    return expect;
  }
  Json expect = Json::array();
  for (int64_t i = 0; i < count; ++i) {
    if (in.Chance(40)) {
      if (std::optional<Json> e = Property(in, c)) expect.push_back(*e);
      continue;
    }
    const std::optional<MetricChoice> m = RunMetric(in, c);
    if (!m) continue;
    Json e = {{"metric", m->name}};
    Body(in, c, m->per_kind, m->windowable, e);
    expect.push_back(e);
  }
  return expect;
}

}  // namespace drainsim::fuzz::internal
