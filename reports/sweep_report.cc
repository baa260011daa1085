#include "reports/sweep_report.h"

#include <cmath>
#include <span>

#include "reports/csv_report.h"
#include "reports/metrics.h"
#include "reports/statistics_json.h"
#include "reports/svg_chart.h"
#include "reports/table.h"
#include "reports/text_format.h"
#include "sim/base/check.h"

namespace drainsim::reports {

using experiments::Axis;
using experiments::Experiment;
using experiments::MetricColumn;
using experiments::RunRecord;
using experiments::Statistics;
using experiments::SweepResult;

namespace {

using nlohmann::json;

constexpr const char* kColours[] = {"#2563eb", "#dc2626", "#16a34a", "#9333ea",
                                    "#ea580c", "#0891b2", "#ca8a04", "#db2777"};

Table PointTable(const Experiment& e, const SweepResult& grid) {
  Table t;
  for (const Axis& axis : e.axes) t.header.push_back(axis.pointer);
  for (const MetricColumn& m : e.metrics) t.header.push_back(m.name);
  t.right.assign(t.header.size(), true);
  for (int64_t p = 0; p < e.PointCount(); ++p) {
    std::vector<std::string> row;
    for (const json& value : e.PointValues(p)) row.push_back(ValueText(value));
    for (size_t m = 0; m < e.metrics.size(); ++m) {
      row.push_back(
          SweepCell(grid.stats[static_cast<size_t>(p)][m], grid.undefined_means_never[m]));
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::string SweepCsv(const Experiment& e, const SweepResult& grid) {
  constexpr const char* kLineEnd = "\r\n";
  std::string out = "point";
  for (const Axis& axis : e.axes) out += "," + CsvField(axis.pointer);
  out += ",metric,runs,undefined,mean,sd,ci_low,ci_high,p50,p95,min,max";
  out += kLineEnd;
  auto number = [](bool defined, double value) {
    return defined ? JsonNumber(value) : std::string();
  };
  for (int64_t p = 0; p < e.PointCount(); ++p) {
    std::string prefix = std::to_string(p);
    for (const json& value : e.PointValues(p)) prefix += "," + CsvField(ValueText(value));
    for (size_t m = 0; m < e.metrics.size(); ++m) {
      const Statistics& s = grid.stats[static_cast<size_t>(p)][m];
      const bool any = s.count > 0;
      const bool interval = s.has_interval();
      out += prefix + "," + CsvField(e.metrics[m].name) + "," + std::to_string(s.runs) + "," +
             std::to_string(s.undefined) + "," + number(any, s.mean) + "," +
             number(interval, s.sd) + "," + number(interval, s.ci_low) + "," +
             number(interval, s.ci_high) + "," + number(any, s.p50) + "," + number(any, s.p95) +
             "," + number(any, s.min) + "," + number(any, s.max) + kLineEnd;
    }
  }
  return out;
}

// The chart of metric m against the first axis: one line (and its interval) per combination of
// the other axes. A first axis of non-numbers is drawn at positions 0, 1, 2, ...
std::string SweepChart(const Experiment& e, const SweepResult& grid, size_t m) {
  const Axis& first = e.axes.front();
  bool numeric = true;
  for (const json& v : first.values) numeric = numeric && v.is_number();
  auto x_of = [&](size_t i) {
    return numeric ? first.values[i].get<double>() : static_cast<double>(i);
  };
  double x_min = x_of(0);
  double x_max = x_of(0);
  for (size_t i = 0; i < first.values.size(); ++i) {
    x_min = std::min(x_min, x_of(i));
    x_max = std::max(x_max, x_of(i));
  }
  if (!(x_min < x_max)) x_max = x_min + 1;

  svg::LineChart chart;
  chart.name = e.metrics[m].name;
  chart.title = e.metrics[m].name + " against " + first.pointer;
  std::string x_label = first.pointer;
  if (!numeric) {
    x_label += " (";
    for (size_t i = 0; i < first.values.size(); ++i) {
      x_label += (i ? ", " : "") + std::to_string(i) + ": " + ValueText(first.values[i]);
    }
    x_label += ")";
  }
  chart.x_axis = {x_label, "", 1};
  chart.y_axis = {e.metrics[m].name, "", 1};
  chart.x_min = x_min;
  chart.x_max = x_max;
  const int64_t per_line = static_cast<int64_t>(first.values.size());
  const int64_t lines = e.PointCount() / per_line;
  const std::string ci = LevelPercent(e.confidence) + " CI";
  for (int64_t line = 0; line < lines; ++line) {
    // Points of one line: the first axis varies, the others are fixed. The first axis is the
    // outermost, so they are `lines` apart.
    std::string label;
    if (e.axes.size() > 1) {
      const std::vector<json> values = e.PointValues(line);
      for (size_t a = 1; a < e.axes.size(); ++a) {
        label += (label.empty() ? "" : " ") + e.axes[a].pointer + "=" + ValueText(values[a]);
      }
    }
    const std::string colour = kColours[static_cast<size_t>(line) % std::size(kColours)];
    svg::Series mean{label.empty() ? "mean" : label, colour, {}, {}, false};
    const std::string prefix = label.empty() ? ci : label + " " + ci;
    svg::Series low{prefix + " low", colour, {}, {}, true};
    svg::Series high{prefix + " high", colour, {}, {}, true};
    for (int64_t i = 0; i < per_line; ++i) {
      const Statistics& s = grid.stats[static_cast<size_t>(i * lines + line)][m];
      const double x = x_of(static_cast<size_t>(i));
      const double nan = std::nan("");
      mean.x.push_back(x);
      low.x.push_back(x);
      high.x.push_back(x);
      mean.y.push_back(s.count > 0 ? s.mean : nan);
      low.y.push_back(s.has_interval() ? s.ci_low : nan);
      high.y.push_back(s.has_interval() ? s.ci_high : nan);
    }
    chart.series.push_back(std::move(mean));
    chart.series.push_back(std::move(low));
    chart.series.push_back(std::move(high));
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svg::RenderLineChart(chart) + "\n";
}

}  // namespace

std::string ChartFileName(const std::string& metric) {
  std::string name = "sweep-";
  for (char c : metric) name += (c == ':' || c == '@' || c == '/') ? '-' : c;
  return name + ".svg";
}

Rendered RenderSweep(const Experiment& e, const std::vector<RunRecord>& records,
                     const SweepResult& grid) {
  DRAINSIM_CHECK(!e.axes.empty());
  DRAINSIM_CHECK(static_cast<int64_t>(records.size()) == e.RunCount());
  DRAINSIM_CHECK(static_cast<int64_t>(grid.stats.size()) == e.PointCount());
  const Table table = PointTable(e, grid);

  std::string over;
  for (const Axis& axis : e.axes) {
    over += (over.empty() ? "" : " x ") + axis.pointer + " (" + std::to_string(axis.values.size()) +
            " values)";
  }
  Rendered out;
  out.text = "sweep " + e.scenario_name + " over " + over + ": " + std::to_string(e.PointCount()) +
             " points x " + std::to_string(e.replications) +
             " replications\nreplication i runs with seed ReplicationSeed(" +
             std::to_string(e.base_seed) + ", i) at every point; cells: mean ±half-width of the " +
             LevelPercent(e.confidence) + " interval (Student t)\n\n" + table.Text();
  std::string md = "# Sweep of " + e.scenario_name + "\n\nScenario `" + e.scenario_path +
                   "` (hash `" + e.scenario_hash + "`) over " + over + "; " +
                   std::to_string(e.replications) + " replications per point, base seed " +
                   std::to_string(e.base_seed) + " (the same seeds at every point); drainsim " +
                   e.drainsim_version + ". Cells: mean ±half-width of the " +
                   LevelPercent(e.confidence) + " interval (Student t).\n\n" + table.Markdown();

  json points = json::array();
  for (int64_t p = 0; p < e.PointCount(); ++p) {
    json values = json::object();
    const std::vector<json> point_values = e.PointValues(p);
    for (size_t a = 0; a < e.axes.size(); ++a) values[e.axes[a].pointer] = point_values[a];
    json metrics = json::object();
    for (size_t m = 0; m < e.metrics.size(); ++m) {
      metrics[e.metrics[m].name] = StatisticsJson(grid.stats[static_cast<size_t>(p)][m]);
    }
    points.push_back(
        {{"point", p}, {"values", std::move(values)}, {"metrics", std::move(metrics)}});
  }
  json runs = json::array();
  for (size_t k = 0; k < records.size(); ++k) {
    json values = json::array();
    for (const std::optional<double>& v : records[k].values) {
      values.push_back(v ? json(*v) : json(nullptr));
    }
    runs.push_back({{"point", static_cast<int64_t>(k) / e.replications},
                    {"replication", static_cast<int64_t>(k) % e.replications},
                    {"seed", std::to_string(records[k].seed)},
                    {"fingerprint", Hex16(records[k].fingerprint)},
                    {"values", std::move(values)}});
  }
  const json document = {{"experiments_version", 1},
                         {"experiment", ToJson(e)},
                         {"points", std::move(points)},
                         {"runs", std::move(runs)}};
  out.files.push_back({"sweep.json", document.dump(2) + "\n"});
  out.files.push_back({"sweep.csv", SweepCsv(e, grid)});
  out.files.push_back({"sweep.md", md});
  for (size_t m = 0; m < e.metrics.size(); ++m) {
    out.files.push_back({ChartFileName(e.metrics[m].name), SweepChart(e, grid, m)});
  }
  return out;
}

std::string SweepCell(const Statistics& s, bool undefined_means_never) {
  const int64_t runs = s.runs;
  if (s.count == 0) {
    return undefined_means_never
               ? "never (" + std::to_string(runs) + " of " + std::to_string(runs) + ")"
               : "undefined";
  }
  std::string text = Number(s.mean);
  if (s.has_interval()) text += " ±" + Number(s.half_width);
  if (s.undefined > 0) {
    text += undefined_means_never
                ? " (never in " + std::to_string(s.undefined) + " of " + std::to_string(runs) + ")"
                : " (" + std::to_string(s.undefined) + " undef)";
  }
  return text;
}

}  // namespace drainsim::reports
