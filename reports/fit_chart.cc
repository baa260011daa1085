#include "reports/fit_chart.h"

#include <cmath>
#include <cstdio>
#include <limits>

#include "reports/fit_report.h"
#include "reports/svg_chart.h"

namespace drainsim::reports {

namespace {

using experiments::FitResult;
using experiments::KindFit;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

svg::LineChart CdfChart(const KindFit& k) {
  svg::LineChart chart;
  chart.name = "handler-cdf-" + k.kind;
  chart.title = "Handler time of " + k.kind + ": fitted CDFs over the data's ECDF";
  chart.x_axis = {"handler time", "ms", 1};
  chart.y_axis = {"cumulative probability", "", 1};
  chart.x_min = k.handler.cdf.front().value_ms;
  chart.x_max = k.handler.cdf.back().value_ms;
  if (!(chart.x_min < chart.x_max)) chart.x_max = chart.x_min + 1;
  chart.y_max = 1;
  svg::Series data{"data (ECDF)", "#111827", {}, {}, false};
  svg::Series lognormal{"lognormal", "#2563eb", {}, {}, true};
  svg::Series table{"empirical table", "#dc2626", {}, {}, true};
  for (const experiments::CdfPoint& p : k.handler.cdf) {
    for (svg::Series* s : {&data, &lognormal, &table}) s->x.push_back(p.value_ms);
    data.y.push_back(p.data);
    lognormal.y.push_back(k.handler.lognormal ? p.lognormal : kNaN);
    table.y.push_back(p.table);
  }
  chart.series = {data, table};
  if (k.handler.lognormal) chart.series.push_back(lognormal);
  return chart;
}

svg::LineChart ArrivalChart(const KindFit& k) {
  svg::LineChart chart;
  chart.name = "arrivals-" + k.kind;
  chart.title = "Arrivals of " + k.kind + " per bin, with the fitted rate";
  chart.x_axis = svg::TimeAxis(k.arrivals.back().until_s);
  chart.y_axis = {"arrival rate", "/s", 1};
  chart.x_min = 0;
  chart.x_max = k.arrivals.back().until_s;
  svg::Series bins{"arrivals per bin / bin width", "#9ca3af", {}, {}, false};
  for (size_t i = 0; i < k.bin_counts.size(); ++i) {
    bins.x.push_back(k.bins_from_s + (static_cast<double>(i) + 0.5) * k.bin_s);
    bins.y.push_back(static_cast<double>(k.bin_counts[i]) / k.bin_s);
  }
  svg::Series fitted{"fitted rate", "#dc2626", {}, {}, false};
  for (const experiments::ArrivalWindow& w : k.arrivals) {
    fitted.x.insert(fitted.x.end(), {w.from_s, w.until_s});
    fitted.y.insert(fitted.y.end(), {w.rate_per_s, w.rate_per_s});
  }
  chart.series = {bins, fitted};
  return chart;
}

// The files fitted: the traces, then any metric series.
std::string Sources(const FitResult& fit) {
  std::string sources = fit.from;
  for (const std::string& file : fit.series_files) {
    sources += (sources.empty() ? "" : ", ") + file;
  }
  return sources;
}

}  // namespace

std::string FitMarkdown(const FitResult& fit) {
  std::string md = "# Fit: " + Sources(fit) + "\n\n```\n" + FitSummary(fit) + "```\n\n";
  for (const KindFit& k : fit.kinds) {
    md += "## " + k.kind +
          "\n\n| arrivals from (s) | until (s) | count | rate (/s) | 95% |\n"
          "|---|---|---|---|---|\n";
    char row[256];
    for (const experiments::ArrivalWindow& w : k.arrivals) {
      std::snprintf(row, sizeof row, "| %.3f | %.3f | %lld | %.4f | [%.4f, %.4f] |\n", w.from_s,
                    w.until_s, static_cast<long long>(w.arrivals), w.rate_per_s, w.poisson.low,
                    w.poisson.high);
      md += row;
    }
    md += "\nThe charts (fitted CDFs over the ECDF, arrivals per bin) are in fit.html.\n\n";
  }
  return md;
}

std::string FitHtml(const FitResult& fit) {
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Fit: " +
      svg::XmlEscape(Sources(fit)) +
      "</title>\n<style>body{font-family:sans-serif;max-width:1000px;margin:1em auto}"
      "svg{width:100%;height:auto}</style>\n</head>\n<body>\n<pre>" +
      svg::XmlEscape(FitSummary(fit)) + "</pre>\n";
  for (const KindFit& k : fit.kinds) {
    html += "<h2>" + svg::XmlEscape(k.kind) + "</h2>\n";
    if (k.handler.cdf.size() >= 2) html += svg::RenderLineChart(CdfChart(k)) + "\n";
    if (!k.arrivals.empty()) html += svg::RenderLineChart(ArrivalChart(k)) + "\n";
  }
  html += "</body>\n</html>\n";
  return html;
}

}  // namespace drainsim::reports
