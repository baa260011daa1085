// Expectations judged: each of a scenario's `expect` entries against a finished run's Results,
// as a verdict that every output (stdout, report.json, report.md, junit.xml) prints the same.
//
// Contract:
//  (1) Evaluation reads Results and the expectations only, and is deterministic.
//  (2) A `metric` expectation passes iff its figure has a value (reports/measure.h) within the
//      bounds; an undefined or unmeasured figure fails, and the reason says which and why.
//  (3) An `always` expectation passes iff every sample of its window is within the bounds (zero
//      samples: vacuously, and the reason says so); `sometimes` iff at least one is (zero
//      samples: it fails). The window is every sample ("run"), or those with drain_active
//      ("drains") or fault_active ("faults"); a figure over the interval before a sample
//      (SeriesColumn::over_interval) needs the flag at both ends of the interval, and never
//      counts the sample at t = 0, which closes no interval (reports/measure.h, InWindow).
//      live_p50_ms and live_p99_ms skip samples whose interval completed no live query (the
//      series holds 0 there).
//  (4) Values are compared as the reports print them: rounded by Fixed() (6 decimals).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/config/expect.h"
#include "sim/model/results.h"

namespace drainsim::reports {

struct Verdict {
  std::string text;  // as a user would write it: "always live_p99_ms <= 250 during drains"
  std::string type;  // "metric", "always" or "sometimes"
  std::string metric;
  std::optional<std::string> kind;  // per-kind metric expectations only
  std::string during;               // "run", "drains" or "faults"
  config::Bounds bounds;
  // The figure compared with the bounds, rounded; nullopt iff undefined or not measured. For
  // `always`: the worst sample if one is out of bounds, else the extreme toward the bound (the
  // maximum under a max, the minimum under a min). For `sometimes`: the first sample within
  // bounds, else the closest one.
  std::optional<double> measured;
  // Decimal(*measured), or "undefined", "not measured", "no samples" (a property's empty window).
  std::string measured_text;
  bool passed = false;
  std::string reason;  // one line: the comparison, or why there is no value
};

// One verdict per expectation, in the scenario's order.
std::vector<Verdict> EvaluateExpectations(const model::Results& results,
                                          const std::vector<config::Expectation>& expectations);
Verdict Evaluate(const model::Results& results, const config::Expectation& expectation);

// "time_to_empty_s <= 1800", "duplicate_executions for kind purge <= 0",
// "wasted_worker_s >= 1500 and <= 1501", "sometimes dlq_depth >= 1 during faults".
std::string ExpectationText(const config::Expectation& expectation);
// "<= 1800", ">= 1", "== 0", ">= 1500 and <= 1501".
std::string BoundsText(const config::Bounds& bounds);
// The expectation's bounds, and the name of the figure it bounds ("time_to_empty_s", "depth").
const config::Bounds& ExpectationBounds(const config::Expectation& expectation);
std::string ExpectationMetricName(const config::Expectation& expectation);

// "measured 24, bound <= 0" (without a value: "no value (undefined), bound <= 1800"): the JUnit
// failure message, and the core of a FAIL line.
std::string FailureMessage(const Verdict& verdict);
// "PASS  time_to_empty_s <= 1800: measured 24.95" or
// "FAIL  lost == 0: measured 3, bound == 0 (3 != 0)".
std::string VerdictLine(const Verdict& verdict);

size_t CountFailed(const std::vector<Verdict>& verdicts);

}  // namespace drainsim::reports
