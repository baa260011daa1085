#include "experiments/metric_spec.h"

#include <set>

#include "reports/measure.h"
#include "sim/config/enum_names.h"
#include "sim/scenario/load.h"

namespace drainsim::experiments {

namespace {

using config::RunMetric;
using nlohmann::json;

struct NameParts {
  std::string metric;
  std::optional<std::string> kind;
  std::optional<std::string> window;
};

NameParts SplitAt(std::string_view text) {
  NameParts parts;
  if (const size_t at = text.find('@'); at != std::string_view::npos) {
    parts.window = std::string(text.substr(at + 1));
    text = text.substr(0, at);
  }
  if (const size_t colon = text.find(':'); colon != std::string_view::npos) {
    parts.kind = std::string(text.substr(colon + 1));
    text = text.substr(0, colon);
  }
  parts.metric = std::string(text);
  return parts;
}

std::string CanonicalName(const config::MetricExpectation& e) {
  std::string name(config::NameOf(e.metric));
  if (e.kind) name += ":" + *e.kind;
  if (e.during != config::During::kRun) name += "@" + std::string(config::NameOf(e.during));
  return name;
}

// A results object shaped like the scenario's runs but empty: enough for reports::Measure to
// say whether a metric is measured at all (that depends on the scenario's sections and on the
// metric, kind and window, never on what happened in the run).
model::Results ShapeOf(const config::Scenario& s) {
  model::Results shape;
  shape.has_database = s.database.has_value();
  shape.has_live_traffic = s.database && s.database->live_traffic.has_value();
  for (const auto& [name, kind] : s.kinds) shape.kinds[name];
  return shape;
}

struct Resolved {
  std::optional<MetricSpec> spec;  // set iff the name is good
  std::string error;               // why not
};

// Checks one name: the scenario with its `expect` block replaced by one probe expectation,
// loaded by the real loader.
Resolved ResolveOne(const json& scenario_json, const std::string& name) {
  Resolved resolved;
  json probe = scenario_json;
  const NameParts parts = SplitAt(name);
  json entry = {{"metric", parts.metric}, {"min", 0}};
  if (parts.kind) entry["kind"] = *parts.kind;
  if (parts.window) entry["during"] = *parts.window;
  probe["expect"] = json::array({std::move(entry)});
  const scenario::LoadResult loaded = scenario::LoadScenarioText(probe.dump());
  if (!loaded.ok()) {
    for (const scenario::Problem& problem : loaded.problems) {
      std::string where = problem.pointer;
      if (where.rfind("/expect/0", 0) == 0) {
        where = where.substr(std::string("/expect/0").size());
        where = where == "/kind" ? "kind: " : where == "/during" ? "window: " : "";
      } else {
        where += ": ";
      }
      resolved.error += (resolved.error.empty() ? "" : "; ") + where + problem.message;
    }
    return resolved;
  }
  const auto& e = std::get<config::MetricExpectation>(loaded.scenario->expect.front());
  const reports::Measurement m = reports::Measure(ShapeOf(*loaded.scenario), e);
  if (m.status == reports::Measurement::Status::kNotMeasured) {
    resolved.error = "not measured: " + m.note;
    return resolved;
  }
  MetricSpec spec;
  spec.what = e;
  spec.what.bounds = {};
  spec.name = CanonicalName(spec.what);
  spec.better = BetterOf(e.metric);
  resolved.spec = std::move(spec);
  return resolved;
}

std::vector<Resolved> ResolveEach(const json& scenario_json,
                                  const std::vector<std::string>& names) {
  std::vector<Resolved> resolved;
  resolved.reserve(names.size());
  for (const std::string& name : names) resolved.push_back(ResolveOne(scenario_json, name));
  return resolved;
}

}  // namespace

Better BetterOf(RunMetric metric) {
  switch (metric) {
    case RunMetric::kAcked:
      return Better::kHigher;
    // These depend on the question: more publishes is more offered work, not a better run; more
    // suppressed duplicates means more duplicate deliveries that a claim row happened to stop;
    // DLQ outflow is replays; database utilisation is cost to some and throughput to others; an
    // alert that fires sooner may be the point.
    case RunMetric::kPublished:
    case RunMetric::kDuplicatesSuppressed:
    case RunMetric::kDlqOutflow:
    case RunMetric::kDbUtilisation:
    case RunMetric::kAgeAlertFirst:
    case RunMetric::kDepthAlertFirst:
    case RunMetric::kDlqDepthAlertFirst:
      return Better::kNone;
    default:
      return Better::kLower;
  }
}

bool UndefinedMeansNever(RunMetric metric) {
  switch (metric) {
    case RunMetric::kTimeToEmpty:
    case RunMetric::kTimeToQuiet:
    case RunMetric::kBacklogCleared:
    case RunMetric::kTimeToRecover:
    case RunMetric::kAgeAlertFirst:
    case RunMetric::kDepthAlertFirst:
    case RunMetric::kDlqDepthAlertFirst:
      return true;
    default:
      return false;
  }
}

bool UndefinedMeansNever(std::string_view canonical_name) {
  const std::optional<RunMetric> metric =
      config::FromName<RunMetric>(SplitAt(canonical_name).metric);
  return metric && UndefinedMeansNever(*metric);
}

std::optional<std::vector<MetricSpec>> ResolveMetrics(const json& scenario_json,
                                                      const std::vector<std::string>& names,
                                                      std::vector<std::string>* errors) {
  std::vector<Resolved> resolved = ResolveEach(scenario_json, names);
  std::vector<MetricSpec> specs;
  std::set<std::string> seen;
  for (size_t i = 0; i < names.size(); ++i) {
    if (!resolved[i].spec) {
      errors->push_back(names[i] + ": " + resolved[i].error);
      continue;
    }
    // The same metric asked twice (perhaps spelled "x@run" and "x") is reported once.
    if (seen.insert(resolved[i].spec->name).second) specs.push_back(*resolved[i].spec);
  }
  if (!errors->empty()) return std::nullopt;
  return specs;
}

std::vector<std::string> DefaultMetricNames(const json& scenario_json) {
  std::vector<std::string> candidates = {
      "time_to_empty_s",       "time_to_quiet_s", "acked",       "attempts_per_success",
      "duplicate_executions",  "human_needed",    "refilled",    "lost",
      "message_latency_p99_s", "db_timeouts",     "live_p99_ms", "live_p99_ms@drains"};
  // The scenario's own metric expectations, as NAME[:KIND][@WINDOW].
  const scenario::LoadResult loaded = scenario::LoadScenarioText(scenario_json.dump());
  if (loaded.ok()) {
    for (const config::Expectation& e : loaded.scenario->expect) {
      if (const auto* m = std::get_if<config::MetricExpectation>(&e)) {
        candidates.push_back(CanonicalName(*m));
      }
    }
  }
  std::vector<std::string> names;
  std::set<std::string> seen;
  const std::vector<Resolved> resolved = ResolveEach(scenario_json, candidates);
  for (const Resolved& r : resolved) {
    if (r.spec && seen.insert(r.spec->name).second) names.push_back(r.spec->name);
  }
  return names;
}

std::optional<double> MeasureMetric(const model::Results& results, const MetricSpec& spec) {
  const reports::Measurement m = reports::Measure(results, spec.what);
  if (m.status != reports::Measurement::Status::kValue) return std::nullopt;
  return m.value;
}

}  // namespace drainsim::experiments
