#include "live/side_by_side_html.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "reports/svg_chart.h"
#include "reports/table.h"
#include "sim/base/check.h"

namespace drainsim::live {

namespace {

namespace svg = reports::svg;
using reports::Number;
using reports::NumberOr;

struct Band {
  std::vector<double> min, max, mean;
};

// Per sample instant over the replications, each extended to `samples` by its last value.
Band SimulatedBand(const SimulatedSide& sim, size_t samples) {
  Band band;
  for (size_t k = 0; k < samples; ++k) {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    double sum = 0;
    for (const std::vector<double>& run : sim.main_queue) {
      const double v = run.empty() ? 0 : run[std::min(k, run.size() - 1)];
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      sum += v;
    }
    const double n = static_cast<double>(sim.main_queue.size());
    band.min.push_back(n > 0 ? lo : NAN);
    band.max.push_back(n > 0 ? hi : NAN);
    band.mean.push_back(n > 0 ? sum / n : NAN);
  }
  return band;
}

std::string Chart(const SideBySideRun& run, const std::optional<LiveSeries>& live) {
  const SimulatedSide& sim = *run.simulated;
  size_t samples = 0;
  for (const auto& r : sim.main_queue) samples = std::max(samples, r.size());
  if (live) samples = std::max(samples, live->main_queue.size());
  samples = std::max<size_t>(samples, 2);
  const double dt_s = sim.sample_every_s;
  std::vector<double> x(samples);
  for (size_t k = 0; k < samples; ++k) x[k] = static_cast<double>(k) * dt_s;
  const Band band = SimulatedBand(sim, samples);
  svg::LineChart chart;
  chart.name = "main-queue";
  chart.title = "Main queue: live run over the simulated replications";
  chart.x_axis = svg::TimeAxis(x.back());
  chart.x_axis.label = "time from the plan's start";
  chart.y_axis = {"main queue (ready + in flight)", "", 1};
  chart.x_max = x.back();
  chart.y_integer = true;
  chart.series.push_back({"simulated min", "#94a3b8", x, band.min, true});
  chart.series.push_back({"simulated max", "#94a3b8", x, band.max, true});
  chart.series.push_back({"simulated mean", "#3b82f6", x, band.mean, false});
  if (live) {
    std::vector<double> y = live->main_queue;
    y.resize(samples, y.empty() ? 0 : y.back());
    chart.series.push_back({"live", "#f97316", x, y, false});
  }
  return svg::RenderLineChart(chart);
}

std::string Row(const Comparison& c) {
  auto cell = [](const std::string& text) { return "<td>" + svg::XmlEscape(text) + "</td>"; };
  std::string interval = "-";
  if (c.interval) {
    interval = c.exact ? "exactly " + Number(c.interval->low)
                       : Number(c.interval->low) + " to " + Number(c.interval->high);
  }
  const bool any = c.simulated.count > 0;
  std::string verdict = VerdictName(c.verdict);
  if (!c.note.empty()) verdict += " (" + c.note + ")";
  return "<tr class=\"" + std::string(c.verdict == Verdict::kOutside ? "outside" : "") + "\">" +
         cell(c.name) + cell(c.unit) +
         cell(c.verdict == Verdict::kNotCompared && !any ? "-" : NumberOr(c.live, "never")) +
         cell(any ? Number(c.simulated.mean) : "-") + cell(interval) +
         cell(c.tolerance > 0 ? "±" + Number(c.tolerance) : "") + cell(verdict) + "</tr>\n";
}

}  // namespace

std::string SideBySideHtml(const SideBySideRun& run, const std::optional<LiveSeries>& live) {
  DRAINSIM_CHECK(run.live && run.simulated);
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>drainsim live: " +
      svg::XmlEscape(run.scenario_name) +
      "</title>\n<style>body{font-family:system-ui,sans-serif;max-width:1000px;margin:2em "
      "auto;padding:0 1em}table{border-collapse:collapse}td,th{padding:.2em .6em;border-bottom:"
      "1px solid #8884;text-align:left}tr.outside{background:#f9731633}svg{width:100%;height:"
      "auto}</style>\n</head><body>\n<h1>drainsim live: " +
      svg::XmlEscape(run.scenario_name) + ", side by side</h1>\n";
  html += "<p>The live run (seed " + std::to_string(run.seed) + ", " +
          svg::XmlEscape(run.live->broker_product + " " + run.live->broker_version) + ") against " +
          std::to_string(run.simulated->replications) +
          " simulated replications. Interval: the 95% prediction interval for one new "
          "observation; a figure constant over the replications is compared exactly; wall "
          "times have a tolerance of ±" +
          Number(run.options.time_tolerance_s) + " s. Verdict: <strong>" +
          (run.exit_code == 0 ? "model and reality agree" : "model and reality disagree") +
          "</strong>.</p>\n<table>\n<tr><th>figure</th><th>unit</th><th>live</th><th>simulated "
          "mean</th><th>95% prediction interval</th><th>tolerance</th><th>verdict</th></tr>\n";
  for (const Comparison& c : run.rows) html += Row(c);
  html += "</table>\n<h2>Main queue over time</h2>\n";
  if (!live) html += "<p>live-events.jsonl could not be read: no live series.</p>\n";
  html += Chart(run, live) + "\n";
  html += "<p>Sampled every " + Number(run.simulated->sample_every_s) +
          " s (the scenario's run.sample_every_s): the dashed lines are the smallest and the "
          "largest simulated value at each instant over the replications, the blue line their "
          "mean, the orange line the live run, rebuilt from live-events.jsonl.</p>\n";
  if (run.where.ok) {
    html +=
        "<p>Where the live time went: " + svg::XmlEscape(WhereTimeWentText(run.where)) + ".</p>\n";
  }
  html += "</body></html>\n";
  return html;
}

}  // namespace drainsim::live
