// The figures reports share, defined once: number formatting, histogram figures, the retry
// ratio, and the columns of the sampled series. report.json, the expectations, the Markdown
// summary and series.csv all read a figure through these, so they cannot disagree.
//
// Contract:
//  (1) Every function is pure and locale-independent: the same arguments give the same text.
//  (2) Fixed() is the rounding of every non-integer figure in every report (6 decimals: a
//      microsecond for seconds); expectations compare the rounded value, the one users see.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/base/decimal.h"
#include "sim/model/histogram.h"
#include "sim/model/results.h"

namespace drainsim::reports {

// `value` rounded to 6 decimals.
double Fixed(double value);

// Fixed(value) as report.json writes it (nlohmann's shortest round-trip form: "25.0",
// "0.054363", "1e-06").
std::string JsonNumber(double value);

// Decimal(value, decimals): `value` rounded to at most `decimals` decimals, trailing zeros and
// point dropped: "1800", "24.95", "0.5". For text meant for people (verdicts, Markdown). "-0"
// prints as "0". REQUIRES: 0 <= decimals <= 9. (sim/base/decimal.h: the configuration's fault
// legends write numbers the same way.)
using base::Decimal;

// A 64-bit hash as 16 lowercase hex digits: how reports print the run's fingerprint.
std::string Hex16(uint64_t value);

// A statistic of a histogram of microseconds, in the unit `scale` gives (1e6: seconds,
// 1e3: milliseconds), unrounded; nullopt iff the histogram is empty.
enum class Stat : uint8_t { kMean, kP50, kP99, kMax };
std::optional<double> HistogramStat(const model::Histogram& h_us, Stat stat, double scale);

// The retry-to-success ratio as the report defines it: attempts / acked messages. nullopt iff
// nothing was acked (report.json writes 0 then; expectations call it undefined).
std::optional<double> AttemptsPerSuccess(int64_t attempts, int64_t acked);

// The unit of a metric of the `expect` block or of the series, read from its name (names carry
// their unit last: docs/METRICS.md): "s" (`_s`), "ms" (`_ms`), "1/s" (`_per_s`), "ratio" for
// attempts_per_success, retry_amplification and db_utilisation, else "count". For JUnit's
// per-case properties, where a dashboard trends a value and needs its unit.
std::string_view UnitOf(std::string_view metric_name);

// One column of the sampled series, in series.csv's order. Every value fits a double exactly
// (counts stay below 2^53); `type` says how to write it.
struct SeriesColumn {
  enum class Type : uint8_t {
    kCount,  // an integer
    kReal,   // written through Fixed()
    kFlag,   // true/false in JSON, 1/0 in CSV
  };
  std::string name;  // with its unit: "t_s", "live_p99_ms", "dlq_inflow_per_s"
  Type type;
  // True iff the figure is over the interval that ends at the sample (a rate, a utilisation,
  // the live latency of queries completed in it) rather than a state at the sample's instant.
  // The sample at t = 0 closes no interval: its value for such a column is 0 and means nothing.
  bool over_interval;
  std::function<double(const model::Sample&)> value;
  // Null: every report writes the column. Set: only a run for which it is true, so that other
  // runs' reports stay as they were before the column existed (ack_pending with
  // broker.ack_pending_max, workers with workers.autoscale, partition_lag_* with
  // broker.partitions).
  std::function<bool(const model::Results&)> shown{};
};

// Every column of report.json's `series`, each once: t_s, the depths, ..., drain_rate_per_s,
// the inspector's dlq_reason_* and dlq_error_* counts, then drain_active and fault_active.
std::span<const SeriesColumn> SeriesColumns();

// The columns a report of `results` writes: SeriesColumns() less those the run does not use.
std::vector<const SeriesColumn*> SeriesColumnsOf(const model::Results& results);

// The column named `name`, or nullptr iff there is none.
const SeriesColumn* FindSeriesColumn(std::string_view name);

}  // namespace drainsim::reports
