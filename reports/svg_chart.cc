#include "reports/svg_chart.h"

#include <algorithm>
#include <cstdio>

#include "reports/metrics.h"
#include "sim/engine/check.h"

namespace drainsim::reports::svg {

namespace {

// The plot area inside the viewBox: room for the legend above, tick labels and the axis labels
// left and below.
constexpr double kLeft = 70;
constexpr double kRight = 24;
constexpr double kTop = 40;
constexpr double kBottom = 46;
constexpr double kBandWidthMin = 3;  // px: a 25-second drain in a six-hour run stays visible
constexpr double kCharWidth = 6.6;   // a 12 px system-ui character, roughly: for the legend layout

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
  Plot(const LineChart& chart, double y_top)
      : chart_(chart),
        y_top_(y_top),
        x0_(kLeft),
        x1_(chart.width - kRight),
        y0_(kTop),
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

double YTop(const LineChart& chart) {
  if (chart.y_max) return *chart.y_max;
  double top = 0;
  for (const Series& s : chart.series) {
    for (const double y : s.y) {
      if (std::isfinite(y)) top = std::max(top, y);
    }
  }
  if (chart.threshold) top = std::max(top, chart.threshold->y);
  return top > 0 ? NiceCeil(top, chart.y_integer) : 1;
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

void Bands(std::string& out, const LineChart& chart, const Plot& plot) {
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
  const std::vector<double> x_ticks = NiceTicks(chart.x_min / x_scale, chart.x_max / x_scale, 8);
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

void Markers(std::string& out, const LineChart& chart, const Plot& plot) {
  for (const Marker& marker : chart.markers) {
    if (marker.x < chart.x_min || marker.x > chart.x_max) continue;  // contract (6)
    const std::string x = Px(plot.X(marker.x));
    out += "<line class=\"marker\" x1=\"" + x + "\" y1=\"" + Px(plot.top()) + "\" x2=\"" + x +
           "\" y2=\"" + Px(plot.bottom()) + "\"" + Attr("stroke", marker.colour) +
           " stroke-dasharray=\"2 3\"><title>" + XmlEscape(marker.title) + "</title></line>";
    out += "<text class=\"marker-label\" x=\"" + Px(plot.X(marker.x) + 3) + "\" y=\"" +
           Px(plot.top() + 11) + "\" font-size=\"11\">" + XmlEscape(marker.label) + "</text>\n";
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

void Legend(std::string& out, const LineChart& chart) {
  double x = kLeft;
  const double y = 18;
  out += "<g class=\"legend\">";
  for (const Series& s : chart.series) {
    out += "<line x1=\"" + Px(x) + "\" y1=\"" + Px(y - 4) + "\" x2=\"" + Px(x + 18) + "\" y2=\"" +
           Px(y - 4) + "\"" + Attr("stroke", s.colour) + " stroke-width=\"2.5\"" +
           (s.dashed ? " stroke-dasharray=\"4 3\"" : "") + "/>";
    out += "<text x=\"" + Px(x + 22) + "\" y=\"" + Px(y) + "\">" + XmlEscape(s.label) + "</text>";
    x += 22 + kCharWidth * static_cast<double>(s.label.size()) + 16;
  }
  std::vector<std::string> seen;
  for (const Band& band : chart.bands) {
    if (band.legend.empty()) continue;
    if (std::find(seen.begin(), seen.end(), band.legend) != seen.end()) continue;
    seen.push_back(band.legend);
    out += "<rect x=\"" + Px(x) + "\" y=\"" + Px(y - 10) + "\" width=\"14\" height=\"12\"" +
           Attr("fill", band.colour) + " fill-opacity=\"0.35\"/>";
    out +=
        "<text x=\"" + Px(x + 18) + "\" y=\"" + Px(y) + "\">" + XmlEscape(band.legend) + "</text>";
    x += 18 + kCharWidth * static_cast<double>(band.legend.size()) + 16;
  }
  out += "</g>\n";
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

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
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
  const double y_top = YTop(chart);
  DRAINSIM_CHECK(y_top > 0);
  const Plot plot(chart, y_top);

  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\"" + Attr("data-chart", chart.name) +
                    " viewBox=\"0 0 " + std::to_string(chart.width) + " " +
                    std::to_string(chart.height) + "\" role=\"img\"" +
                    Attr("aria-label", chart.title) +
                    " font-family=\"system-ui, sans-serif\" font-size=\"12\" "
                    "fill=\"currentColor\">\n";
  out += "<title>" + XmlEscape(chart.title) + "</title>\n";
  Bands(out, chart, plot);
  Grid(out, chart, plot, y_top);
  Markers(out, chart, plot);
  for (const Series& s : chart.series) {
    DRAINSIM_CHECK(s.x.size() == s.y.size());
    const Points points = Downsample(s.x, s.y, chart.max_points);
    out += "<path class=\"series\"" + Attr("data-series", s.label) + " fill=\"none\"" +
           Attr("stroke", s.colour) +
           " stroke-width=\"1.6\" stroke-linejoin=\"round\" "
           "stroke-linecap=\"round\"" +
           (s.dashed ? " stroke-dasharray=\"5 3\"" : "") + Attr("d", PathData(plot, points)) +
           "/>\n";
  }
  Legend(out, chart);
  out += "</svg>";
  return out;
}

}  // namespace drainsim::reports::svg
