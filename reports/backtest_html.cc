// backtest.html: per series figure, the observed series drawn over the simulated band (2.5% and
// 97.5% dashed, the median thin), with backtest.md's tables above. Self-contained: inline SVG
// from reports/svg_chart.h, no script.
#include <algorithm>
#include <cmath>

#include "reports/backtest_report.h"
#include "reports/metrics.h"
#include "reports/svg_chart.h"

namespace drainsim::reports {

namespace {

using experiments::BacktestResult;
using experiments::SeriesComparison;

svg::LineChart BandChart(const SeriesComparison& s) {
  svg::LineChart chart;
  chart.name = s.name;
  chart.title = s.name + ": observed over the simulated 95% band";
  const double span_s = s.points.empty() ? 1 : std::max(s.points.back().t_s, 1.0);
  chart.x_axis = svg::TimeAxis(span_s);
  chart.x_min = 0;
  chart.x_max = span_s;
  chart.y_axis = {s.name, s.name == "oldest_age_s" ? "s" : "messages", 1};
  chart.y_integer = s.name != "oldest_age_s";
  svg::Series low{"simulated 2.5%", "#93c5fd", {}, {}, true};
  svg::Series median{"simulated median", "#3b82f6", {}, {}, false};
  svg::Series high{"simulated 97.5%", "#93c5fd", {}, {}, true};
  svg::Series observed{"observed", "#dc2626", {}, {}, false};
  for (const experiments::BandPoint& p : s.points) {
    for (svg::Series* line : {&low, &median, &high, &observed}) line->x.push_back(p.t_s);
    low.y.push_back(p.low);
    median.y.push_back(p.median);
    high.y.push_back(p.high);
    observed.y.push_back(p.observed);
  }
  chart.series = {low, median, high, observed};
  return chart;
}

}  // namespace

std::string BacktestHtml(const BacktestResult& r) {
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Backtest: " +
      svg::XmlEscape(r.scenario_name) +
      "</title>\n<style>body{font-family:sans-serif;max-width:1000px;margin:1em auto}"
      "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}"
      "svg{width:100%;height:auto}</style>\n</head>\n<body>\n<pre>" +
      svg::XmlEscape(BacktestSummary(r)) + "</pre>\n";
  for (const SeriesComparison& s : r.series) {
    if (s.points.size() < 2) continue;
    html += "<h2>" + svg::XmlEscape(s.name) + " (" + Decimal(100 * s.share_in_band, 1) +
            "% inside the band)</h2>\n" + svg::RenderLineChart(BandChart(s)) + "\n";
  }
  html += "</body>\n</html>\n";
  return html;
}

}  // namespace drainsim::reports
