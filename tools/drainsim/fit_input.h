// What `drainsim fit` reads (docs/TELEMETRY.md, "Reading telemetry"): each file, by its kind,
// into the spans (OTLP/JSON traces, drainsim live's live-events.jsonl) or a metric series (CSV,
// Prometheus query_range, CloudWatch GetMetricData: sim/telemetry/metric_series.h).
//
// A file's kind is `--kind K` when given (every file then), else recognised:
//  (1) a name ending in .jsonl: live events;
//  (2) else by its first 64 KiB: a JSON object with "resourceSpans" is OTLP, with
//      "MetricDataResults" CloudWatch, with "resultType" Prometheus; other text whose first line
//      has a comma is CSV; anything else is read as OTLP (whose reader says what is wrong).
//
// Contract: either every file is read or the result is the first problem ("FILE: where: why").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/base/expected.h"
#include "sim/telemetry/metric_series.h"
#include "sim/telemetry/otlp_read.h"

namespace drainsim::cli {

enum class FitInputKind { kOtlp, kLive, kCsv, kPrometheus, kCloudWatch };

// The kind named by --kind (otlp, live, csv, prometheus, cloudwatch), or the usage error.
base::Expected<FitInputKind> ParseFitInputKind(const std::string& name);

struct FitInputs {
  telemetry::TelemetrySet set;                    // spans of every trace and live-events file
  std::vector<telemetry::ObservedSeries> series;  // every metric series file, in order
};

// Reads every path, as `kind` when given, else as recognised (above). Fails when trace or live
// files were given and none holds a span to fit (the reasons fit gave before it read series):
// series alone are enough, traces without a span are bad input.
base::Status ReadFitInputs(const std::vector<std::string>& paths, std::optional<FitInputKind> kind,
                           const telemetry::SeriesReadOptions& options, FitInputs* inputs);

}  // namespace drainsim::cli
