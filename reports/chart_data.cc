#include "reports/chart_data.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "reports/metrics.h"
#include "sim/base/check.h"

namespace drainsim::reports {

namespace {

using nlohmann::json;

// The sources' columns, resolved once (FindSeriesColumn is a search by name).
std::vector<const SeriesColumn*> ColumnsOf(const std::vector<SeriesSource>& sources) {
  std::vector<const SeriesColumn*> columns;
  for (const SeriesSource& source : sources) {
    const SeriesColumn* column = FindSeriesColumn(source.column);
    DRAINSIM_CHECK(column != nullptr);
    columns.push_back(column);
  }
  return columns;
}

json Axis(const svg::Axis& axis) {
  return json{{"label", axis.label}, {"unit", axis.unit}, {"scale", axis.scale}};
}

json Series(const svg::Series& series, const SeriesSource& source, const SeriesColumn& column) {
  const int decimals = column.type == SeriesColumn::Type::kCount ? 0 : 3;
  return json{{"label", series.label},
              {"colour", series.colour},
              {"column", source.column},
              {"factor", source.factor},
              {"decimals", decimals}};
}

json Bands(const std::vector<svg::Band>& bands) {
  json out = json::array();
  for (const svg::Band& band : bands) {
    out.push_back({{"from", band.from},
                   {"until", band.until},
                   {"title", band.title},
                   {"legend", band.legend},
                   {"colour", band.colour}});
  }
  return out;
}

json Markers(const std::vector<svg::Marker>& markers) {
  json out = json::array();
  for (const svg::Marker& marker : markers) {
    out.push_back({{"x", marker.x},
                   {"label", marker.label},
                   {"title", marker.title},
                   {"colour", marker.colour}});
  }
  return out;
}

json Threshold(const std::optional<svg::Threshold>& threshold) {
  if (!threshold) return nullptr;
  return json{{"y", threshold->y}, {"label", threshold->label}, {"colour", threshold->colour}};
}

json JsonValueOrNull(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }

// Contract (2) and (3): the rows of one chart.
json Data(const ChartFigure& figure, const std::vector<model::Sample>& samples, size_t max_points) {
  const std::vector<const SeriesColumn*> columns = ColumnsOf(figure.sources);
  const std::vector<size_t> kept = KeptSamples(figure.sources, samples, max_points);
  json data = json::array();
  json x = json::array();
  for (const size_t i : kept) x.push_back(Fixed(samples[i].t_s));
  data.push_back(std::move(x));
  for (size_t k = 0; k < figure.sources.size(); ++k) {
    json y = json::array();
    for (const size_t i : kept) {
      y.push_back(JsonValueOrNull(ChartValue(*columns[k], figure.sources[k], samples[i], true)));
    }
    data.push_back(std::move(y));
  }
  return data;
}

json Chart(const ChartFigure& figure, const std::vector<model::Sample>& samples,
           size_t max_points) {
  const svg::LineChart& chart = figure.chart;
  DRAINSIM_CHECK(figure.sources.size() == chart.series.size());
  const std::vector<const SeriesColumn*> columns = ColumnsOf(figure.sources);
  json series = json::array();
  for (size_t k = 0; k < chart.series.size(); ++k) {
    series.push_back(Series(chart.series[k], figure.sources[k], *columns[k]));
  }
  json y = Axis(chart.y_axis);
  y["integer"] = chart.y_integer;
  y["max"] = chart.y_max ? json(*chart.y_max) : json(nullptr);
  return json{{"name", chart.name},
              {"title", chart.title},
              {"x", Axis(chart.x_axis)},
              {"y", std::move(y)},
              {"series", std::move(series)},
              {"bands", Bands(chart.bands)},
              {"markers", Markers(chart.markers)},
              {"threshold", Threshold(chart.threshold)},
              {"data", Data(figure, samples, max_points)}};
}

// Contract (4): '<', '>' and '&' can only be inside strings in dumped JSON.
std::string EscapeForHtml(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '>') {
      out += "\\u003e";
    } else if (c == '&') {
      out += "\\u0026";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::vector<size_t> KeptSamples(const std::vector<SeriesSource>& sources,
                                const std::vector<model::Sample>& samples, size_t max_points) {
  DRAINSIM_CHECK(max_points >= 2);
  DRAINSIM_CHECK(!sources.empty());
  const size_t n = samples.size();
  std::vector<size_t> kept;
  if (n <= max_points) {
    for (size_t i = 0; i < n; ++i) kept.push_back(i);
    return kept;
  }
  const std::vector<const SeriesColumn*> columns = ColumnsOf(sources);
  const size_t buckets = std::max<size_t>(1, max_points / (2 * sources.size()));
  std::vector<size_t> bucket;
  for (size_t b = 0; b < buckets; ++b) {
    const size_t begin = b * n / buckets;
    const size_t end = (b + 1) * n / buckets;
    bucket.clear();
    for (size_t k = 0; k < sources.size(); ++k) {
      size_t lo = end, hi = end;
      double lo_y = 0, hi_y = 0;
      for (size_t i = begin; i < end; ++i) {
        const double y = ChartValue(*columns[k], sources[k], samples[i], true);
        if (!std::isfinite(y)) continue;
        if (lo == end || y < lo_y) lo = i, lo_y = y;
        if (hi == end || y > hi_y) hi = i, hi_y = y;
      }
      if (lo != end) bucket.insert(bucket.end(), {lo, hi});
    }
    if (bucket.empty()) bucket.push_back(begin);  // all gaps here: one row keeps the gap
    std::sort(bucket.begin(), bucket.end());
    bucket.erase(std::unique(bucket.begin(), bucket.end()), bucket.end());
    kept.insert(kept.end(), bucket.begin(), bucket.end());
  }
  DRAINSIM_CHECK(kept.size() <= std::max(max_points, 2 * sources.size()));
  return kept;
}

std::string ChartDataJson(const RunCharts& charts, const std::vector<model::Sample>& samples,
                          size_t max_points) {
  DRAINSIM_CHECK(max_points >= 2);
  json out_charts = json::array();
  for (const ChartFigure& figure : charts.figures) {
    out_charts.push_back(Chart(figure, samples, max_points));
  }
  const json out{{"format", 1}, {"charts", std::move(out_charts)}};
  return EscapeForHtml(out.dump());
}

}  // namespace drainsim::reports
