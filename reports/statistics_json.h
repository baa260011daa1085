// A metric's statistics over replications (experiments/results/statistics.h) as the experiment
// reports write them: JSON and the interval's text.
//
// Contract: pure; numbers rounded as report.json rounds them (reports/metrics.h Fixed).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "experiments/results/statistics.h"

namespace drainsim::reports {

// The statistics as JSON: runs, undefined, mean, sd, ci_low, ci_high, half_width, p50, p95, min,
// max (null when there is no value), numbers rounded as report.json rounds them.
nlohmann::json StatisticsJson(const experiments::Statistics& s);

// "[24.98, 25.02]" (or "-" without an interval).
std::string IntervalText(const experiments::Statistics& s);

// "+2797.47", "-12", "0": a difference with its sign.
std::string SignedNumber(double value);

// A mean over some runs says over how many: "280.606", "1689.5 over 2 of 30", "- (0 of 30)";
// `of` follows the run count ("- (0 of 30 pairs)"), and a difference is signed ("+2797.47").
std::string MeanText(const experiments::Statistics& s, const std::string& of = "",
                     bool is_signed = false);

// A paired difference with its interval: "+12.2 [+8.1, +16.3]", "+12.2" (one pair), "-".
std::string DifferenceText(const experiments::Statistics& d);

}  // namespace drainsim::reports
