// The metric-series options `drainsim backtest` and `drainsim fit` share: `--map NAME=FIGURE`
// (sim/telemetry/metric_series.h's name_map) and drainsim's own series.csv columns accepted.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sim/base/expected.h"
#include "sim/telemetry/metric_series.h"

namespace drainsim::cli {

// "KEY=VALUE" split at its first '='; or the usage error naming `option`.
base::Expected<std::pair<std::string, std::string>> KeyValue(const char* option,
                                                             const std::string& text);

// The read options of the `--map` items given (none: empty), or the first bad one.
base::Expected<telemetry::SeriesReadOptions> SeriesOptions(const std::vector<std::string>& maps);

}  // namespace drainsim::cli
