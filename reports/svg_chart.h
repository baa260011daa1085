// A line chart as one inline <svg> element: axes with ticks, labels and units, data series as
// paths, shaded x-ranges (fault windows, drains), vertical markers (instants) and an optional
// horizontal threshold (an alert). For the HTML report's charts over simulated time, and for any
// other x/y chart (a sweep: a figure against a drain rate).
//
// Nothing in the SVG fetches anything: no script, no image, no font, no link. Axes, ticks and
// text are drawn in currentColor, so the page's CSS decides how they read on a light or a dark
// background; series, bands and the threshold carry literal colours chosen to read on both.
//
// Contract:
//  (1) RenderLineChart is a pure, locale-independent function of its LineChart: the same chart
//      gives the same bytes. Coordinates are printed with one decimal.
//  (2) The <svg> carries data-chart="NAME"; every series is one <path class="series"
//      data-series="LABEL">, whose `d` is non-empty iff the series has a finite point.
//  (3) A series is drawn with at most LineChart::max_points points: longer ones are
//      down-sampled (DownsampleBy: the minimum and the maximum of each bucket, in order).
//  (4) Every text that came from outside (labels, titles) is XML-escaped.
//  (5) The y-range always holds the threshold, so its line is always drawn.
//  (6) Bands and markers are clipped to [x_min, x_max]: one wholly outside is not drawn, a band
//      straddling an edge is drawn up to it.
//  (7) With clip_spikes, when the largest value is more than kSpikeRatio times the 95th
//      percentile of the positive values, the y-range ends at a round number above twice that
//      percentile, the values above it are drawn at the top, and the peak is labelled with its
//      value and instant ("off scale") — one spike never flattens the rest into the axis.
//  (8) Every series' path carries data-max, its largest finite value (data units; "" when it has
//      none), so a reader or a test can tell an all-zero series from a missing line.
// Thread-safety: none needed; no state.
#pragma once

#include <cmath>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "reports/xml_escape.h"

