#include "reports/svg_chart.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "reports/metrics.h"
#include "sim/base/check.h"

namespace drainsim::reports::svg {

namespace {

// The plot area inside the viewBox: room for the legend above, tick labels and the axis labels
// left and below.
constexpr double kLeft = 70;
constexpr double kRight = 24;
constexpr double kTop = 40;  // with a one-line legend; each further line adds kLegendLine
constexpr double kLegendLine = 16;
constexpr double kBottom = 46;
constexpr double kBandWidthMin = 3;  // px: a 25-second drain in a six-hour run stays visible
constexpr double kCharWidth = 0.55;  // a system-ui character's width per font size, roughly

std::string Px(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.1f", value);
  return buffer;
}

double NiceStep(double range, int target, bool integer) {
  const double raw = range / target;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / magnitude;
  double step = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
  step *= magnitude;
  if (integer && step != std::floor(step)) step = step < 1 ? 1 : std::ceil(step / 5) * 5;
  return step;
}

// Appends rather than operator+ chains: GCC 12 at -O3 warns falsely (-Wrestrict) on those.
std::string Attr(std::string_view name, std::string_view value) {
  std::string out;
  out += ' ';
  out.append(name);
  out += "=\"";
  out += XmlEscape(value);
  out += '"';
  return out;
}

std::string AxisTitle(const Axis& axis) {
  if (axis.unit.empty()) return axis.label;
  if (axis.label.empty()) return axis.unit;
  return axis.label + " (" + axis.unit + ")";
}

class Plot {
 public:
  Plot(const LineChart& chart, double y_top, int legend_lines)
      : chart_(chart),
        y_top_(y_top),
        x0_(kLeft),
        x1_(chart.width - kRight),
        y0_(kTop + kLegendLine * (legend_lines - 1)),
        y1_(chart.height - kBottom) {}

  double X(double x) const {
    const double t = (x - chart_.x_min) / (chart_.x_max - chart_.x_min);
    return x0_ + std::clamp(t, 0.0, 1.0) * (x1_ - x0_);
  }
  double Y(double y) const { return y1_ - std::clamp(y / y_top_, 0.0, 1.0) * (y1_ - y0_); }
  double left() const { return x0_; }
  double right() const { return x1_; }
  double top() const { return y0_; }
  double bottom() const { return y1_; }

