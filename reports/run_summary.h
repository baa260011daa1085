// The human-readable summary `drainsim run` prints: what an engineer reads first.
//
// Contract: pure; the same results and context give the same bytes.
#pragma once

#include <string>

#include "reports/json_report.h"
#include "sim/model/results.h"

namespace drainsim::reports {

// First line: scenario, seed, fingerprint. Then the headline figures, one per line.
std::string RunSummary(const model::Results& results, const ReportContext& context);

}  // namespace drainsim::reports
