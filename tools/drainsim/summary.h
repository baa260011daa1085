// The human-readable summary `drainsim run` prints: what an engineer reads first.
#pragma once

#include <string>

#include "reports/json_report.h"
#include "sim/model/results.h"

namespace drainsim::cli {

// First line: scenario, seed, fingerprint. Then the headline figures, one per line.
std::string Summary(const model::Results& results, const reports::ReportContext& context);

}  // namespace drainsim::cli
