// The SVG line chart on its own: ticks, the time axis, escaping, down-sampling (bound, spikes,
// gaps, determinism) and the rendered element (well-formed, one path per series, bands,
// markers, the threshold always in range).
#include "reports/svg_chart.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "tests/reports/mini_xml.h"

namespace drainsim::testing {
namespace svg_chart_test {
namespace {

namespace svg = reports::svg;

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

size_t CountOf(const std::string& haystack, const std::string& needle) {
  size_t count = 0;
  for (size_t at = haystack.find(needle); at != std::string::npos;
       at = haystack.find(needle, at + needle.size())) {
    ++count;
  }
  return count;
}

// The number of points a path's d draws: "M1 2L3 4 5 6" is three.
size_t PointsIn(const std::string& d) {
  size_t numbers = 0;
  bool in_number = false;
  for (size_t i = 0; i < d.size(); ++i) {
    const char c = d[i];
    if (c == 'h') {  // "h0": a dot, no new point
      ++i;
      in_number = false;
      continue;
    }
    const bool digit = (c >= '0' && c <= '9') || c == '.' || c == '-';
    if (digit && !in_number) ++numbers;
    in_number = digit;
  }
  return numbers / 2;
}

svg::LineChart TwoSeriesChart() {
  svg::LineChart chart;
  chart.name = "depth";
  chart.title = "Queue depth";
  chart.x_axis = svg::TimeAxis(100);
  chart.y_axis = {"messages", ""};
  chart.x_max = 100;
  chart.y_integer = true;
  svg::Series ready{"ready", "#3b82f6", {0, 50, 100}, {0, 7, 3}};
  svg::Series dlq{"DLQ", "#c026d3", {0, 50, 100}, {1, 1, 0}};
  chart.series = {ready, dlq};
  chart.bands.push_back({20, 30, "db_slowdown x25", "fault window", "#ef4444", "band fault"});
  chart.bands.push_back({40, 40.01, "drain 0", "drain", "#22c55e", "band drain"});
  chart.markers.push_back({10, "synthetic_failures", "from 10 s", "#ef4444"});
  return chart;
}

TEST_CASE("svg: nice ticks and the time axis", "[reports][svg]") {
  CHECK(svg::NiceTicks(0, 60, 5) == std::vector<double>{0, 20, 40, 60});
  CHECK(svg::NiceTicks(0, 6, 8) == std::vector<double>{0, 1, 2, 3, 4, 5, 6});
  CHECK(svg::NiceTicks(0, 1, 5, true) == std::vector<double>{0, 1});
  CHECK(svg::NiceTicks(0, 100, 5) == std::vector<double>{0, 20, 40, 60, 80, 100});
  const std::vector<double> ticks = svg::NiceTicks(0.05, 0.95, 4);
  REQUIRE_FALSE(ticks.empty());
  CHECK(ticks.front() >= 0.05);
  CHECK(ticks.back() <= 0.95);
  CHECK(svg::NiceCeil(59.7) == 60);
  CHECK(svg::NiceCeil(900) == 1000);
  CHECK(svg::NiceCeil(0.4, true) == 1);
  CHECK(svg::TimeAxis(600).unit == "s");
  CHECK(svg::TimeAxis(3600).unit == "min");
  CHECK(svg::TimeAxis(3600).scale == 60);
  CHECK(svg::TimeAxis(21600).unit == "h");
  CHECK(svg::TimeAxis(21600).scale == 3600);
}

TEST_CASE("svg: escaping", "[reports][svg]") {
  CHECK(svg::XmlEscape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;");
  CHECK(svg::XmlEscape("plain") == "plain");
}

TEST_CASE("svg: down-sampling keeps at most max_points, spikes and gaps", "[reports][svg]") {
  SECTION("short series pass unchanged") {
    const std::vector<double> x = {0, 1, 2};
    const std::vector<double> y = {5, std::nan(""), 7};
    const svg::Points p = svg::Downsample(x, y, 10);
    CHECK(p.x == x);
    CHECK(p.y[0] == 5);
    CHECK(std::isnan(p.y[1]));
  }
  SECTION("ten million points become at most 2000, the spike and the dip survive") {
    const size_t n = 10'000'000;
    auto y_at = [](size_t i) {
      if (i == 7'654'321) return 1e6;
      if (i == 1'234'567) return -5.0;
      return static_cast<double>(i % 7);
    };
    auto x_at = [](size_t i) { return static_cast<double>(i); };
    const svg::Points p = svg::DownsampleBy(n, x_at, y_at, 2000);
    REQUIRE(p.x.size() == p.y.size());
    CHECK(p.x.size() <= 2000);
    CHECK(p.x.size() >= 1000);
    double max = -1e300;
    double min = 1e300;
    for (size_t i = 0; i < p.y.size(); ++i) {
      max = std::max(max, p.y[i]);
      min = std::min(min, p.y[i]);
      if (i > 0) CHECK(p.x[i] >= p.x[i - 1]);
    }
    CHECK(max == 1e6);
    CHECK(min == -5.0);
    const svg::Points again = svg::DownsampleBy(n, x_at, y_at, 2000);
    CHECK(again.x == p.x);
    CHECK(again.y == p.y);
  }
  SECTION("a bucket without any value stays a gap") {
    std::vector<double> x(10000);
    std::vector<double> y(10000, 1.0);
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i);
    for (size_t i = 4000; i < 6000; ++i) y[i] = std::nan("");
    const svg::Points p = svg::Downsample(x, y, 100);
    CHECK(p.x.size() <= 100);
    size_t gaps = 0;
    for (const double v : p.y) gaps += std::isnan(v) ? 1 : 0;
    CHECK(gaps >= 5);
  }
}

TEST_CASE("svg: the chart element", "[reports][svg]") {
  const svg::LineChart chart = TwoSeriesChart();
  const std::string text = svg::RenderLineChart(chart);
  const xml::Document doc = xml::Parse(text);
  INFO(doc.error);
  REQUIRE(doc.error.empty());
  CHECK(doc.root->name == "svg");
  CHECK(doc.root->Attr("data-chart") == "depth");
  CHECK(doc.root->Attr("xmlns") == "http://www.w3.org/2000/svg");
  const auto paths = doc.root->Children("path");
  REQUIRE(paths.size() == 2);
  for (const auto* path : paths) {
    CHECK(path->Attr("class") == "series");
    CHECK_FALSE(path->Attr("d").empty());
    CHECK(PointsIn(path->Attr("d")) == 3);
  }
  CHECK(paths[0]->Attr("data-series") == "ready");
  CHECK(Contains(text, "simulated time (s)"));
  CHECK(Contains(text, ">messages<"));
  CHECK(CountOf(text, "class=\"band fault\"") == 1);
  CHECK(CountOf(text, "class=\"band drain\"") == 1);
  CHECK(CountOf(text, "class=\"marker\"") == 1);
  CHECK_FALSE(Contains(text, "class=\"threshold\""));
  // Axes and text follow the page's colour; only data, bands and alerts carry their own.
  CHECK(Contains(text, "fill=\"currentColor\""));
  CHECK(Contains(text, "stroke=\"currentColor\""));
  CHECK(text == svg::RenderLineChart(chart));
}

TEST_CASE("svg: a threshold above every value stays in range", "[reports][svg]") {
  svg::LineChart chart = TwoSeriesChart();
  chart.threshold = svg::Threshold{900, "age alert 900 s", "#ea580c"};
  const std::string text = svg::RenderLineChart(chart);
  REQUIRE(xml::Parse(text).error.empty());
  CHECK(CountOf(text, "class=\"threshold\"") == 1);
  CHECK(Contains(text, ">1000<"));  // the y-range's top tick: the alert fits under it
  CHECK(Contains(text, "age alert 900 s"));
}

TEST_CASE("svg: empty, gapped and lone-point series", "[reports][svg]") {
  svg::LineChart chart = TwoSeriesChart();
  chart.series[0].x.clear();
  chart.series[0].y.clear();
  chart.series[1].y = {std::nan(""), 4, std::nan("")};
  const xml::Document doc = xml::Parse(svg::RenderLineChart(chart));
  REQUIRE(doc.error.empty());
  const auto paths = doc.root->Children("path");
  REQUIRE(paths.size() == 2);
  CHECK(paths[0]->Attr("d").empty());
  const std::string lone = paths[1]->Attr("d");
  CHECK(lone.front() == 'M');
  CHECK(lone.substr(lone.size() - 2) == "h0");
}

TEST_CASE("svg: text from outside is escaped", "[reports][svg]") {
  svg::LineChart chart = TwoSeriesChart();
  chart.name = "a\"b";
  chart.title = "<script>alert(1)</script>";
  chart.series[0].label = "x & <y>";
  chart.bands[0].title = "'quoted' <band>";
  const std::string text = svg::RenderLineChart(chart);
  const xml::Document doc = xml::Parse(text);
  INFO(doc.error);
  REQUIRE(doc.error.empty());
  CHECK(doc.root->Attr("data-chart") == "a\"b");
  CHECK_FALSE(Contains(text, "<script"));
  CHECK(Contains(text, "&lt;script&gt;"));
  CHECK(doc.root->Children("path")[0]->Attr("data-series") == "x & <y>");
}

TEST_CASE("svg: a long series is drawn with at most max_points points", "[reports][svg]") {
  svg::LineChart chart = TwoSeriesChart();
  const size_t n = 100'000;
  chart.x_max = static_cast<double>(n);
  chart.max_points = 500;
  chart.series.resize(1);
  chart.series[0].x.resize(n);
  chart.series[0].y.resize(n);
  for (size_t i = 0; i < n; ++i) {
    chart.series[0].x[i] = static_cast<double>(i);
    chart.series[0].y[i] = static_cast<double>((i * 7919) % 1000);
  }
  const xml::Document doc = xml::Parse(svg::RenderLineChart(chart));
  REQUIRE(doc.error.empty());
  const std::string d = doc.root->Children("path")[0]->Attr("d");
  CHECK(PointsIn(d) <= 500);
  CHECK(PointsIn(d) > 10);
}

}  // namespace
}  // namespace svg_chart_test
}  // namespace drainsim::testing

