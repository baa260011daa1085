// What the metric-series readers share (metric_series.h): number parsing, the JSON formats'
// parse, and each JSON format's reader of a parsed document (ReadSeries parses once and picks).
// Internal to sim/telemetry/.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "sim/base/expected.h"
#include "sim/telemetry/metric_series.h"

namespace drainsim::telemetry {

// A decimal number (C locale, surrounding blanks allowed), finite; or why not.
base::Expected<double> ParseNumber(std::string_view text);

// The text as JSON, nesting bounded by kSeriesDepthMax (checked on the raw bytes first), size by
// kSeriesTextBytesMax; or "FILE: line L: why".
base::Expected<nlohmann::json> ParseSeriesJson(std::string_view text, const std::string& file);

base::Expected<ObservedSeries> ReadPrometheusJson(const nlohmann::json& root,
                                                  const std::string& file,
                                                  const SeriesReadOptions& options);
base::Expected<ObservedSeries> ReadCloudWatchJson(const nlohmann::json& root,
                                                  const std::string& file,
                                                  const SeriesReadOptions& options);

}  // namespace drainsim::telemetry
