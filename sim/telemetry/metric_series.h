// Reading recorded metric series for `drainsim backtest` (issue 17): the queue's figures over time
// as a monitoring system recorded them during an incident, in one of two formats
// (docs/TELEMETRY.md, "Metric series"):
//
//  - CSV: a header row with a time column `t_s` (seconds from the incident's start) and named
//    figure columns; one row per instant. drainsim's own series.csv (`run --format csv`) is such
//    a file: its other columns are accepted and ignored when the caller names them in
//    SeriesReadOptions::ignored_columns.
//  - Prometheus `query_range` JSON: {"status": "success", "data": {"resultType": "matrix",
//    "result": [{"metric": {"__name__": ...}, "values": [[unix_s, "value"], ...]}]}}. A series
//    is mapped to a figure by its `__name__`: SeriesReadOptions::name_map first (`--map`), else
//    the name itself when it is a figure name. Times become seconds from the earliest timestamp
//    of the file.
//  - CloudWatch GetMetricData JSON, as the AWS CLI or an SDK writes it: {"MetricDataResults":
//    [{"Id", "Label", "Timestamps", "Values", "StatusCode"}]}. A result is mapped to a figure by
//    its Id (through name_map, else the Id itself when it is a figure name), then its Label
//    likewise. Timestamps are ISO 8601 with
//    a zone or unix seconds, in any order (CloudWatch gives newest first); results with the same
//    figure are one series split over pages, and one of them must say Complete. Times become
//    seconds from the earliest timestamp of the file.
//
// The figures (kFigureNames): depth, dlq_depth (messages), oldest_age_s (seconds), inflow_per_s
// (messages per second). A column or series named like a figure with a different unit or none
// ("oldest_age", "oldest_age_ms") is refused with the unit it should carry.
//
// Contract:
//  (1) Never throws; input over kSeriesTextBytesMax is refused, JSON nesting is bounded by
//      kSeriesDepthMax
//      (checked on the raw bytes), CSV rows by kCsvRowsMax.
//  (2) Either every figure of the text is read, or the result is the first problem:
//      "FILE: line L: reason" (CSV) or "FILE: /json/pointer: reason" (Prometheus).
//  (3) Every series read has at least one point, strictly increasing times, finite values >= 0.
//  (4) Deterministic: the figures sorted by name; points in time order.
//
// Thread-safety: reentrant.
#pragma once

#include <array>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sim/base/expected.h"

namespace drainsim::telemetry {

inline constexpr std::array<std::string_view, 4> kFigureNames = {"depth", "dlq_depth",
                                                                 "inflow_per_s", "oldest_age_s"};
inline constexpr size_t kCsvRowsMax = size_t{1} << 24;
inline constexpr size_t kSeriesTextBytesMax = size_t{1} << 30;  // 1 GiB
inline constexpr int kSeriesDepthMax = 64;

struct SeriesPoint {
  double t_s = 0;
  double value = 0;
};

struct ObservedSeries {
  std::string file;                                         // where it was read from
  std::map<std::string, std::vector<SeriesPoint>> figures;  // by figure name
};

struct SeriesReadOptions {
  // Prometheus: __name__ -> figure name (`--map NAME=FIGURE`), tried before the name itself.
  std::map<std::string, std::string> name_map;
  // CSV: columns that are accepted and skipped (drainsim's own series.csv columns).
  std::vector<std::string> ignored_columns;
};

// True iff `name` is one of kFigureNames.
bool IsFigureName(std::string_view name);

// Reads a CSV file's text. `file` names it in problems.
base::Expected<ObservedSeries> ReadSeriesCsv(std::string_view text, const std::string& file,
                                             const SeriesReadOptions& options);

// Reads a Prometheus query_range response's text. `file` names it in problems.
base::Expected<ObservedSeries> ReadSeriesPrometheus(std::string_view text, const std::string& file,
                                                    const SeriesReadOptions& options);

// Reads a CloudWatch GetMetricData response's text. `file` names it in problems.
base::Expected<ObservedSeries> ReadSeriesCloudWatch(std::string_view text, const std::string& file,
                                                    const SeriesReadOptions& options);

// The reader the text calls for: JSON when its first non-blank byte is '{' (CloudWatch when the
// object has "MetricDataResults", else Prometheus), else CSV.
base::Expected<ObservedSeries> ReadSeries(std::string_view text, const std::string& file,
                                          const SeriesReadOptions& options);

// The series with time `offset_s` as 0: the scenario's start lies offset_s seconds after the
// observation's origin. Points before it are left out; a figure left with none is a problem
// ("FILE: FIGURE: ..."). REQUIRES: offset_s finite.
base::Expected<ObservedSeries> Shifted(ObservedSeries series, double offset_s);

// The problem with `name` as a figure name ("units missing: oldest_age is in seconds: name it
// oldest_age_s", "unknown figure"), or success when it is one.
base::Status CheckFigureName(std::string_view name);

}  // namespace drainsim::telemetry
