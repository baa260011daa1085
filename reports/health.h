// Health findings: a few built-in observations about a run that no expectation of the scenario
// covered (the database saturated for minutes, messages that need a human, a DLQ that refilled,
// retries that multiplied the work, live queries that failed). They are printed under the
// verdict in the summary, Markdown, HTML and JUnit (as system-out) and listed in report.json;
// they never change a verdict or the exit code: an SRE reads them, CI does not gate on them.
//
// Contract:
//  (1) Pure: reads Results and the verdicts only.
//  (2) A finding is left out when any expectation reads one of its metrics (the scenario's
//      author already decided what is acceptable there), and when its condition does not hold.
//  (3) At most one finding per kind, in a fixed order.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "reports/expectations.h"
#include "sim/model/results.h"

namespace drainsim::reports {

struct Finding {
  std::string id;    // "db_saturated", "human_needed", "dlq_refilled", "retry_amplification",
                     // "live_errors"
  std::string text;  // "database saturated (at least 99% busy) for 4 min (7200-7440 s)"
};

// Thresholds (docs/METRICS.md, "Health findings").
inline constexpr double kSaturatedUtilisation = 0.99;
inline constexpr double kSaturatedForS = 60;
inline constexpr double kAmplificationMax = 3;  // retries more than twice the first attempts

std::vector<Finding> HealthFindings(const model::Results& r, const std::vector<Verdict>& verdicts);

// "not covered by any expectation: A; B" or "" when there is no finding.
std::string FindingsLine(const std::vector<Finding>& findings);

}  // namespace drainsim::reports