namespace drainsim::testing {
namespace svg_chart_test {
namespace {

svg::LineChart SpikeChart(bool clip) {
  svg::LineChart chart;
  chart.name = "dlq-flow";
  chart.title = "DLQ inflow and outflow";
  chart.x_axis = svg::TimeAxis(100);
  chart.y_axis = {"DLQ flow", "messages/s"};
  chart.x_max = 100;
  chart.clip_spikes = clip;
  svg::Series flow{"outflow", "#0d9488", {}, {}};
  for (int i = 0; i <= 100; ++i) {
    flow.x.push_back(i);
    flow.y.push_back(i == 70 ? 5000 : 1 + i % 5);  // 1..5, one replay burst of 5000/s
  }
  chart.series = {flow};
  return chart;
}

// Regression (issue 13): a 5000/s outflow spike flattened the refills of 1-5/s into the axis.
TEST_CASE("svg: a lone spike is clipped and labelled, the rest keeps its scale", "[reports][svg]") {
  const std::string clipped = svg::RenderLineChart(SpikeChart(true));
  REQUIRE(xml::Parse(clipped).error.empty());
  CHECK(Contains(clipped, "off scale: peak 5000 messages/s at 70 s"));
  CHECK(Contains(clipped, "class=\"peak\""));
  CHECK(Contains(clipped, ">10<"));     // the y-range's top: a round number above 2 x p95 (5)
  CHECK_FALSE(Contains(clipped, ">5000<"));
  CHECK(Contains(clipped, "data-max=\"5000\""));  // the data keep the spike

  const std::string plain = svg::RenderLineChart(SpikeChart(false));
  CHECK_FALSE(Contains(plain, "off scale"));
  CHECK(Contains(plain, ">5000<"));

  // No spike, nothing clipped: a ramp whose maximum is under 10 x its 95th percentile.
  svg::LineChart ramp = SpikeChart(true);
  ramp.series[0].y[70] = 5;
  CHECK_FALSE(Contains(svg::RenderLineChart(ramp), "off scale"));
}

TEST_CASE("svg: each path says its largest value, and an unlabelled marker draws no text",
          "[reports][svg]") {
  svg::LineChart chart = TwoSeriesChart();
  chart.series.push_back({"parked", "#0d9488", {}, {}});
  chart.markers.push_back({60, "", "worker crash at 60 s", "#ef4444"});
  const std::string text = svg::RenderLineChart(chart);
  const xml::Document doc = xml::Parse(text);
  REQUIRE(doc.error.empty());
  const auto paths = doc.root->Children("path");
  REQUIRE(paths.size() == 3);
  CHECK(paths[0]->Attr("data-max") == "7");
  CHECK(paths[1]->Attr("data-max") == "1");
  CHECK(paths[2]->Attr("data-max").empty());
  CHECK(CountOf(text, "class=\"marker\"") == 2);
  CHECK(CountOf(text, "class=\"marker-label\"") == 1);
  CHECK(Contains(text, "worker crash at 60 s"));
}

TEST_CASE("svg: a narrow chart wraps its legend inside its width", "[reports][svg]") {
  svg::LineChart chart = TwoSeriesChart();
  chart.width = 360;
  chart.font_size = 13;
  chart.series.push_back({"queries waiting", "#d97706", {0, 100}, {0, 2}});
  chart.series.push_back({"worker slots busy", "#0d9488", {0, 100}, {1, 2}});
  const std::string text = svg::RenderLineChart(chart);
  const xml::Document doc = xml::Parse(text);
  REQUIRE(doc.error.empty());
  CHECK(Contains(text, "font-size=\"13\""));
  CHECK(Contains(text, "viewBox=\"0 0 360 280\""));
  // The legend's texts: more than one line, every one starting inside the chart.
  const std::string legend = text.substr(text.find("<g class=\"legend\">"));
  std::vector<std::string> ys;
  for (size_t at = legend.find("<text x=\""); at != std::string::npos;
       at = legend.find("<text x=\"", at + 1)) {
    const double x = std::stod(legend.substr(at + 9));
    CHECK(x < 360 - 24);
    const size_t y_at = legend.find("y=\"", at) + 3;
    const std::string y = legend.substr(y_at, legend.find('"', y_at) - y_at);
    if (std::find(ys.begin(), ys.end(), y) == ys.end()) ys.push_back(y);
  }
  CHECK(ys.size() >= 2);
}

}  // namespace
}  // namespace svg_chart_test
}  // namespace drainsim::testing
