// otlp-metrics.json: the run's sampled series (report.json's `series`, series.csv's columns) as
// OpenTelemetry gauges in OTLP/JSON, written with otlp-traces.json by `--format otlp`
// (docs/TELEMETRY.md).
//
// Layout: {"resourceMetrics": [{"resource", "scopeMetrics": [{"scope", "metrics": [...]}]}]},
// one metric per series column but t_s, in series.csv's order: name "drainsim.<column>"
// (drainsim.depth, drainsim.dlq_depth, drainsim.oldest_age_s, ...: the series' own names, so
// that a query reads the same words as report.json), unit from the name's suffix ("s", "ms",
// "1/s"; "1" for counts, ratios and flags), a gauge whose data points are the samples:
// timeUnixNano (simulated time from kOtlpEpochUnixNanos), asInt for counts and flags (0/1),
// asDouble for the others (6 decimals, as report.json). A figure over the interval before a
// sample (a rate, a utilisation, live latency) has no point at t = 0, which closes no interval.
//
// Contract:
//  (1) A pure function of its ReportInput: byte-identical output for the same run.
//  (2) Bounded: at most kOtlpPointsMax + 1 points a metric. A run with more samples is thinned
//      to every k-th sample (k = ceil(samples / kOtlpPointsMax)) and the last; the resource's
//      drainsim.otlp.sample_stride says k and drainsim.otlp.note says so in words.
#pragma once

#include <cstddef>
#include <string>

#include "reports/report_input.h"

namespace drainsim::reports {

inline constexpr size_t kOtlpPointsMax = 10'000;

std::string OtlpMetrics(const ReportInput& input);

}  // namespace drainsim::reports
