// The charts' data for report.html's interactive layer (reports/chart_data.h), on hand-made
// Results: report.json's numbers, aligned rows, gaps as null, spikes kept by the down-sampling,
// text safe inside a <script>, the same bytes for the same run.
#include "reports/chart_data.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "reports/html_charts.h"
#include "reports/json_report.h"
#include "reports/metrics.h"
#include "tests/reports/report_fixture.h"

namespace drainsim::testing {
namespace chart_data_test {
namespace {

using nlohmann::json;

reports::ReportInput Input(const model::Results& results, const reports::ReportContext& context) {
  // ReportInput holds its verdicts by reference: a braced {} here would dangle (ASan caught it).
  static const std::vector<reports::Verdict> kNoVerdicts;
  return reports::ReportInput{results, context, kNoVerdicts, "drainsim run fixture.json --seed 42"};
}

struct Fixture {
  model::Results results = FixtureResults();
  reports::ReportContext context{"scenarios/fixture.json", "00000000deadbeef", "0.1.0"};

  json Data(size_t max_points = 2000) const {
    const reports::ReportInput input = Input(results, context);
    const reports::RunCharts charts = reports::ChartsOf(input, max_points);
    return json::parse(reports::ChartDataJson(charts, results.series, max_points));
  }
};

const json& ChartNamed(const json& data, const std::string& name) {
  for (const json& chart : data.at("charts")) {
    if (chart.at("name") == name) return chart;
  }
  FAIL("no chart " << name);
  static const json kNone;
  return kNone;
}

TEST_CASE("chart data: one chart per figure, report.json's numbers in aligned rows",
          "[reports][html][chart-data]") {
  const Fixture f;
  const json data = f.Data();
  CHECK(data.at("format") == 1);
  const reports::RunCharts charts = reports::ChartsOf(Input(f.results, f.context));
  REQUIRE(data.at("charts").size() == charts.figures.size());
  // report.json's series, as a reader of it would see them.
  const json report = json::parse(reports::JsonReport(Input(f.results, f.context)));
  const json& series = report.at("series");
  for (size_t c = 0; c < charts.figures.size(); ++c) {
    const reports::ChartFigure& figure = charts.figures[c];
    const json& chart = data.at("charts").at(c);
    INFO(figure.chart.name);
    CHECK(chart.at("name") == figure.chart.name);
    CHECK(chart.at("title") == figure.chart.title);
    const json& rows = chart.at("data");
    REQUIRE(rows.size() == 1 + figure.chart.series.size());
    CHECK(rows.at(0) == series.at("t_s"));  // 11 samples <= max_points: every one
    for (size_t k = 0; k < figure.sources.size(); ++k) {
      const json& s = chart.at("series").at(k);
      const std::string column = s.at("column");
      const double factor = s.at("factor");
      INFO(column);
      CHECK(s.at("label") == figure.chart.series[k].label);
      CHECK(s.at("decimals") == (series.at(column).at(0).is_number_integer() ? 0 : 3));
      REQUIRE(rows.at(1 + k).size() == rows.at(0).size());
      for (size_t i = 0; i < rows.at(0).size(); ++i) {
        const json& value = rows.at(1 + k).at(i);
        if (value.is_null()) continue;  // a gap: checked below
        CHECK(value.get<double>() == series.at(column).at(i).get<double>() * factor);
      }
    }
  }
}

TEST_CASE("chart data: gaps are null where the SVG breaks its line",
          "[reports][html][chart-data]") {
  const json data = Fixture().Data();
  // Over an interval: the sample at t = 0 closes none.
  CHECK(ChartNamed(data, "dlq-flow").at("data").at(1).at(0).is_null());
  CHECK(ChartNamed(data, "dlq-flow").at("data").at(1).at(3) == 0.5);
  // The live latencies: 0 means no query completed (t = 70).
  const json& p99 = ChartNamed(data, "live-latency").at("data").at(2);
  CHECK(p99.at(7).is_null());
  CHECK(p99.at(6) == 16);
  // A state at an instant: t = 0 is a value like any other.
  CHECK(ChartNamed(data, "depth").at("data").at(1).at(0) == 0);
  // db utilisation drawn in %: report.json's share times 100.
  const json& utilisation = ChartNamed(data, "db-utilisation");
  CHECK(utilisation.at("series").at(0).at("factor") == 100);
  CHECK(utilisation.at("y").at("max") == 100);
  CHECK(utilisation.at("data").at(1).at(5).get<double>() == Approx(50));
}

TEST_CASE("chart data: bands, markers and the threshold as the SVG has them",
          "[reports][html][chart-data]") {
  const json data = Fixture().Data();
  const json& depth = ChartNamed(data, "depth");
  REQUIRE(depth.at("bands").size() == 2);  // the fault window (t = 20..30) and the drain
  CHECK(depth.at("bands").at(0).at("from") == 20);
  CHECK(depth.at("bands").at(0).at("until") == 30);
  CHECK(depth.at("bands").at(0).at("legend") == "fault window");
  CHECK(depth.at("bands").at(1).at("legend") == "drain");
  CHECK(depth.at("x").at("unit") == "s");
  CHECK(depth.at("y").at("integer") == true);
  CHECK(depth.at("threshold").is_null());
}

TEST_CASE("chart data: a long run keeps at most max_points rows per chart, spikes included",
          "[reports][html][chart-data]") {
  Fixture f;
  const model::Sample pattern = f.results.series[5];
  f.results.series.clear();
  const size_t n = 100'000;
  const size_t spike_at = 77'777;
  for (size_t i = 0; i < n; ++i) {
    model::Sample s = pattern;
    s.t_s = static_cast<double>(i);
    s.depth = static_cast<int64_t>((i * 7919) % 1000);
    s.dlq_depth = i == spike_at ? 1'000'000 : 3;
    f.results.series.push_back(s);
  }
  f.results.ended_at_s = static_cast<double>(n - 1);
  for (const size_t max_points : {size_t{2000}, size_t{100}}) {
    INFO("max_points " << max_points);
    const json data = f.Data(max_points);
    for (const json& chart : data.at("charts")) {
      INFO(chart.at("name"));
      const json& t = chart.at("data").at(0);
      CHECK(t.size() <= max_points);
      CHECK(t.size() >= 2);
      for (size_t i = 1; i < t.size(); ++i) CHECK(t.at(i).get<double>() > t.at(i - 1));
    }
    const json& depth = ChartNamed(data, "depth");
    bool spike_kept = false;
    for (size_t i = 0; i < depth.at("data").at(0).size(); ++i) {
      if (depth.at("data").at(0).at(i) == static_cast<double>(spike_at)) {
        spike_kept = depth.at("data").at(3).at(i) == 1'000'000;  // series 2: the DLQ
      }
    }
    CHECK(spike_kept);
  }
}

TEST_CASE("chart data: KeptSamples keeps every sample up to max_points, then buckets",
          "[reports][html][chart-data]") {
  std::vector<model::Sample> samples(10);
  for (size_t i = 0; i < samples.size(); ++i) samples[i].t_s = static_cast<double>(i);
  const std::vector<reports::SeriesSource> one = {{"depth", 1, false}};
  CHECK(reports::KeptSamples(one, samples, 10).size() == 10);
  CHECK(reports::KeptSamples(one, samples, 4) == std::vector<size_t>{0, 5});  // all equal: 2
  samples[7].depth = 9;
  samples[2].depth = -1;
  CHECK(reports::KeptSamples(one, samples, 4) == std::vector<size_t>{0, 2, 5, 7});
  // Two series and max_points 4: one bucket, each series' minimum and maximum.
  const std::vector<reports::SeriesSource> two = {{"depth", 1, false}, {"parked", 1, false}};
  samples[9].parked = 4;
  CHECK(reports::KeptSamples(two, samples, 4) == std::vector<size_t>{0, 2, 7, 9});
}

TEST_CASE("chart data: text from the scenario cannot end the script",
          "[reports][html][chart-data]") {
  Fixture f;
  f.context.marks.from_scenario = true;
  f.context.marks.faults.push_back({"synthetic_failures", "</script><b>&amp;", 40, 50});
  const reports::ReportInput input = Input(f.results, f.context);
  const reports::RunCharts charts = reports::ChartsOf(input);
  const std::string text = reports::ChartDataJson(charts, f.results.series, 2000);
  CHECK(text.find('<') == std::string::npos);
  CHECK(text.find('>') == std::string::npos);
  CHECK(text.find('&') == std::string::npos);
  const json data = json::parse(text);
  const std::string title = ChartNamed(data, "depth").at("bands").at(0).at("title");
  CHECK(title.find("</script><b>&amp;") != std::string::npos);
}

TEST_CASE("chart data: the same run gives the same bytes", "[reports][html][chart-data]") {
  const Fixture a;
  Fixture b;
  const auto text = [](const Fixture& f) {
    const reports::ReportInput input = Input(f.results, f.context);
    return reports::ChartDataJson(reports::ChartsOf(input), f.results.series, 2000);
  };
  CHECK(text(a) == text(b));
  b.results.series[4].depth = 77;
  CHECK(text(a) != text(b));
}

}  // namespace
}  // namespace chart_data_test
}  // namespace drainsim::testing
