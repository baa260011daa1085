// replications.html for `drainsim run --replications N --format html`: one self-contained page
// with the statistics table, the expectations' pass counts, and each metric's distribution over
// the replications as a small SVG histogram (reports/svg_chart.h) with its mean and confidence
// interval marked.
//
// Contract:
//  (1) As report.html (reports/html_report.h): self-contained (inline CSS and SVG, nothing
//      fetched), light and dark, every outside text escaped, well-formed as XML after the
//      doctype line.
//  (2) A pure function of the result: the same replications give the same bytes, whatever
//      --jobs made them.
//  (3) One <figure data-metric=NAME> per metric with a value in some replication; its histogram
//      has HistogramBins(count) equal-width bins over [min, max] (one bin, widened by 1 on each
//      side, when every value is the same), and the bin counts add up to the metric's count.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "experiments/results/replications_result.h"

namespace drainsim::reports {

std::string ReplicationsHtml(const experiments::ReplicationsResult& result);

// ceil(sqrt(count)), between 1 and 20. REQUIRES: count >= 1
int64_t HistogramBins(int64_t count);

// The count of `values` in each of `bins` equal-width bins over [low, high] (the last bin holds
// `high`). REQUIRES: bins >= 1, low < high, every value in [low, high]
std::vector<int64_t> BinCounts(const std::vector<double>& values, double low, double high,
                               int64_t bins);

}  // namespace drainsim::reports
