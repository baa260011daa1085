#include "experiments/compare_gate.h"

#include <algorithm>

#include "sim/base/check.h"
#include "sim/config/enum_names.h"

namespace drainsim::experiments {

namespace {

using nlohmann::json;

bool Resolves(const json& scenario, const std::string& name) {
  std::vector<std::string> ignored;
  return ResolveMetrics(scenario, {name}, &ignored).has_value();
}

std::string Joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text.empty() ? "(none)" : text;
}

}  // namespace

std::vector<std::string> GateableMetricNames(const json& a, const json& b) {
  std::vector<std::string> names;
  for (const auto& [metric, name] : config::EnumNames<config::RunMetric>()) {
    if (BetterOf(metric) == Better::kNone) continue;
    const std::string text(name);
    if (Resolves(a, text) && Resolves(b, text)) names.push_back(text);
  }
  return names;
}

base::Expected<std::vector<MetricSpec>> ResolveGateMetrics(const json& a, const json& b,
                                                           const std::vector<std::string>& names) {
  std::vector<MetricSpec> specs;
  std::string problems;
  for (const std::string& name : names) {
    std::vector<std::string> errors_a;
    std::vector<std::string> errors_b;
    const std::optional<std::vector<MetricSpec>> in_a = ResolveMetrics(a, {name}, &errors_a);
    const std::optional<std::vector<MetricSpec>> in_b = ResolveMetrics(b, {name}, &errors_b);
    std::string why;
    if (!in_a) {
      why = errors_a.front() + (in_b ? " (in A)" : "");
    } else if (!in_b) {
      why = errors_b.front() + " (in B)";
    } else if (in_a->front().better == Better::kNone) {
      why = name + ": has no direction (neither higher nor lower is worse), so it cannot gate";
    }
    if (!why.empty()) {
      problems += "--fail-if-worse " + why + "\n";
      continue;
    }
    const MetricSpec& spec = in_a->front();
    const bool seen = std::any_of(specs.begin(), specs.end(),
                                  [&](const MetricSpec& s) { return s.name == spec.name; });
    if (!seen) specs.push_back(spec);
  }
  if (!problems.empty()) {
    return base::Failure{problems + "metrics that can gate these scenarios (also per kind, " +
                         "NAME:KIND, and per window, NAME@drains or NAME@faults): " +
                         Joined(GateableMetricNames(a, b))};
  }
  if (specs.empty()) return base::Failure{"--fail-if-worse names no metric"};
  return specs;
}

GateVerdict GateVerdictOf(CompareVerdict verdict) {
  switch (verdict) {
    case CompareVerdict::kABetter:
      return GateVerdict::kWorse;
    case CompareVerdict::kBBetter:
      return GateVerdict::kBetter;
    case CompareVerdict::kDiffers:
      return GateVerdict::kDiffers;
    case CompareVerdict::kNoDifference:
      return GateVerdict::kNoDifference;
    case CompareVerdict::kTooFew:
      return GateVerdict::kTooFew;
    case CompareVerdict::kUndefined:
      return GateVerdict::kUndefined;
  }
  return GateVerdict::kUndefined;
}

GateResult JudgeComparison(const Comparison& c, const std::vector<MetricComparison>& results) {
  DRAINSIM_CHECK(results.size() == c.metrics.size());
  GateResult gate;
  gate.a_name = c.a.name;
  gate.b_name = c.b.name;
  gate.replications = c.replications;
  gate.confidence = c.confidence;
  for (size_t m = 0; m < c.metrics.size(); ++m) {
    GateRow row;
    row.metric = c.metrics[m].name;
    row.better = c.metrics[m].better;
    row.a = results[m].a;
    row.b = results[m].b;
    row.difference = results[m].difference;
    row.verdict_by = std::string(VerdictBasisName(results[m].verdict_by));
    row.verdict = GateVerdictOf(results[m].verdict);
    row.gated = std::find(c.gate.begin(), c.gate.end(), row.metric) != c.gate.end();
    if (row.gated) DRAINSIM_CHECK(row.better != Better::kNone);
    gate.rows.push_back(std::move(row));
  }
  for (const std::string& name : c.gate) {
    DRAINSIM_CHECK(std::any_of(gate.rows.begin(), gate.rows.end(),
                               [&](const GateRow& row) { return row.metric == name; }));
  }
  return gate;
}

}  // namespace drainsim::experiments