namespace drainsim::reports::svg {

// How an axis is labelled: "simulated time (h)". A data value v is printed as v / scale.
struct Axis {
  std::string label;  // "simulated time"; "" prints no label
  std::string unit;   // "h"; "" prints no unit
  double scale = 1;   // data units per printed unit: 3600 for seconds shown in hours
};

// The axis for simulated time over [0, span_s]: seconds up to 20 minutes, minutes up to 3 hours,
// hours beyond (ticks then fall on whole minutes or hours).
Axis TimeAxis(double span_s);

// One line. Values are in data units (before Axis::scale).
struct Series {
  std::string label;      // the legend's text and the path's data-series
  std::string colour;     // a CSS colour literal, e.g. "#3b82f6"
  std::vector<double> x;  // non-decreasing
  std::vector<double> y;  // x.size() values; NaN: no value here (the line breaks)
  bool dashed = false;
};

// A shaded x-range, from the plot's top to its bottom. Bands with the same `legend` share one
// legend entry (the first one's colour).
struct Band {
  double from = 0;
  double until = 0;    // REQUIRES: from <= until; drawn at least 3 px wide
  std::string title;   // the tooltip: "db_slowdown x25, 7200-9000 s"
  std::string legend;  // "fault window"
  std::string colour;  // a CSS colour literal; drawn at low opacity
  std::string css_class = "band";
};

// A vertical line at an instant, labelled at the plot's top.
struct Marker {
  double x = 0;
  std::string label;  // short: "synthetic_failures"; "": no label (many strikes, one legend)
  std::string title;  // the tooltip
  std::string colour;
};

// A horizontal line across the plot, labelled at its right end.
struct Threshold {
  double y = 0;
  std::string label;  // "age alert 900 s"
  std::string colour;
};

struct LineChart {
  std::string name;   // data-chart attribute: "depth", "oldest-age"
  std::string title;  // the accessible title: "Queue depth"
  Axis x_axis;
  Axis y_axis;
  double x_min = 0;  // REQUIRES: x_min < x_max (both finite)
  double x_max = 1;
  // The top of the y-range when set (100 for a percentage); otherwise a round number at or above
  // every finite value and the threshold. The y-range starts at 0; values outside it are clipped.
  std::optional<double> y_max;
  bool y_integer = false;  // counts: no tick between integers
  std::vector<Series> series;
  std::vector<Band> bands;
  std::vector<Marker> markers;
  std::optional<Threshold> threshold;
  bool clip_spikes = false;  // contract (7)
  int width = 960;  // the viewBox; the page scales it
  int height = 280;
  int font_size = 12;  // viewBox units: every text of the chart
  size_t max_points = 2000;  // REQUIRES: >= 2
};

// How far above the 95th percentile a peak may reach before the y-range is clipped (7).
inline constexpr double kSpikeRatio = 10;

// The chart as one "<svg ...>...</svg>" element (no XML declaration), for inlining in HTML or
// saving as an .svg file.
std::string RenderLineChart(const LineChart& chart);

// Ticks at round steps (1, 2, 2.5 or 5 times a power of ten) covering [lo, hi], about `target`
// of them, every tick inside [lo, hi]. With `integer`, the step is at least 1.
// REQUIRES: lo < hi, target >= 1
std::vector<double> NiceTicks(double lo, double hi, int target, bool integer = false);

// The smallest round number (a multiple of a nice step) >= value. REQUIRES: value > 0
double NiceCeil(double value, bool integer = false);

// & < > " ' as entities (' as &#39;): safe in text and in double- or single-quoted
// attributes. The reports' one escaping function in its HTML flavour (reports/xml_escape.h).
inline std::string XmlEscape(std::string_view text) {
  return reports::XmlEscape(text, XmlFlavour::kHtml);
}

// A down-sampled series: at most max_points points.
struct Points {
  std::vector<double> x;
  std::vector<double> y;
};

// Down-samples the n points (x_at(i), y_at(i)), i in [0, n), to at most `max_points`: when n is
// larger, the indices are cut into max_points / 2 equal buckets and each keeps its minimum and its
// maximum finite y (in index order; one point when they coincide), or one NaN point when it holds
// none, so spikes survive and gaps stay visible. Deterministic; O(n); reads each point once.
// REQUIRES: max_points >= 2
template <typename XAt, typename YAt>
Points DownsampleBy(size_t n, XAt x_at, YAt y_at, size_t max_points) {
  Points out;
  if (n <= max_points) {
    out.x.reserve(n);
    out.y.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      out.x.push_back(x_at(i));
      out.y.push_back(y_at(i));
    }
    return out;
  }
  const size_t buckets = max_points / 2;
  out.x.reserve(2 * buckets);
  out.y.reserve(2 * buckets);
  for (size_t b = 0; b < buckets; ++b) {
    const size_t begin = b * n / buckets;
    const size_t end = (b + 1) * n / buckets;
    size_t lo = end;
    size_t hi = end;
    double lo_y = 0;
    double hi_y = 0;
    for (size_t i = begin; i < end; ++i) {
      const double y = y_at(i);
      if (!std::isfinite(y)) continue;
      if (lo == end || y < lo_y) lo = i, lo_y = y;
      if (hi == end || y > hi_y) hi = i, hi_y = y;
    }
    if (lo == end) {
      out.x.push_back(x_at(begin));
      out.y.push_back(std::nan(""));
      continue;
    }
    const size_t first = lo < hi ? lo : hi;
    const size_t second = lo < hi ? hi : lo;
    out.x.push_back(x_at(first));
    out.y.push_back(first == lo ? lo_y : hi_y);
    if (second != first) {
      out.x.push_back(x_at(second));
      out.y.push_back(second == lo ? lo_y : hi_y);
    }
  }
  return out;
}

// DownsampleBy over two arrays. REQUIRES: x.size() == y.size(), max_points >= 2
Points Downsample(std::span<const double> x, std::span<const double> y, size_t max_points);

}  // namespace drainsim::reports::svg
