// report.html of `drainsim live --replications N`: the side-by-side table and one chart, the
// live run's main queue (live/live_series.h) over the simulated band (the smallest and the
// largest value over the replications at each sample instant, and their mean).
//
// Contract:
//  (1) A pure function of its arguments; one self-contained page: inline CSS and SVG, no
//      script, nothing fetched (reports/svg_chart.h).
//  (2) The chart's series are "simulated min", "simulated max", "simulated mean" and "live";
//      without a live series (live-events.jsonl unread) the live line is left out and the page
//      says so.
#pragma once

#include <optional>
#include <string>

#include "live/live_series.h"
#include "live/side_by_side_report.h"

namespace drainsim::live {

std::string SideBySideHtml(const SideBySideRun& run, const std::optional<LiveSeries>& live);

}  // namespace drainsim::live
