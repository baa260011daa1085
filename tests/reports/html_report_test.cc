// report.html on hand-made Results: well-formed (strict XML after the doctype), self-contained,
// one chart per metric the run has, each with data; fault windows, drains and the age alert;
// escaping, determinism and the down-sampling bound.
#include "reports/html_report.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "reports/chart_data.h"
#include "reports/expectations.h"
#include "reports/formats.h"
#include "reports/html_charts.h"
#include "reports/html_interactive.h"
#include "reports/markdown_report.h"
#include "reports/scenario_marks.h"
#include "tests/reports/mini_xml.h"
#include "tests/reports/report_fixture.h"

namespace drainsim::testing {
namespace html_report_test {
namespace {

using config::RunMetric;

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

struct Page {
  model::Results results = FixtureResults();
  reports::ReportContext context{"scenarios/fixture.json", "00000000deadbeef",
                                 "0.1.0 (commit test)"};
  std::vector<reports::Verdict> verdicts;

  Page() {
    verdicts = reports::EvaluateExpectations(
        results, {Metric(RunMetric::kTimeToEmpty, Max(1800)), Metric(RunMetric::kLost, Max(0)),
                  Metric(RunMetric::kHumanNeeded, Max(0))});
  }
  std::string Html(size_t max_points = 2000) const {
    const reports::ReportInput input{results, context, verdicts,
                                     reports::ReproduceCommand(context.scenario_path, 42)};
    return reports::HtmlReport(input, max_points);
  }
};

// The page parsed strictly: everything after the doctype line is XML.
xml::Document ParsePage(const std::string& html) {
  const std::string doctype = "<!DOCTYPE html>\n";
  REQUIRE(html.compare(0, doctype.size(), doctype) == 0);
  return xml::Parse(html.substr(doctype.size()));
}

void Walk(const xml::Element& e, const std::function<void(const xml::Element&)>& visit) {
  visit(e);
  for (const auto& child : e.children) Walk(*child, visit);
}

std::vector<const xml::Element*> Charts(const xml::Element& root) {
  std::vector<const xml::Element*> charts;
  Walk(root, [&](const xml::Element& e) {
    if (e.name == "svg" && e.Has("data-chart")) charts.push_back(&e);
  });
  return charts;
}

std::vector<std::string> ChartNames(const xml::Element& root) {
  std::vector<std::string> names;
  for (const auto* chart : Charts(root)) names.push_back(chart->Attr("data-chart"));
  return names;
}

std::vector<std::string> Twice(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const std::string& name : names) out.insert(out.end(), {name, name});
  return out;
}

// The page with every <script> element's content removed (its tags stay).
std::string WithoutScripts(std::string html) {
  for (size_t at = html.find("<script"); at != std::string::npos; at = html.find("<script", at)) {
    const size_t open_end = html.find('>', at);
    const size_t close = html.find("</script>", open_end);
    REQUIRE(close != std::string::npos);
    html.erase(open_end + 1, close - open_end - 1);
    at = open_end;
  }
  return html;
}

size_t PointsIn(const std::string& d) {
  size_t numbers = 0;
  bool in_number = false;
  for (size_t i = 0; i < d.size(); ++i) {
    if (d[i] == 'h') {
      ++i;
      in_number = false;
      continue;
    }
    const bool digit = (d[i] >= '0' && d[i] <= '9') || d[i] == '.';
    if (digit && !in_number) ++numbers;
    in_number = digit;
  }
  return numbers / 2;
}

TEST_CASE("html: the registry writes report.html", "[reports][html]") {
  const reports::Format* html = reports::FindFormat("html");
  REQUIRE(html != nullptr);
  CHECK(html->file_name == "report.html");
  CHECK(reports::ParseFormatList("json,md,html,csv,junit").ok());
}

TEST_CASE("html: well-formed, self-contained, one chart per metric with data", "[reports][html]") {
  const Page page;
  const std::string html = page.Html();
  const xml::Document doc = ParsePage(html);
  INFO(doc.error);
  REQUIRE(doc.error.empty());
  CHECK(doc.root->name == "html");
  CHECK(CountOf(html, "<svg") == CountOf(html, "</svg>"));

  // No URL a browser would fetch: the SVG namespace is the only "http" in the page outside its
  // scripts, and the scripts (the interactive layer, when built in) have no src.
  std::string stripped = WithoutScripts(html);
  const std::string xmlns = "xmlns=\"http://www.w3.org/2000/svg\"";
  for (size_t at; (at = stripped.find(xmlns)) != std::string::npos;)
    stripped.erase(at, xmlns.size());
  for (const char* banned : {"http://", "https://", "<link", "<img", "<iframe", "<object", "url(",
                             "@import", " src=", " href="}) {
    INFO(banned);
    CHECK_FALSE(Contains(stripped, banned));
  }
  CHECK(CountOf(html, "<script") == (reports::InteractiveBuiltIn() ? 2 : 0));
  CHECK(CountOf(html, "<script") == CountOf(stripped, "<script></script>") +
                                        CountOf(stripped, "<script type=\"application/json\""));
  CHECK(Contains(html, "prefers-color-scheme:dark"));

  // Each chart twice: the wide drawing and the narrow one (phones), in that order.
  CHECK(ChartNames(*doc.root) == Twice({"depth", "oldest-age", "attempts", "busy", "db-utilisation",
                                        "live-latency", "live-errors", "dlq-flow", "drain-rate"}));
  for (const auto* chart : Charts(*doc.root)) {
    INFO(chart->Attr("data-chart"));
    const auto paths = chart->Children("path");
    REQUIRE_FALSE(paths.empty());
    for (const auto* path : paths) {
      CHECK(path->Attr("class") == "series");
      CHECK_FALSE(path->Attr("d").empty());
    }
  }
  // Units on the axes.
  for (const char* label :
       {"simulated time (s)", "oldest message age (s)", "database utilisation (%)",
        "live query latency (ms)", "DLQ flow (messages/s)", "drain rate (messages/s)"}) {
    INFO(label);
    CHECK(Contains(html, label));
  }
}

TEST_CASE("html: the headline panel and the verdicts", "[reports][html]") {
  const Page page;
  const std::string html = page.Html();
  CHECK(Contains(html, "<h1>drainsim: fixture</h1>"));
  CHECK(Contains(html, ">42<"));       // seed
  CHECK(Contains(html, ">24.95 s<"));  // time to empty
  CHECK(Contains(html, ">3<"));        // duplicate executions
  CHECK(Contains(html, ">10<"));       // human needed
  CHECK(Contains(html, "parked:drain=4"));
  CHECK(Contains(html, ">FAIL<"));
  CHECK(Contains(html, "1 of 3 failed"));
  CHECK(Contains(html, "drainsim run scenarios/fixture.json --seed 42"));
  CHECK(CountOf(html, "<span class=\"pass\">PASS</span>") == 2);
  CHECK(CountOf(html, "<span class=\"fail\">FAIL</span>") == 1);
}

// The platform figures are one set of phrases (reports/headline.h): the HTML cards and the
// Markdown rows say the same numbers, and a feature the run does not use has no card.
TEST_CASE("html: the platform's cards match the Markdown rows", "[reports][html]") {
  Page page;
  CHECK(!Contains(page.Html(), "rebalances"));
  CHECK(!Contains(page.Html(), "Partition lag"));
  page.results.partitions = 8;
  page.results.rebalances = 3;
  page.results.group_hold_max_s = 12.5;
  page.results.ordering_violations = 2;
  page.results.lambda_esm = true;
  page.results.throttles = 17;
  page.results.dead_lettered_unprocessed = 4;
  page.results.esm_pollers_end = 5;
  page.results.dead_letter_waiting_end = 6;
  const std::string html = page.Html();
  CHECK(Contains(html, ">8 partitions<"));
  CHECK(Contains(html, "Partition lag"));  // the chart: the largest lag and partitions 0-2
  CHECK(Contains(html, ">3 rebalances; longest hold 12.5 s; 2 ordering violations<"));
  CHECK(Contains(html, ">17 throttled receives<"));
  CHECK(Contains(html, ">4 dead-lettered without being processed; 5 pollers at the end<"));
  CHECK(Contains(html, ">waiting for DLQ room<"));
  CHECK(Contains(html, ">of the unfinished (at-least-once dead-lettering)<"));
  const reports::ReportInput input{page.results, page.context, page.verdicts,
                                   reports::ReproduceCommand(page.context.scenario_path, 42)};
  const std::string md = reports::MarkdownReport(input);
  CHECK(Contains(md,
                 "| partitions | 8 partitions; 3 rebalances; longest hold 12.5 s; "
                 "2 ordering violations |"));
  CHECK(Contains(md,
                 "| Lambda event-source mapping | 17 throttled receives; 4 dead-lettered "
                 "without being processed; 5 pollers at the end |"));
  CHECK(Contains(md,
                 "| waiting for DLQ room | 6 of the unfinished (at-least-once "
                 "dead-lettering) |"));
}

TEST_CASE("html: charts follow what the run has", "[reports][html]") {
  Page page;
  page.results.has_database = false;
  page.results.has_live_traffic = false;
  page.results.drains.clear();
  const xml::Document doc = ParsePage(page.Html());
  REQUIRE(doc.error.empty());
  CHECK(ChartNames(*doc.root) == Twice({"depth", "oldest-age", "attempts", "busy", "dlq-flow"}));

  page.results.series.clear();
  const std::string empty = page.Html();
  REQUIRE(ParsePage(empty).error.empty());
  CHECK_FALSE(Contains(empty, "data-chart"));
  CHECK(Contains(empty, "no samples"));
}

TEST_CASE("html: fault windows, drains and the age alert", "[reports][html]") {
  SECTION("without the scenario: fault windows from the samples' flags, no alert line") {
    const std::string html = Page().Html();
    // t = 20..30, on each of the nine charts, each drawn twice (wide and narrow)
    CHECK(CountOf(html, "class=\"band fault\"") == 18);
    CHECK(CountOf(html, "class=\"band drain\"") == 18);
    CHECK(CountOf(html, "class=\"threshold\"") == 0);
  }
  SECTION("with the scenario: its windows, instants and the alert") {
    config::Scenario s;
    s.run.until = engine::Instant::Micros(100'000'000);
    s.alerts.oldest_age = engine::Duration::Seconds(30);
    config::DbSlowdownFault slowdown;
    slowdown.window = {engine::Instant::Micros(50'000'000), engine::Instant::Micros(60'000'000)};
    slowdown.factor = 25;
    config::AckLossFault loss;
    loss.probability = 0.001;
    loss.window = {engine::Instant::Zero(), s.run.until};
    config::SyntheticFailuresFault synthetic;
    synthetic.kind = "purge";
    synthetic.count = 5;
    synthetic.from = engine::Instant::Micros(10'000'000);
    s.faults = {slowdown, loss, synthetic};

    const reports::ScenarioMarks marks = reports::ScenarioMarksOf(s);
    CHECK(marks.from_scenario);
    CHECK(marks.age_alert_s == 30);
    REQUIRE(marks.faults.size() == 3);
    CHECK(marks.faults[0].type == "db_slowdown");
    CHECK(marks.faults[0].detail == "x25");
    CHECK(marks.faults[0].from_s == 50);
    CHECK(marks.faults[0].until_s == 60);
    CHECK(marks.faults[1].until_s == 100);
    CHECK(marks.faults[2].type == "synthetic_failures");
    CHECK(marks.faults[2].from_s == 10);
    CHECK_FALSE(marks.faults[2].until_s.has_value());

    Page page;
    page.context.marks = marks;
    const std::string html = page.Html();
    REQUIRE(ParsePage(html).error.empty());
    CHECK(CountOf(html, "class=\"band fault\"") ==
          18);  // the slowdown only: ack_loss is everywhere
    // In the SVG drawings (the interactive layer's data, when built in, names it once more).
    CHECK(CountOf(WithoutScripts(html), "db_slowdown (x25), 50 s to 60 s") == 18);
    CHECK(CountOf(html, "class=\"marker\"") == 18);  // synthetic failures from 10 s
    CHECK(Contains(html, "Not shaded, since active the whole run: ack_loss (p=0.001)"));
    CHECK(CountOf(html, "class=\"threshold\"") == 2);  // the age chart, wide and narrow
    CHECK(Contains(html, "age alert 30 s"));
    CHECK(Contains(html, "it first fired at 30 s"));
    CHECK(Contains(html, "<h2>Faults</h2>"));
  }
}

TEST_CASE("a broker restart's mark spans its downtime and recovery", "[reports][html]") {
  config::BrokerRestartFault plain, recovering, instant;
  plain.at = recovering.at = instant.at = engine::Instant::Micros(5'000'000);
  plain.downtime = recovering.downtime = engine::Duration::Seconds(2);
  recovering.recovery = engine::Duration::Millis(1500);
  config::Scenario s;
  s.run.until = engine::Instant::Micros(100'000'000);
  s.faults = {plain, recovering, instant};
  const reports::ScenarioMarks marks = reports::ScenarioMarksOf(s);
  REQUIRE(marks.faults.size() == 3);
  CHECK(marks.faults[0].until_s == 7);
  CHECK(marks.faults[0].detail == "2 s down");
  CHECK(marks.faults[1].until_s == 8.5);
  CHECK(marks.faults[1].detail == "2 s down + 1.5 s recovery");
  CHECK_FALSE(marks.faults[2].until_s.has_value());
}

TEST_CASE("html: a scenario name full of HTML's special characters", "[reports][html]") {
  Page page;
  page.results.scenario_name = "<b>night & \"day\"</b> it's";
  page.context.scenario_path = "scenarios/<odd> & \"path\".json";
  const std::string html = page.Html();
  const xml::Document doc = ParsePage(html);
  INFO(doc.error);
  REQUIRE(doc.error.empty());
  CHECK_FALSE(Contains(html, "<b>"));
  CHECK(Contains(html, "&lt;b&gt;night &amp; &quot;day&quot;&lt;/b&gt; it&#39;s"));
  CHECK_FALSE(Contains(html, "<odd>"));
}

TEST_CASE("html: the interactive layer, when built in, over the SVG fallback", "[reports][html]") {
  const Page page;
  const std::string html = page.Html();
  const xml::Document doc = ParsePage(html);
  INFO(doc.error);
  REQUIRE(doc.error.empty());
  std::vector<const xml::Element*> scripts;
  Walk(*doc.root, [&](const xml::Element& e) {
    if (e.name == "script") scripts.push_back(&e);
  });
  // The SVG drawings are there either way: they are what a reader without script sees.
  CHECK(ChartNames(*doc.root).size() == 18);
  if (!reports::InteractiveBuiltIn()) {
    SUCCEED("this binary was built without uPlot: SVG charts only");
    CHECK(scripts.empty());
    CHECK_FALSE(Contains(html, "drainsim-chart-data"));
    return;
  }
  REQUIRE(scripts.size() == 2);
  // The data: ChartDataJson of the same charts, in the first script.
  CHECK(scripts[0]->Attr("type") == "application/json");
  CHECK(scripts[0]->Attr("id") == "drainsim-chart-data");
  CHECK(scripts[0]->Attr("data-uplot") == "1.6.32");
  const reports::ReportInput input{page.results, page.context, page.verdicts,
                                   reports::ReproduceCommand(page.context.scenario_path, 42)};
  CHECK(scripts[0]->text ==
        reports::ChartDataJson(reports::ChartsOf(input, 2000), page.results.series, 2000));
  // The code: uPlot's licence, uPlot, the page's script; after the content they act on.
  const std::string& code = scripts[1]->text;
  CHECK(scripts[1]->attributes.empty());
  CHECK(Contains(code, "MIT licence"));
  CHECK(Contains(code, "Permission is hereby granted, free of charge"));
  CHECK(Contains(code, "var uPlot="));
  CHECK(Contains(code, "window.drainsimCharts"));
  CHECK(html.find("<script") > html.find("</main>"));
  // Both styles in the head, inside a CDATA section (checked by the strict parse above).
  CHECK(Contains(html, ".u-legend"));
  CHECK(Contains(html, "figure.interactive .wide"));
}

TEST_CASE("html: without samples there is no chart and no script", "[reports][html]") {
  Page page;
  page.results.series.clear();
  const std::string html = page.Html();
  CHECK_FALSE(Contains(html, "<script"));
  CHECK_FALSE(Contains(html, ".u-legend"));
}

TEST_CASE("html: the same input gives the same bytes", "[reports][html]") {
  const Page a;
  const Page b;
  CHECK(a.Html() == b.Html());
  Page c;
  c.results.seed = 43;
  CHECK(c.Html() != a.Html());
}

TEST_CASE("html: a long run is down-sampled to max_points per series", "[reports][html]") {
  Page page;
  const model::Sample pattern = page.results.series[5];
  page.results.series.clear();
  const size_t n = 100'000;
  for (size_t i = 0; i < n; ++i) {
    model::Sample s = pattern;
    s.t_s = static_cast<double>(i);
    s.depth = static_cast<int64_t>((i * 7919) % 1000);
    s.oldest_age_s = static_cast<double>(i % 600);
    s.live_p99_ms = i % 10 == 0 ? 0 : static_cast<double>(i % 97);
    page.results.series.push_back(s);
  }
  page.results.ended_at_s = static_cast<double>(n - 1);
  for (const size_t max_points : {size_t{2000}, size_t{100}}) {
    INFO("max_points " << max_points);
    const std::string html = page.Html(max_points);
    const xml::Document doc = ParsePage(html);
    REQUIRE(doc.error.empty());
    for (const auto* chart : Charts(*doc.root)) {
      for (const auto* path : chart->Children("path")) {
        INFO(chart->Attr("data-chart") << " " << path->Attr("data-series"));
        CHECK(PointsIn(path->Attr("d")) <= max_points);
        CHECK(PointsIn(path->Attr("d")) >= 1);
      }
    }
    CHECK(html.size() < 600'000);
  }
}

}  // namespace
}  // namespace html_report_test
}  // namespace drainsim::testing
