// The generator's timed sections and judgement: faults of every type (each only where its
// section exists), drains of every strategy (within the broker's redrive cap), alerts and
// expectations (each only where the metric's section, alert, drain or fault window exists).
#include <algorithm>

#include "tools/fuzz/scenario_gen_parts.h"

namespace drainsim::fuzz::internal {

namespace {

const char* const kErrors[] = {"transient", "rate_limited", "permanent", "unknown"};

// The fields every failing fault shares: error class, failing slowly.
void FailureFields(Choices& in, Json& fault) {
  if (in.Chance(50)) fault["error"] = in.Pick(kErrors);
  if (in.Chance(30)) fault["fail_after_ms"] = in.Chance(50) ? in.RealIn(0, 100) : 30000.0;
}

std::string KindName(Choices& in, const GenContext& c) {
  return c.kinds[in.Below(c.kinds.size())].name;
}

void Window(Choices& in, GenContext& c, Json& fault) {
  const auto [from_s, until_s] = WindowIn(in, c);
  fault["from_s"] = from_s;
  fault["until_s"] = until_s;
  c.has_fault_window = true;
}

Json Fault(Choices& in, GenContext& c) {
  static const char* const kTypes[] = {"errors",
                                       "synthetic_failures",
                                       "poison",
                                       "bug",
                                       "db_slowdown",
                                       "db_outage",
                                       "db_connections",
                                       "downstream_outage",
                                       "downstream_rate_limit",
                                       "worker_crash",
                                       "ack_loss",
                                       "broker_restart"};
  std::string type = in.Pick(kTypes);
  if (type.rfind("db_", 0) == 0 && !c.has_database) type = "errors";
  if (type.rfind("downstream_", 0) == 0 && !c.has_downstream) type = "ack_loss";
  Json f = {{"type", type}};
  if (type == "errors") {
    if (in.Chance(50)) f["kind"] = KindName(in, c);
    f["probability"] = in.RealIn(0, 1);
    FailureFields(in, f);
    if (in.Chance(50)) Window(in, c, f);
    c.has_fault_window = true;  // its default window is the whole run
  } else if (type == "synthetic_failures" || type == "poison") {
    f["kind"] = KindName(in, c);
    if (type == "poison" && in.Chance(50)) {
      f["fraction"] = in.RealIn(0.001, 1);
    } else {
      f["count"] = in.IntIn(1, 20);
    }
    FailureFields(in, f);
    if (in.Chance(50)) f["from_s"] = InstantIn(in, c);
  } else if (type == "bug") {
    f["kind"] = KindName(in, c);
    f["fraction"] = in.RealIn(0.001, 1);
    FailureFields(in, f);
    const auto [from_s, fixed_at_s] = WindowIn(in, c);
    f["from_s"] = from_s;
    if (in.Chance(70)) {
      f["fixed_at_s"] = fixed_at_s;
      c.latest_fix_s = std::max(c.latest_fix_s.value_or(0), fixed_at_s);
    }
  } else if (type == "db_slowdown") {
    f["factor"] = in.RealIn(1, 100);
    Window(in, c, f);
  } else if (type == "db_outage" || type == "downstream_outage") {
    Window(in, c, f);
  } else if (type == "db_connections") {
    f["connections"] = in.IntIn(1, 4);
    Window(in, c, f);
  } else if (type == "downstream_rate_limit") {
    f["rate_limit_per_s"] = in.RealIn(0.01, 20);
    if (in.Chance(50)) f["burst"] = in.IntIn(1, 10);
    Window(in, c, f);
  } else if (type == "worker_crash") {
    if (in.Chance(50)) {
      f["rate_per_h"] = in.RealIn(1, 2000);
      if (in.Chance(50)) Window(in, c, f);
    } else {
      f["at_s"] = InstantIn(in, c);
      if (in.Chance(50)) f["count"] = in.IntIn(1, c.workers);
    }
    if (in.Chance(50)) f["point"] = in.Chance(50) ? "anywhere" : "between_commit_and_ack";
  } else if (type == "ack_loss") {
    f["probability"] = in.RealIn(0, 1);
    if (in.Chance(50)) Window(in, c, f);
    c.has_fault_window = true;
  } else {  // broker_restart
    f["at_s"] = InstantIn(in, c);
    if (in.Chance(60)) f["downtime_s"] = in.RealIn(0, 60);
    if (in.Chance(30)) f["recovery_s"] = in.RealIn(0, 5);
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