 private:
  const LineChart& chart_;
  double y_top_;
  double x0_, x1_, y0_, y1_;
};

struct YRange {
  double top = 1;
  std::optional<double> peak, peak_x;  // set when the range clips a spike (contract 7)
};

YRange YRangeOf(const LineChart& chart) {
  if (chart.y_max) return {*chart.y_max, {}, {}};
  double top = 0;
  double top_x = 0;
  std::vector<double> positive;
  for (const Series& s : chart.series) {
    for (size_t i = 0; i < s.y.size(); ++i) {
      if (!std::isfinite(s.y[i])) continue;
      if (s.y[i] > top) top = s.y[i], top_x = s.x[i];
      if (s.y[i] > 0 && chart.clip_spikes) positive.push_back(s.y[i]);
    }
  }
  YRange range;
  if (!positive.empty()) {
    const auto p95 = positive.begin() + static_cast<std::ptrdiff_t>(positive.size() * 95 / 100);
    std::nth_element(positive.begin(), p95, positive.end());
    if (top > kSpikeRatio * *p95) {
      range.peak = top;
      range.peak_x = top_x;
      top = 2 * *p95;
    }
  }
  if (chart.threshold) top = std::max(top, chart.threshold->y);
  range.top = top > 0 ? NiceCeil(top, chart.y_integer) : 1;
  return range;
}

// The legend's items, left to right, wrapped onto a new line where one would cross the right
// edge: (x, line) per series, then per distinct band legend.
struct LegendItem {
  std::string text;
  std::string colour;
  bool band = false;
  bool dashed = false;
  double x = 0;
  int line = 0;
};

std::vector<LegendItem> LegendLayout(const LineChart& chart) {
  std::vector<LegendItem> items;
  for (const Series& s : chart.series) items.push_back({s.label, s.colour, false, s.dashed});
  std::vector<std::string> seen;
  for (const Band& band : chart.bands) {
    if (band.legend.empty()) continue;
    if (std::find(seen.begin(), seen.end(), band.legend) != seen.end()) continue;
    seen.push_back(band.legend);
    items.push_back({band.legend, band.colour, true, false});
  }
  const double char_width = kCharWidth * chart.font_size;
  double x = kLeft;
  int line = 0;
  for (LegendItem& item : items) {
    const double width = 22 + char_width * static_cast<double>(item.text.size());
    if (x > kLeft && x + width > chart.width - kRight) x = kLeft, ++line;
    item.x = x;
    item.line = line;
    x += width + 16;
  }
  return items;
}

int LegendLines(const std::vector<LegendItem>& items) {
  return items.empty() ? 1 : items.back().line + 1;
}

std::string PathData(const Plot& plot, const Points& points) {
  std::string d;
  std::string last;  // the last point written, to skip repeats of the same pixel
  int subpath_points = 0;
  auto close_subpath = [&] {
    if (subpath_points == 1) d += "h0";  // a lone point: a dot, thanks to the round caps
    subpath_points = 0;
  };
  for (size_t i = 0; i < points.x.size(); ++i) {
    if (!std::isfinite(points.y[i]) || !std::isfinite(points.x[i])) {
      close_subpath();
      last.clear();
      continue;
    }
    const std::string xy = Px(plot.X(points.x[i])) + " " + Px(plot.Y(points.y[i]));
    if (xy == last) continue;
    if (subpath_points == 0) {
      d += "M" + xy;
    } else {
      d += (subpath_points == 1 ? "L" : " ") + xy;
    }
    last = xy;
    ++subpath_points;
  }
  close_subpath();
  return d;
}

void SvgBands(std::string& out, const LineChart& chart, const Plot& plot) {
  for (const Band& band : chart.bands) {
    DRAINSIM_CHECK(band.from <= band.until);
    if (band.until < chart.x_min || band.from > chart.x_max) continue;  // contract (6)
    const double x = plot.X(std::max(band.from, chart.x_min));
    const double width = std::max(kBandWidthMin, plot.X(std::min(band.until, chart.x_max)) - x);
    out += "<rect" + Attr("class", band.css_class) + Attr("x", Px(x)) + Attr("y", Px(plot.top())) +
           Attr("width", Px(width)) + Attr("height", Px(plot.bottom() - plot.top())) +
           Attr("fill", band.colour) + " fill-opacity=\"0.16\"><title>" + XmlEscape(band.title) +
           "</title></rect>\n";
  }
}

void Grid(std::string& out, const LineChart& chart, const Plot& plot, double y_top) {
  const double x_scale = chart.x_axis.scale;
  const double y_scale = chart.y_axis.scale;
  out += "<g class=\"grid\" stroke=\"currentColor\" stroke-opacity=\"0.14\">";
  const std::vector<double> y_ticks = NiceTicks(0, y_top / y_scale, 5, chart.y_integer);
  for (const double tick : y_ticks) {
    const std::string y = Px(plot.Y(tick * y_scale));
    out += "<line x1=\"" + Px(plot.left()) + "\" y1=\"" + y + "\" x2=\"" + Px(plot.right()) +
           "\" y2=\"" + y + "\"/>";
  }
  out += "</g>\n<g class=\"axes\" stroke=\"currentColor\" stroke-opacity=\"0.6\">";
  out += "<line x1=\"" + Px(plot.left()) + "\" y1=\"" + Px(plot.bottom()) + "\" x2=\"" +
         Px(plot.right()) + "\" y2=\"" + Px(plot.bottom()) + "\"/>";
  out += "<line x1=\"" + Px(plot.left()) + "\" y1=\"" + Px(plot.top()) + "\" x2=\"" +
         Px(plot.left()) + "\" y2=\"" + Px(plot.bottom()) + "\"/>";
  // About one tick label per 120 units of width: a narrow chart's labels do not collide.
  const int x_target = std::clamp(chart.width / 120, 3, 8);
  const std::vector<double> x_ticks =
      NiceTicks(chart.x_min / x_scale, chart.x_max / x_scale, x_target);
  for (const double tick : x_ticks) {
    const std::string x = Px(plot.X(tick * x_scale));
    out += "<line x1=\"" + x + "\" y1=\"" + Px(plot.bottom()) + "\" x2=\"" + x + "\" y2=\"" +
           Px(plot.bottom() + 5) + "\"/>";
  }
  out += "</g>\n<g class=\"tick-labels\">";
  for (const double tick : x_ticks) {
    out += "<text x=\"" + Px(plot.X(tick * x_scale)) + "\" y=\"" + Px(plot.bottom() + 18) +
           "\" text-anchor=\"middle\">" + XmlEscape(Decimal(tick, 6)) + "</text>";
  }
  for (const double tick : y_ticks) {
    out += "<text x=\"" + Px(plot.left() - 6) + "\" y=\"" + Px(plot.Y(tick * y_scale) + 4) +
           "\" text-anchor=\"end\">" + XmlEscape(Decimal(tick, 6)) + "</text>";
  }
  out += "</g>\n";
  const double middle_x = (plot.left() + plot.right()) / 2;
  const double middle_y = (plot.top() + plot.bottom()) / 2;
  out += "<text class=\"axis-label\" x=\"" + Px(middle_x) + "\" y=\"" + Px(plot.bottom() + 38) +
         "\" text-anchor=\"middle\">" + XmlEscape(AxisTitle(chart.x_axis)) + "</text>\n";
  out += "<text class=\"axis-label\" x=\"14\" y=\"" + Px(middle_y) +
         "\" text-anchor=\"middle\" transform=\"rotate(-90 14 " + Px(middle_y) + ")\">" +
         XmlEscape(AxisTitle(chart.y_axis)) + "</text>\n";
}

void SvgMarkers(std::string& out, const LineChart& chart, const Plot& plot) {
  for (const Marker& marker : chart.markers) {
    if (marker.x < chart.x_min || marker.x > chart.x_max) continue;  // contract (6)
    const std::string x = Px(plot.X(marker.x));
    out += "<line class=\"marker\" x1=\"" + x + "\" y1=\"" + Px(plot.top()) + "\" x2=\"" + x +
           "\" y2=\"" + Px(plot.bottom()) + "\"" + Attr("stroke", marker.colour) +
           " stroke-dasharray=\"2 3\"><title>" + XmlEscape(marker.title) + "</title></line>";
    if (marker.label.empty()) continue;
    out += "<text class=\"marker-label\" x=\"" + Px(plot.X(marker.x) + 3) + "\" y=\"" +
           Px(plot.top() + chart.font_size) + "\">" + XmlEscape(marker.label) + "</text>\n";
  }
  if (chart.threshold) {
    const Threshold& t = *chart.threshold;
    const double y = plot.Y(t.y);
    out += "<line class=\"threshold\" x1=\"" + Px(plot.left()) + "\" y1=\"" + Px(y) + "\" x2=\"" +
           Px(plot.right()) + "\" y2=\"" + Px(y) + "\"" + Attr("stroke", t.colour) +
           " stroke-width=\"1.5\" stroke-dasharray=\"6 4\"><title>" + XmlEscape(t.label) +
           "</title></line>";
    const double label_y = y - plot.top() < 16 ? y + 14 : y - 5;
    out += "<text class=\"threshold-label\" x=\"" + Px(plot.right() - 4) + "\" y=\"" + Px(label_y) +
           "\" text-anchor=\"end\"" + Attr("fill", t.colour) + ">" + XmlEscape(t.label) +
           "</text>\n";
  }
}

void Legend(std::string& out, const std::vector<LegendItem>& items) {
  out += "<g class=\"legend\">";
  for (const LegendItem& item : items) {
    const double x = item.x;
    const double y = 18 + kLegendLine * item.line;
    if (item.band) {
      out += "<rect x=\"" + Px(x) + "\" y=\"" + Px(y - 10) + "\" width=\"14\" height=\"12\"" +
             Attr("fill", item.colour) + " fill-opacity=\"0.35\"/>";
    } else {
      out += "<line x1=\"" + Px(x) + "\" y1=\"" + Px(y - 4) + "\" x2=\"" + Px(x + 18) + "\" y2=\"" +
             Px(y - 4) + "\"" + Attr("stroke", item.colour) + " stroke-width=\"2.5\"" +
             (item.dashed ? " stroke-dasharray=\"4 3\"" : "") + "/>";
    }
    out += "<text x=\"" + Px(x + 22) + "\" y=\"" + Px(y) + "\">" + XmlEscape(item.text) + "</text>";
  }
  out += "</g>\n";
}

// Contract (7): a mark at the top where the clipped peak is, and its value in words.
void PeakLabel(std::string& out, const LineChart& chart, const Plot& plot, const YRange& range) {
  if (!range.peak) return;
  const double x = plot.X(*range.peak_x);
  const double y = plot.top();
  out += "<path class=\"peak\" d=\"M" + Px(x - 5) + " " + Px(y + 8) + "L" + Px(x) + " " + Px(y) +
         "L" + Px(x + 5) + " " + Px(y + 8) + "Z\"/>";
  const std::string text = "off scale: peak " + Decimal(*range.peak / chart.y_axis.scale, 4) +
                           (chart.y_axis.unit.empty() ? "" : " " + chart.y_axis.unit) + " at " +
                           Decimal(*range.peak_x / chart.x_axis.scale, 4) +
                           (chart.x_axis.unit.empty() ? "" : " " + chart.x_axis.unit);
  const bool right_half = x > (plot.left() + plot.right()) / 2;
  out += "<text class=\"peak-label\" x=\"" + Px(right_half ? x - 8 : x + 8) + "\" y=\"" +
         Px(y + chart.font_size) + "\" text-anchor=\"" + (right_half ? "end" : "start") + "\">" +
         XmlEscape(text) + "</text>\n";
}

std::string DataMax(const Series& s) {
  std::optional<double> max;
  for (const double y : s.y) {
    if (std::isfinite(y) && (!max || y > *max)) max = y;
  }
  return max ? Decimal(*max, 6) : "";
}

}  // namespace

Axis TimeAxis(double span_s) {
  if (span_s <= 1200) return {"simulated time", "s", 1};
  if (span_s <= 3 * 3600) return {"simulated time", "min", 60};
  return {"simulated time", "h", 3600};
}

std::vector<double> NiceTicks(double lo, double hi, int target, bool integer) {
  DRAINSIM_CHECK(lo < hi);
  DRAINSIM_CHECK(target >= 1);
  const double step = NiceStep(hi - lo, target, integer);
  std::vector<double> ticks;
  const double first = std::ceil(lo / step - 1e-9);
  const double last = std::floor(hi / step + 1e-9);
  for (double k = first; k <= last && ticks.size() < 1000; k += 1) {
    const double tick = k * step;
    ticks.push_back(tick == 0 ? 0.0 : tick);  // no "-0"
  }
  return ticks;
}

double NiceCeil(double value, bool integer) {
  DRAINSIM_CHECK(value > 0);
  const double step = NiceStep(value, 5, integer);
  return std::ceil(value / step - 1e-9) * step;
}

Points Downsample(std::span<const double> x, std::span<const double> y, size_t max_points) {
  DRAINSIM_CHECK(x.size() == y.size());
  DRAINSIM_CHECK(max_points >= 2);
  return DownsampleBy(
      x.size(), [&](size_t i) { return x[i]; }, [&](size_t i) { return y[i]; }, max_points);
}

std::string RenderLineChart(const LineChart& chart) {
  DRAINSIM_CHECK(std::isfinite(chart.x_min));
  DRAINSIM_CHECK(std::isfinite(chart.x_max));
  DRAINSIM_CHECK(chart.x_min < chart.x_max);
  DRAINSIM_CHECK(chart.max_points >= 2);
  DRAINSIM_CHECK(chart.x_axis.scale > 0);
  DRAINSIM_CHECK(chart.y_axis.scale > 0);
  DRAINSIM_CHECK(chart.font_size > 0);
  const YRange range = YRangeOf(chart);
  const double y_top = range.top;
  DRAINSIM_CHECK(y_top > 0);
  const std::vector<LegendItem> legend = LegendLayout(chart);
  const Plot plot(chart, y_top, LegendLines(legend));

  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\"" + Attr("data-chart", chart.name) +
                    " viewBox=\"0 0 " + std::to_string(chart.width) + " " +
                    std::to_string(chart.height) + "\" role=\"img\"" +
                    Attr("aria-label", chart.title) + " font-family=\"system-ui, sans-serif\"" +
                    Attr("font-size", std::to_string(chart.font_size)) +
                    " fill=\"currentColor\">\n";
  out += "<title>" + XmlEscape(chart.title) + "</title>\n";
  SvgBands(out, chart, plot);
  Grid(out, chart, plot, y_top);
  SvgMarkers(out, chart, plot);
  for (const Series& s : chart.series) {
    DRAINSIM_CHECK(s.x.size() == s.y.size());
    const Points points = Downsample(s.x, s.y, chart.max_points);
    out += "<path class=\"series\"" + Attr("data-series", s.label) + Attr("data-max", DataMax(s)) +
           " fill=\"none\"" + Attr("stroke", s.colour) +
           " stroke-width=\"1.6\" stroke-linejoin=\"round\" "
           "stroke-linecap=\"round\"" +
           (s.dashed ? " stroke-dasharray=\"5 3\"" : "") + Attr("d", PathData(plot, points)) +
           "/>\n";
  }
  PeakLabel(out, chart, plot, range);
  Legend(out, legend);
  out += "</svg>";
  return out;
}

}  // namespace drainsim::reports::svg
