// The metrics an experiment reports: every metric a scenario's `expect` block knows
// (reports/measure.h), optionally per kind or within a window, and which way is better.
//
// A metric is named NAME[:KIND][@WINDOW]: "time_to_empty_s", "duplicate_executions:purge",
// "live_p99_ms@drains". NAME is a run metric of the `expect` block, KIND a message kind
// (expect's `kind`), WINDOW "drains" or "faults" (expect's `during`).
//
// Contract:
//  (1) A metric is accepted for a scenario iff the same expectation ({"metric": NAME, "kind":
//      KIND, "during": WINDOW}) is accepted by the scenario loader in that scenario, and
//      reports::Measure can give it a value there (it is not "not measured"). The checks are
//      the loader's own: experiments and `expect` cannot disagree on what a metric means.
//  (2) The value of a metric in a run is reports::Measure's, rounded as report.json prints it;
//      nullopt iff Measure says undefined (a queue that never emptied has no time_to_empty_s).
//  (3) Better::kNone for metrics whose direction depends on the question (published,
//      duplicates_suppressed, dlq_outflow, db_utilisation and the alert times): a comparison
//      then says only whether they differ.
//  (4) UndefinedMeansNever for the instants a run may never reach: time_to_empty_s,
//      time_to_quiet_s and the alerts' first times. There "undefined" is the outcome "never",
//      later than any instant (compare ranks it last: experiments/compare_censored.h); for every
//      other metric it means there was nothing to measure (no message acked, no live query).
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/results/metric.h"
#include "sim/config/expect.h"
#include "sim/model/results.h"

namespace drainsim::experiments {

// Which way is better for `metric`.
Better BetterOf(config::RunMetric metric);

// Contract (4), for a metric, and for a canonical name NAME[:KIND][@WINDOW] (false for a name
// that is not a metric's).
bool UndefinedMeansNever(config::RunMetric metric);
bool UndefinedMeansNever(std::string_view canonical_name);

// The specs for `names`, checked against the scenario document `scenario_json` (a scenario
// that loads). On failure: nullopt, and one message per bad name in *errors ("--metric
// live_p99_ms: 'live_p99_ms' needs database.live_traffic").
std::optional<std::vector<MetricSpec>> ResolveMetrics(const nlohmann::json& scenario_json,
                                                      const std::vector<std::string>& names,
                                                      std::vector<std::string>* errors);

// The metrics an experiment reports when none are asked for: the headline figures of
// DESIGN.md that apply to the scenario, then those of its `expect` block's metric
// expectations (each once, in that order).
std::vector<std::string> DefaultMetricNames(const nlohmann::json& scenario_json);

// The value of `spec` in a finished run (contract (2)).
std::optional<double> MeasureMetric(const model::Results& results, const MetricSpec& spec);

}  // namespace drainsim::experiments
