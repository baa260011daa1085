// The OTLP reader before it streamed: a reference model for tests only (otlp_read_dom.cc).
#pragma once

#include <string>
#include <string_view>

#include "sim/telemetry/otlp_read.h"

namespace drainsim::telemetry::testing {

base::Status ReadOtlpTracesDom(std::string_view text, const std::string& file, TelemetrySet* set);

}  // namespace drainsim::telemetry::testing
