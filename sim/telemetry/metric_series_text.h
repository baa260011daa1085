// What the two metric-series readers share (metric_series.h): number parsing. Internal to
// sim/telemetry/.
#pragma once

#include <string_view>

#include "sim/base/expected.h"

namespace drainsim::telemetry {

// A decimal number (C locale, surrounding blanks allowed), finite; or why not.
base::Expected<double> ParseNumber(std::string_view text);

}  // namespace drainsim::telemetry
