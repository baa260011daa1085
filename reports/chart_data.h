// The charts of report.html as data, for its interactive layer (reports/html_interactive.h): one
// JSON document that the page's script reads to draw each chart again with uPlot, with a cursor
// that reads the values out.
//
//   {"format": 1, "charts": [{
//      "name": "depth", "title": "Queue depth",
//      "x": {"label": "simulated time", "unit": "min", "scale": 60},      svg::Axis, data units s
//      "y": {"label": "messages", "unit": "", "scale": 1, "integer": true, "max": null},
//      "series": [{"label": "ready", "colour": "#3b82f6", "column": "depth", "factor": 1,
//                  "decimals": 0}, ...],
//      "bands": [{"from": 20, "until": 30, "title": "...", "legend": "fault window",
//                 "colour": "#ef4444"}],
//      "markers": [{"x": 10, "label": "...", "title": "...", "colour": "..."}],
//      "threshold": {"y": 900, "label": "age alert 900 s", "colour": "..."} or null,
//      "data": [[t_s...], [values of series 0...], ...]}]}
//
// Contract:
//  (1) A pure function of its arguments; keys sorted, numbers in nlohmann's shortest round-trip
//      form, no whitespace: the same charts give the same bytes.
//  (2) The numbers are report.json's: data[0] holds samples' t_s and data[1 + k] series k's
//      ChartValue(..., as_reported = true) at those samples, i.e. the value report.json's
//      series[column] holds there times `factor`; null where the chart has a gap. "decimals" is
//      how many decimals the read-out shows: 0 for a count column, else 3.
//  (3) All of a chart's series share data[0] (uPlot's aligned data). With at most max_points
//      samples every sample is kept; otherwise the samples are cut into
//      max(1, max_points / (2 * series)) equal buckets and each keeps, for every series, the
//      samples of its minimum and its maximum (one sample where all are gaps): at most
//      max(max_points, 2 * series) rows, spikes kept. Rows are in sample order, each sample at
//      most once.
//  (4) The text holds no '<', '>' or '&' (they are written as \u003c, \u003e, \u0026 inside
//      strings, the only place JSON has them), so it can stand in a <script> element of a page
//      that is also well-formed XML.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "reports/html_charts.h"
#include "sim/model/results.h"

namespace drainsim::reports {

// REQUIRES: max_points >= 2; every figure's sources name columns of SeriesColumns()
std::string ChartDataJson(const RunCharts& charts, const std::vector<model::Sample>& samples,
                          size_t max_points);

// The sample indices contract (3) keeps for these sources, ascending.
// REQUIRES: max_points >= 2; sources not empty
std::vector<size_t> KeptSamples(const std::vector<SeriesSource>& sources,
                                const std::vector<model::Sample>& samples, size_t max_points);

}  // namespace drainsim::reports
