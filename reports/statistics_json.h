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

}  // namespace drainsim::reports
