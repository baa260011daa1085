#include "reports/replications_html.h"

#include <algorithm>
#include <cmath>

#include "reports/html_report.h"
#include "reports/metrics.h"
#include "reports/statistics_json.h"
#include "reports/svg_chart.h"
#include "reports/table.h"
#include "reports/text_format.h"
#include "sim/base/check.h"

namespace drainsim::reports {

namespace {

using experiments::ReplicatedExpectation;
using experiments::ReplicatedMetric;
using experiments::ReplicationsResult;
using svg::XmlEscape;

void HtmlStatisticsTable(std::string& out, const ReplicationsResult& r) {
  out += "<h2>Metrics</h2>\n<div class=\"scroll\"><table>\n";
  HtmlRow(out,
          {"metric", "runs", "undefined", "mean", "sd",
           HtmlText(Decimal(r.confidence * 100, 4) + "% CI"), "p50", "p95", "min", "max"},
          true);
  for (const ReplicatedMetric& m : r.metrics) {
    const experiments::Statistics& s = m.stats;
    const bool any = s.count > 0;
    HtmlRow(out, {HtmlCode(m.name), std::to_string(s.runs), std::to_string(s.undefined),
                  any ? Number(s.mean) : "-", s.has_interval() ? Number(s.sd) : "-",
                  HtmlText(IntervalText(s)), any ? Number(s.p50) : "-", any ? Number(s.p95) : "-",
                  any ? Number(s.min) : "-", any ? Number(s.max) : "-"});
  }
  out += "</table></div>\n";
}

void ReplicationsExpectations(std::string& out, const ReplicationsResult& r) {
  if (r.expectations.empty()) return;
  out += "<h2>Expectations</h2>\n<div class=\"scroll\"><table>\n";
  HtmlRow(out, {"passed", "expectation", "first failure"}, true);
  for (const ReplicatedExpectation& x : r.expectations) {
    const std::string ratio = std::to_string(x.passed) + "/" + std::to_string(x.runs);
    HtmlRow(out, {"<span class=\"" + std::string(x.first_failure ? "fail" : "pass") + "\">" +
                      HtmlText(ratio) + "</span>",
                  HtmlCode(x.text),
                  x.first_failure ? "replication " + std::to_string(*x.first_failure) + ": " +
                                        HtmlCode(x.first_failure_reproduce)
                                  : ""});
  }
  out += "</table></div>\n";
}

// The histogram as a step outline over the bins, the mean as a marker and the interval as a band.
svg::LineChart Histogram(const ReplicatedMetric& m, double confidence) {
  const bool all_same = !(m.stats.min < m.stats.max);
  const double low = all_same ? m.stats.min - 1 : m.stats.min;
  const double high = all_same ? m.stats.max + 1 : m.stats.max;
  const int64_t bins = all_same ? 1 : HistogramBins(m.stats.count);
  const std::vector<int64_t> counts = BinCounts(m.values, low, high, bins);
  svg::Series outline{"replications", "#3b82f6", {}, {}, false};
  const double width = (high - low) / static_cast<double>(bins);
  outline.x.push_back(low);
  outline.y.push_back(0);
  for (int64_t b = 0; b < bins; ++b) {
    const double from = low + width * static_cast<double>(b);
    const double until = b + 1 == bins ? high : from + width;
    const double count = static_cast<double>(counts[static_cast<size_t>(b)]);
    outline.x.insert(outline.x.end(), {from, until});
    outline.y.insert(outline.y.end(), {count, count});
  }
  outline.x.push_back(high);
  outline.y.push_back(0);
  svg::LineChart chart;
  chart.name = m.name;
  chart.title = m.name + " over " + std::to_string(m.stats.count) + " replications";
  chart.x_axis = {m.name, m.unit == "count" ? "" : m.unit, 1};
  chart.y_axis = {"replications", "", 1};
  chart.x_min = low;
  chart.x_max = high;
  chart.y_integer = true;
  chart.series.push_back(std::move(outline));
  chart.markers.push_back({m.stats.mean, "mean", "mean " + Number(m.stats.mean), "#d97706"});
  if (m.stats.has_interval()) {
    chart.bands.push_back({m.stats.ci_low, m.stats.ci_high,
                           Decimal(confidence * 100, 4) + "% CI " + IntervalText(m.stats),
                           "confidence interval of the mean", "#d97706", "band"});
  }
  // Drawn about 320 px wide (small multiples): text at 18 of 480 units reads at 12 px.
  chart.width = 480;
  chart.height = 260;
  chart.font_size = 18;
  return chart;
}

void Distributions(std::string& out, const ReplicationsResult& r) {
  out += "<h2>Distributions over the replications</h2>\n<div class=\"distributions\">\n";
  for (const ReplicatedMetric& m : r.metrics) {
    if (m.stats.count == 0) continue;
    out += "<figure data-metric=\"" + HtmlText(m.name) + "\">\n" +
           svg::RenderLineChart(Histogram(m, r.confidence)) + "\n<figcaption>" + HtmlCode(m.name) +
           ": " +
           HtmlText(std::to_string(m.stats.count) + " of " + std::to_string(m.stats.runs) +
                    " replications with a value; mean " + Number(m.stats.mean) +
                    (m.stats.has_interval() ? ", interval " + IntervalText(m.stats) : "")) +
           "</figcaption>\n</figure>\n";
  }
  out += "</div>\n";
}

}  // namespace

int64_t HistogramBins(int64_t count) {
  DRAINSIM_CHECK(count >= 1);
  int64_t bins = 1;
  while (bins * bins < count) ++bins;
  return std::clamp<int64_t>(bins, 1, 20);
}

std::vector<int64_t> BinCounts(const std::vector<double>& values, double low, double high,
                               int64_t bins) {
  DRAINSIM_CHECK(bins >= 1);
  DRAINSIM_CHECK(low < high);
  std::vector<int64_t> counts(static_cast<size_t>(bins), 0);
  for (const double v : values) {
    DRAINSIM_CHECK(v >= low && v <= high);
    const double position = (v - low) / (high - low) * static_cast<double>(bins);
    const auto b = std::min<int64_t>(static_cast<int64_t>(std::floor(position)), bins - 1);
    ++counts[static_cast<size_t>(b)];
  }
  return counts;
}

std::string ReplicationsHtml(const ReplicationsResult& r) {
  const int64_t failed = r.FailedExpectations();
  const std::string verdict = r.expectations.empty() ? "No expectations"
                              : failed == 0          ? "Every expectation held in every replication"
                                                     : std::to_string(failed) + " of " +
                                                  std::to_string(r.expectations.size()) +
                                                  " expectations failed in some replication";
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n";
  out += "<meta name=\"color-scheme\" content=\"light dark\"/>\n";
  out += "<title>drainsim: " + HtmlText(r.scenario_name) + " - " + std::to_string(r.replications) +
         " replications</title>\n";
  // Small multiples: as many histograms a row as fit at 320 px or more.
  out += "<style>" + std::string(HtmlStyle()) +
         ".distributions{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));"
         "gap:0 12px}.distributions figure{margin:8px 0}</style>\n</head>\n<body>\n<header>\n";
  out += "<h1>drainsim: " + HtmlText(r.scenario_name) + ", " + std::to_string(r.replications) +
         " replications</h1>\n";
  out += "<p class=\"verdict" +
         std::string(r.expectations.empty() ? ""
                     : failed               ? " fail"
                                            : " pass") +
         "\">" + HtmlText(verdict) + "</p>\n</header>\n<main>\n";
  out += "<p class=\"meta\">Scenario " + HtmlCode(r.scenario_path) + " (hash " +
         HtmlCode(r.scenario_hash) + "), base seed " + HtmlCode(std::to_string(r.base_seed)) +
         ", drainsim " + HtmlText(r.drainsim_version) +
         ". Intervals: " + HtmlText(Decimal(r.confidence * 100, 4)) +
         "%, Student t; p50 and p95 by nearest rank.</p>\n";
  HtmlStatisticsTable(out, r);
  ReplicationsExpectations(out, r);
  Distributions(out, r);
  out += "</main>\n</body>\n</html>\n";
  return out;
}

}  // namespace drainsim::reports
