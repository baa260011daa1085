// Alerts and expectations: what a run is judged by.
//
// An expectation is either a bound on a figure of the finished run ({"metric": ...}) or a
// property of a sampled series ({"always": ...} / {"sometimes": ...}). Each becomes one JUnit
// test case; a failed one makes `drainsim run` exit 1.
//
// JSON `expect` is an array of them. SCENARIO.md's object form is accepted as a shorthand for
// metric expectations only: {"lost": {"equals": 0}} is [{"metric": "lost", "equals": 0}], one
// entry per member in sorted key order (each value may also hold `kind` and `during`). The
// canonical dump always writes the array form.
//
// Invariants of a loaded scenario (the loader checks them):
//  (1) Bounds: at least one of min, max, equals; equals excludes min and max; min <= max.
//  (2) `kind` only on per-kind metrics, and it names a kind. `during` other than "run" only on
//      metrics that are sums or distributions over time (not end states or first times).
//  (3) Metrics of a missing section are refused: db_* needs a database, live_* its live
//      traffic, *_alert_first_s the alert, during "drains" a drain, during "faults" a fault.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "sim/engine/time.h"
#include "sim/config/enums.h"

namespace drainsim::config {

using engine::Duration;

// Thresholds whose first crossing (value > threshold) is reported as *_alert_first_s. Compare
// the two alerting styles of the seeds: age catches a stuck queue, depth pages on bursts.
struct Alerts {
  std::optional<Duration> oldest_age;  // JSON `oldest_age_s`, > 0. Default null: off.
  std::optional<int64_t> depth;        // Main-queue depth, >= 0. Default null: off.
  std::optional<int64_t> dlq_depth;    // DLQ depth, >= 0 ("DLQ > 0"). Default null: off.
  bool operator==(const Alerts&) const = default;
};

// The value passes iff min <= value <= max and value == equals, for each bound that is set.
struct Bounds {
  std::optional<double> min;
  std::optional<double> max;
  std::optional<double> equals;
  bool operator==(const Bounds&) const = default;
};

// {"metric": "time_to_empty_s", "max": 1800}
struct MetricExpectation {
  RunMetric metric = RunMetric::kLost;
  std::optional<std::string> kind;  // Default null: all kinds.
  During during = During::kRun;     // Default "run".
  Bounds bounds;
  bool operator==(const MetricExpectation&) const = default;
};

// {"always": "live_p99_ms", "max": 250, "during": "drains"}
struct PropertyExpectation {
  Quantifier quantifier = Quantifier::kAlways;
  SeriesMetric metric = SeriesMetric::kDepth;
  During during = During::kRun;  // Default "run".
  Bounds bounds;
  bool operator==(const PropertyExpectation&) const = default;
};

using Expectation = std::variant<MetricExpectation, PropertyExpectation>;

}  // namespace drainsim::config
