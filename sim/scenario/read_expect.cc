// Readers for alerts and expectations.
#include <algorithm>

#include "sim/scenario/read_sections.h"

namespace drainsim::scenario::internal {

namespace {

constexpr size_t kExpectMax = 1000;
constexpr double kAlertDepthMax = 1e12;

bool IsPerKind(config::RunMetric m) {
  switch (m) {
    case config::RunMetric::kTimeToEmpty:
    case config::RunMetric::kTimeToQuiet:
    case config::RunMetric::kOldestAge:
    case config::RunMetric::kDbUtilisation:
    case config::RunMetric::kDbTimeouts:
    case config::RunMetric::kDbQueueMax:
    case config::RunMetric::kLiveP50:
    case config::RunMetric::kLiveP99:
    case config::RunMetric::kLiveErrors:
    case config::RunMetric::kAgeAlertFirst:
    case config::RunMetric::kDepthAlertFirst:
    case config::RunMetric::kDlqDepthAlertFirst:
    case config::RunMetric::kBacklogCleared:
    case config::RunMetric::kRetryAmplification:
    case config::RunMetric::kTimeToRecover:
    case config::RunMetric::kOrderingViolations:
    case config::RunMetric::kGroupHoldMax:
    case config::RunMetric::kRebalances:
    case config::RunMetric::kThrottles:
    case config::RunMetric::kDeadLetteredUnprocessed:
      return false;
    default:
      return true;
  }
}

// End states and first times describe the run as a whole; a window makes no sense for them.
bool IsWindowable(config::RunMetric m) {
  switch (m) {
    case config::RunMetric::kTimeToEmpty:
    case config::RunMetric::kTimeToQuiet:
    case config::RunMetric::kHumanNeeded:
    case config::RunMetric::kParked:
    case config::RunMetric::kLost:
    case config::RunMetric::kBrokerLost:
    case config::RunMetric::kAgeAlertFirst:
    case config::RunMetric::kDepthAlertFirst:
    case config::RunMetric::kDlqDepthAlertFirst:
    case config::RunMetric::kBacklogCleared:
    case config::RunMetric::kRetryAmplification:
    case config::RunMetric::kTimeToRecover:
    case config::RunMetric::kOrderingViolations:
    case config::RunMetric::kGroupHoldMax:
    case config::RunMetric::kRebalances:
    case config::RunMetric::kThrottles:
    case config::RunMetric::kDeadLetteredUnprocessed:
      return false;
    default:
      return true;
  }
}

// The section a metric reads, or nullptr if it needs none.
const char* MissingSection(config::RunMetric m, const Context& c) {
  switch (m) {
    case config::RunMetric::kTimeToEmpty:
      return c.has_drains ? nullptr
                          : "a drain (time_to_empty_s counts from the first drain's start)";
    case config::RunMetric::kDbUtilisation:
    case config::RunMetric::kDbTimeouts:
    case config::RunMetric::kDbQueueMax:
      return c.has_database ? nullptr : "a 'database' section";
    case config::RunMetric::kLiveP50:
    case config::RunMetric::kLiveP99:
    case config::RunMetric::kLiveErrors:
      return c.has_live_traffic ? nullptr : "database.live_traffic";
    case config::RunMetric::kAgeAlertFirst:
      return c.has_age_alert ? nullptr : "alerts.oldest_age_s";
    case config::RunMetric::kDepthAlertFirst:
      return c.has_depth_alert ? nullptr : "alerts.depth";
    case config::RunMetric::kDlqDepthAlertFirst:
      return c.has_dlq_depth_alert ? nullptr : "alerts.dlq_depth";
    case config::RunMetric::kOrderingViolations:
    case config::RunMetric::kGroupHoldMax:
      return c.has_message_groups ? nullptr : "broker.message_groups or broker.partitions";
    case config::RunMetric::kRebalances:
      return c.has_partitions ? nullptr : "broker.partitions";
    case config::RunMetric::kThrottles:
    case config::RunMetric::kDeadLetteredUnprocessed:
      return c.has_lambda_esm ? nullptr : "workers.lambda_esm";
    default:
      return nullptr;
  }
}

const char* MissingSection(config::SeriesMetric m, const Context& c) {
  switch (m) {
    case config::SeriesMetric::kDbUtilisation:
    case config::SeriesMetric::kDbQueue:
      return c.has_database ? nullptr : "a 'database' section";
    case config::SeriesMetric::kLiveP50:
    case config::SeriesMetric::kLiveP99:
    case config::SeriesMetric::kLiveErrors:
      return c.has_live_traffic ? nullptr : "database.live_traffic";
    case config::SeriesMetric::kPartitionLagMax:
      return c.has_partitions ? nullptr : "broker.partitions";
    default:
      return nullptr;
  }
}

bool ReadBounds(ObjectReader& o, config::Bounds* bounds) {
  const Node min = NullAsAbsent(o.Optional("min"));
  const Node max = NullAsAbsent(o.Optional("max"));
  const Node equals = NullAsAbsent(o.Optional("equals"));
  bounds->min = ReadNumber(min);
  bounds->max = ReadNumber(max);
  bounds->equals = ReadNumber(equals);
  if ((min.present() && !bounds->min) || (max.present() && !bounds->max) ||
      (equals.present() && !bounds->equals)) {
    return false;
  }
  if (!min.present() && !max.present() && !equals.present()) {
    o.node().Error("needs a bound: min, max or equals");
    return false;
  }
  if (equals.present() && (min.present() || max.present())) {
    equals.Error("cannot be combined with min or max");
    return false;
  }
  if (bounds->min && bounds->max && *bounds->max < *bounds->min) {
    max.Error("must be >= min = " + FormatNumber(*bounds->min) + " (got " +
              FormatNumber(*bounds->max) + ")");
    return false;
  }
  return true;
}

bool ReadDuring(ObjectReader& o, const Context& c, config::During* during) {
  const Node node = o.Optional("during");
  if (!node.present()) return true;
  auto value = ReadEnum<config::During>(node);
  if (!value) return false;
  if (*value == config::During::kDrains && !c.has_drains) {
    node.Error("'drains' needs at least one drain in /drains");
    return false;
  }
  if (*value == config::During::kFaults && !c.has_fault_window) {
    node.Error("'faults' needs a fault with a time window in /faults");
    return false;
  }
  *during = *value;
  return true;
}

// The fields of a metric expectation after its metric: kind, during and the bounds. `metric`
// is empty when it could not be read; `metric_node` is where problems with it are reported.
std::optional<config::Expectation> ReadMetricBody(ObjectReader& o,
                                                  std::optional<config::RunMetric> metric,
                                                  const Node& metric_node, const Context& c) {
  bool ok = true;
  config::MetricExpectation e;
  const Node kind_node = NullAsAbsent(o.Optional("kind"));
  if (kind_node.present()) {
    e.kind = ReadKindRef(kind_node, c);
    ok = ok && e.kind.has_value();
    if (metric && !IsPerKind(*metric)) {
      kind_node.Error("does not apply to " + Quote(config::NameOf(*metric)) +
                      ", which is not per kind");
      ok = false;
    }
  }
  ok = ReadDuring(o, c, &e.during) && ok;
  ok = ReadBounds(o, &e.bounds) && ok;
  o.Finish("for a metric expectation");
  if (!metric) return std::nullopt;
  e.metric = *metric;
  if (const char* missing = MissingSection(*metric, c)) {
    metric_node.Error(Quote(config::NameOf(*metric)) + " needs " + missing);
    ok = false;
  }
  if (e.during != config::During::kRun && !IsWindowable(*metric)) {
    o.Optional("during").Error("must be 'run' for " + Quote(config::NameOf(*metric)) +
                               ", which describes the run as a whole");
    ok = false;
  }
  if (!ok) return std::nullopt;
  return e;
}

// One item of the array form: {"metric": ...}, {"always": ...} or {"sometimes": ...}.
std::optional<config::Expectation> ReadExpectation(const Node& node, const Context& c) {
  ObjectReader o(node);
  if (!o.valid()) {
    if (node.is_null()) node.TypeError("an object");
    return std::nullopt;
  }
  const char* heads[] = {"metric", "always", "sometimes"};
  int given = 0;
  for (const char* head : heads) given += o.Has(head) ? 1 : 0;
  if (given != 1) {
    node.Error(given == 0 ? "needs one of metric, always, sometimes"
                          : "needs exactly one of metric, always, sometimes");
    return std::nullopt;
  }
  if (o.Has("metric")) {
    const Node metric_node = o.Optional("metric");
    return ReadMetricBody(o, ReadEnum<config::RunMetric>(metric_node), metric_node, c);
  }
  bool ok = true;
  config::PropertyExpectation e;
  e.quantifier = o.Has("always") ? config::Quantifier::kAlways : config::Quantifier::kSometimes;
  const Node metric_node = o.Optional(config::NameOf(e.quantifier));
  auto metric = ReadEnum<config::SeriesMetric>(metric_node);
  ok = ReadDuring(o, c, &e.during) && ok;
  ok = ReadBounds(o, &e.bounds) && ok;
  o.Finish("for an '" + std::string(config::NameOf(e.quantifier)) + "' expectation");
  if (!metric) return std::nullopt;
  e.metric = *metric;
  if (const char* missing = MissingSection(*metric, c)) {
    metric_node.Error(Quote(config::NameOf(*metric)) + " needs " + missing);
    ok = false;
  }
  if (!ok) return std::nullopt;
  return e;
}

// One member of the object form (SCENARIO.md's shorthand): "time_to_empty_s": {"max": 1800}.
// The key is a run metric; the value holds what an array item holds besides "metric".
std::optional<config::Expectation> ReadMetricMember(const std::string& name, const Node& node,
                                                    const Context& c) {
  std::optional<config::RunMetric> metric = config::FromName<config::RunMetric>(name);
  if (!metric) {
    const std::vector<std::string_view> names = NamesOf<config::RunMetric>();
    std::string message = "unknown metric " + Quote(name);
    const std::string suggestion = Suggestion(name, names, '"');
    if (!suggestion.empty()) {
      message += suggestion;
    } else if (config::FromName<config::SeriesMetric>(name)) {
      message += "; 'always' and 'sometimes' expectations need the array form";
    } else {
      message += "; metrics are: " + JoinNames(names);
    }
    node.Error(message);
  }
  ObjectReader o(node);
  if (!o.valid()) {
    // ObjectReader reported a wrong type; only null is left to report.
    if (node.is_null()) node.TypeError("an object");
    return std::nullopt;
  }
  return ReadMetricBody(o, metric, node, c);
}

}  // namespace

void ReadAlerts(const Node& node, Context& c, config::Alerts* alerts) {
  ObjectReader o(node);
  if (!o.valid()) {
    if (node.is_null()) node.TypeError("an object");
    return;
  }
  c.has_age_alert = NullAsAbsent(o.Optional("oldest_age_s")).present();
  c.has_depth_alert = NullAsAbsent(o.Optional("depth")).present();
  c.has_dlq_depth_alert = NullAsAbsent(o.Optional("dlq_depth")).present();
  alerts->oldest_age = ReadSeconds(NullAsAbsent(o.Optional("oldest_age_s")), Range::Above(0));
  alerts->depth = ReadInt(NullAsAbsent(o.Optional("depth")), Range::Closed(0, kAlertDepthMax));
  alerts->dlq_depth =
      ReadInt(NullAsAbsent(o.Optional("dlq_depth")), Range::Closed(0, kAlertDepthMax));
  o.Finish();
}

void ReadExpect(const Node& node, Context& c, std::vector<config::Expectation>* expect) {
  if (node.given() && node.json().is_object()) {
    // Members come in nlohmann's (sorted) key order, so the order of the expectations, and
    // of the JUnit cases they become, does not depend on how the file was written.
    for (const auto& [name, value] : MapEntries(node, 0, kExpectMax)) {
      if (auto e = ReadMetricMember(name, value, c)) expect->push_back(std::move(*e));
    }
    return;
  }
  if (node.given() && !node.json().is_array()) {
    node.TypeError("an array of expectations or an object of metric bounds");
    return;
  }
  for (const Node& item : ArrayItems(node, 0, kExpectMax)) {
    if (auto e = ReadExpectation(item, c)) expect->push_back(std::move(*e));
  }
}

}  // namespace drainsim::scenario::internal
