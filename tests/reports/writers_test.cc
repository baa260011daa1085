// The report writers on hand-made Results: the format registry, JUnit parsed and checked for
// structure, Markdown tables, CSV shape, report.json's expectations and series, determinism,
// and the escaping of whatever a scenario name holds.
#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "reports/csv_report.h"
#include "reports/expectations.h"
#include "reports/formats.h"
#include "reports/json_report.h"
#include "reports/junit_report.h"
#include "reports/markdown_report.h"
#include "reports/metrics.h"
#include "reports/run_summary.h"
#include "tests/reports/mini_xml.h"
#include "tests/reports/report_fixture.h"

namespace drainsim::testing {
namespace writers_test {
namespace {

using config::During;
using config::Quantifier;
using config::RunMetric;
using config::SeriesMetric;

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// A run with three expectations, one of which fails, rendered by every format.
struct Rendered {
  model::Results results = FixtureResults();
  reports::ReportContext context{"scenarios/fixture.json", "00000000deadbeef",
                                 "0.1.0 (commit test)"};
  std::vector<reports::Verdict> verdicts;

  explicit Rendered(std::vector<config::Expectation> expect = {
                        Metric(RunMetric::kTimeToEmpty, Max(1800)),
                        Metric(RunMetric::kDuplicateExecutions, Max(0), During::kRun, "email"),
                        Property(Quantifier::kAlways, SeriesMetric::kLiveP99, Max(250),
                                 During::kDrains)}) {
    verdicts = reports::EvaluateExpectations(results, expect);
  }
  reports::ReportInput Input() const {
    return {results, context, verdicts, reports::ReproduceCommand(context.scenario_path, 42)};
  }
};

TEST_CASE("formats: the registry and --format lists", "[reports][formats]") {
  std::set<std::string_view> names;
  std::set<std::string_view> files;
  for (const reports::Format& f : reports::Formats()) {
    names.insert(f.name);
    files.insert(f.file_name);
  }
  for (const std::string_view name : {"json", "md", "junit", "csv", "html"}) {
    CHECK(names.count(name) == 1);
  }
  CHECK(files.size() == reports::Formats().size());
  CHECK(reports::FindFormat("junit")->file_name == "junit.xml");
  CHECK(reports::FindFormat("xml") == nullptr);

  const auto four = reports::ParseFormatList("json,md,junit,csv");
  REQUIRE(four.ok());
  CHECK(four->size() == 4);
  const auto two = reports::ParseFormatList("csv,json,csv");
  REQUIRE(two.ok());
  REQUIRE(two->size() == 2);
  CHECK((*two)[0]->name == "csv");
  const auto bad = reports::ParseFormatList("json,xml");
  REQUIRE_FALSE(bad.ok());
  CHECK(Contains(bad.error(), "'xml'"));
  CHECK(Contains(bad.error(), "json, md, junit, csv"));
  CHECK_FALSE(reports::ParseFormatList("").ok());
  CHECK_FALSE(reports::ParseFormatList("json,").ok());
  CHECK_FALSE(reports::ParseFormatList("JSON").ok());
}

TEST_CASE("formats: every writer gives the same bytes twice", "[reports][formats]") {
  const Rendered a;
  const Rendered b;
  for (const reports::Format& f : reports::Formats()) {
    INFO(f.name);
    const std::string text = f.write(a.Input());
    CHECK_FALSE(text.empty());
    CHECK(text == f.write(b.Input()));
  }
}

TEST_CASE("numbers: decimals for people, report.json's form for machines", "[reports]") {
  CHECK(reports::Decimal(1800) == "1800");
  CHECK(reports::Decimal(24.95) == "24.95");
  CHECK(reports::Decimal(0.5) == "0.5");
  CHECK(reports::Decimal(-0.0000001) == "0");
  CHECK(reports::Decimal(2.0 / 3, 3) == "0.667");
  CHECK(reports::JsonNumber(25) == "25.0");
  CHECK(reports::JsonNumber(0.0543631) == "0.054363");
  CHECK(reports::ReproduceCommand("scenarios/x.json", 7) ==
        "drainsim run scenarios/x.json --seed 7");
  CHECK(reports::ReproduceCommand("my dir/it's.json", 7) ==
        "drainsim run 'my dir/it'\\''s.json' --seed 7");
}

TEST_CASE("junit: well-formed, one test case per expectation, failures carry the figures",
          "[reports][junit]") {
  const Rendered r;
  const std::string text = reports::JunitReport(r.Input());
  const xml::Document doc = xml::Parse(text);
  INFO(text);
  REQUIRE(doc.error.empty());
  const xml::Element& root = *doc.root;
  CHECK(root.name == "testsuites");
  CHECK(root.Attr("tests") == "3");
  CHECK(root.Attr("failures") == "1");
  const auto suites = root.Children("testsuite");
  REQUIRE(suites.size() == 1);
  const xml::Element& suite = *suites[0];
  CHECK(suite.Attr("name") == "fixture");
  CHECK(suite.Attr("tests") == "3");
  CHECK(suite.Attr("failures") == "1");
  CHECK(suite.Attr("errors") == "0");
  CHECK(suite.Attr("skipped") == "0");
  CHECK(suite.Attr("time") == "0");
  std::map<std::string, std::string> properties;
  for (const xml::Element* p : suite.Children("properties").at(0)->Children("property")) {
    properties[p->Attr("name")] = p->Attr("value");
  }
  CHECK(properties["seed"] == "42");
  CHECK(properties["reproduce"] == "drainsim run scenarios/fixture.json --seed 42");
  const auto cases = suite.Children("testcase");
  REQUIRE(cases.size() == 3);
  CHECK(cases[0]->Attr("name") == "time_to_empty_s <= 1800");
  CHECK(cases[1]->Attr("name") == "duplicate_executions for kind email <= 0");
  CHECK(cases[2]->Attr("name") == "always live_p99_ms <= 250 during drains");
  int failures = 0;
  for (const xml::Element* c : cases) {
    CHECK(c->Attr("classname") == "drainsim.fixture");
    CHECK(c->Attr("time") == "0");
    for (const xml::Element* f : c->Children("failure")) {
      ++failures;
      CHECK(f->Attr("message") == "measured 3, bound <= 0");
      CHECK(f->Attr("type") == "expectation");
      CHECK(Contains(f->text, "reproduce: drainsim run scenarios/fixture.json --seed 42"));
    }
  }
  CHECK(failures == 1);
  CHECK_FALSE(Contains(text, "timestamp"));

  // Every case carries its figure, bound and unit for dashboards that trend them, before any
  // <failure> (the order of the common JUnit schema).
  const std::vector<std::map<std::string, std::string>> expected = {
      {{"value", r.verdicts[0].measured_text}, {"bound", "<= 1800"}, {"unit", "s"}},
      {{"value", "3"}, {"bound", "<= 0"}, {"unit", "count"}},
      {{"value", r.verdicts[2].measured_text}, {"bound", "<= 250"}, {"unit", "ms"}}};
  for (size_t i = 0; i < cases.size(); ++i) {
    INFO("case " << i);
    REQUIRE(cases[i]->Children("properties").size() == 1);
    CHECK(cases[i]->children.front()->name == "properties");
    std::map<std::string, std::string> case_properties;
    for (const xml::Element* p : cases[i]->Children("properties")[0]->Children("property")) {
      CHECK(case_properties.count(p->Attr("name")) == 0);
      case_properties[p->Attr("name")] = p->Attr("value");
    }
    CHECK(case_properties == expected[i]);
  }
  CHECK(r.verdicts[0].measured_text == "24.95");
}

TEST_CASE("UnitOf: the unit is the name's last word", "[reports][junit]") {
  CHECK(reports::UnitOf("time_to_empty_s") == "s");
  CHECK(reports::UnitOf("live_p99_ms") == "ms");
  CHECK(reports::UnitOf("dlq_inflow_per_s") == "1/s");
  CHECK(reports::UnitOf("attempts_per_success") == "ratio");
  CHECK(reports::UnitOf("db_utilisation") == "ratio");
  CHECK(reports::UnitOf("duplicate_executions") == "count");
  CHECK(reports::UnitOf("depth") == "count");
}

TEST_CASE("junit: a scenario name full of XML's special characters", "[reports][junit]") {
  Rendered r;
  r.results.scenario_name = "a&b <c> \"d\" 'e'";
  r.context.scenario_path = "x&y.json";
  const std::string text = reports::JunitReport(r.Input());
  const xml::Document doc = xml::Parse(text);
  INFO(text);
  REQUIRE(doc.error.empty());
  const xml::Element& suite = *doc.root->Children("testsuite").at(0);
  CHECK(suite.Attr("name") == "a&b <c> \"d\" 'e'");
  CHECK(suite.Children("testcase").at(0)->Attr("classname") == "drainsim.a&b <c> \"d\" 'e'");
  CHECK(reports::XmlEscape("<&>\"'\x01", reports::XmlFlavour::kXml) ==
        "&lt;&amp;&gt;&quot;&apos;\xEF\xBF\xBD");
}

TEST_CASE("junit: no expectations gives one passing run case", "[reports][junit]") {
  const Rendered r(std::vector<config::Expectation>{});
  const xml::Document doc = xml::Parse(reports::JunitReport(r.Input()));
  REQUIRE(doc.error.empty());
  const xml::Element& suite = *doc.root->Children("testsuite").at(0);
  CHECK(suite.Attr("tests") == "1");
  CHECK(suite.Attr("failures") == "0");
  const auto cases = suite.Children("testcase");
  REQUIRE(cases.size() == 1);
  CHECK(cases[0]->Attr("name") == "run completed (the scenario has no expectations)");
  CHECK(cases[0]->Children("failure").empty());
}

TEST_CASE("the mini XML checker refuses malformed documents", "[reports][junit]") {
  CHECK(xml::Parse("<a><b></a></b>").error != "");
  CHECK(xml::Parse("<a x=\"1\" x=\"2\"/>").error != "");
  CHECK(xml::Parse("<a>&</a>").error != "");
  CHECK(xml::Parse("<a x=\"<\"/>").error != "");
  CHECK(xml::Parse("<a/><b/>").error != "");
  CHECK(xml::Parse("<a>").error != "");
  CHECK(xml::Parse("<?xml version=\"1.0\"?>\n<a x='1'>t&amp;<b/></a>\n").error == "");
}

TEST_CASE("markdown: verdict, headline figures, expectation table, DLQ and drains",
          "[reports][markdown]") {
  Rendered r;
  r.results.scenario_name = "night|shift_*x*";
  const std::string md = reports::MarkdownReport(r.Input());
  INFO(md);
  CHECK(md.rfind("## drainsim: night\\|shift\\_\\*x\\* — ❌ 1 of 3 expectations failed\n", 0) == 0);
  CHECK(Contains(md, "Reproduce: `drainsim run scenarios/fixture.json --seed 42`"));
  // The DLQ emptied, then held 6 again by the end: the headline says both.
  CHECK(Contains(md,
                 "| time to empty | 24.95 s (the DLQ emptied 24.95 s after the first drain "
                 "started; 6 in it again by the end (1 replay died again)) |"));
  CHECK(Contains(md, "| live traffic, during drains | p50 4 ms, p99 33 ms, max 33 ms |"));
  CHECK(Contains(md,
                 "| result | expectation | measured | bound | reason |\n|---|---|---|---|---|\n"));
  CHECK(Contains(md, "| ✅ PASS | `time_to_empty_s <= 1800` | 24.95 | `<= 1800` | within bounds |"));
  CHECK(Contains(md,
                 "| ❌ FAIL | `duplicate_executions for kind email <= 0` | 3 | `<= 0` | 3 \\> 0 |"));
  CHECK(Contains(md, "| `max_attempts/transient` | 6 |"));
  CHECK(Contains(md, "| `parked:drain` | 4 |"));
  CHECK(
      Contains(md, "| 0 | 35 s | 65 s | 7 | in 14 s (0.5/s) | 0.2/s | 1 | 4 | 0 | 50 % | 33 ms |"));
  // Every table row has as many cells as its header.
  std::istringstream lines(md);
  std::string line;
  size_t columns = 0;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] != '|') {
      columns = 0;
      continue;
    }
    size_t pipes = 0;
    for (size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) ++pipes;
    }
    if (columns == 0) columns = pipes;
    CHECK(pipes == columns);
  }
  const Rendered passing({Metric(RunMetric::kLost, Equals(0))});
  CHECK(Contains(reports::MarkdownReport(passing.Input()), "✅ 1 of 1 expectations passed"));
}

TEST_CASE("csv: a header with units, one row per sample, RFC 4180", "[reports][csv]") {
  const Rendered r;
  const std::string csv = reports::CsvSeries(r.Input());
  std::vector<std::string> rows;
  size_t start = 0;
  while (start < csv.size()) {
    const size_t end = csv.find("\r\n", start);
    REQUIRE(end != std::string::npos);  // every line ends with CRLF
    rows.push_back(csv.substr(start, end - start));
    start = end + 2;
  }
  REQUIRE(rows.size() == r.results.series.size() + 1);
  const std::string& header = rows[0];
  CHECK(header.rfind("t_s,depth,delayed_depth,dlq_depth,", 0) == 0);
  CHECK(Contains(header, ",live_p99_ms,"));
  CHECK(header.size() >= 26);
  CHECK(header.substr(header.size() - 26) == ",drain_active,fault_active");
  const auto fields = [](const std::string& row) {
    return static_cast<size_t>(std::count(row.begin(), row.end(), ',')) + 1;
  };
  for (const std::string& row : rows) {
    CHECK(row.find('\n') == std::string::npos);
    CHECK(fields(row) == reports::SeriesColumnsOf(r.results).size());  // no ack_pending
  }
  CHECK(rows[1].rfind("0.0,0,0,0,", 0) == 0);
  CHECK(rows[5].substr(rows[5].size() - 4) == ",1,0");  // t = 40: drain active, no fault
  CHECK(reports::CsvField("a,b") == "\"a,b\"");
  CHECK(reports::CsvField("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(reports::CsvField("plain") == "plain");
}

// Regression: a bare 10903086657810375724 is 10903086657810377000 to jq and JavaScript.
TEST_CASE("json: a seed above 2^53 is written as a string, below as a number", "[reports][json]") {
  Rendered r;
  CHECK(nlohmann::json::parse(reports::JsonReport(r.Input()))["seed"] == 42);
  r.results.seed = 10903086657810375724ULL;
  CHECK(nlohmann::json::parse(reports::JsonReport(r.Input()))["seed"] == "10903086657810375724");
}

TEST_CASE("json: the verdicts, and the series columns as before", "[reports][json]") {
  const Rendered r;
  const nlohmann::json report = nlohmann::json::parse(reports::JsonReport(r.Input()));
  CHECK(report["report_version"] == 1);
  const nlohmann::json& e = report["expectations"];
  REQUIRE(e.size() == 3);
  CHECK(e[0]["expectation"] == "time_to_empty_s <= 1800");
  CHECK(e[0]["passed"] == true);
  CHECK(e[0]["measured"] == 24.95);
  CHECK(e[0]["bounds"] == nlohmann::json{{"max", 1800.0}});
  CHECK(e[1]["kind"] == "email");
  CHECK(e[1]["passed"] == false);
  CHECK(e[1]["reason"] == "3 > 0");
  CHECK(e[2]["type"] == "always");
  CHECK(e[2]["during"] == "drains");
  CHECK(e[2]["kind"].is_null());
  std::set<std::string> columns;
  for (const auto& [name, values] : report["series"].items()) {
    columns.insert(name);
    CHECK(values.size() == r.results.series.size());
  }
  for (const char* name : {"t_s",
                           "depth",
                           "delayed_depth",
                           "dlq_depth",
                           "parked",
                           "in_flight",
                           "oldest_age_s",
                           "dlq_inflow_per_s",
                           "dlq_outflow_per_s",
                           "workers_busy",
                           "db_utilisation",
                           "db_queue",
                           "live_p50_ms",
                           "live_p99_ms",
                           "live_errors_per_s",
                           "fault_active",
                           "drain_active",
                           "drain_rate_per_s",
                           "dlq_reason_max_attempts",
                           "dlq_error_transient"}) {
    INFO(name);
    CHECK(columns.count(name) == 1);
  }
  CHECK(columns.size() == reports::SeriesColumnsOf(r.results).size());
  CHECK(report["series"]["depth"][3] == 3);
  CHECK(report["series"]["depth"][3].is_number_integer());
  CHECK(report["series"]["drain_active"][4] == true);
  CHECK(report["series"]["oldest_age_s"][2] == 6.5);
}

}  // namespace
}  // namespace writers_test
}  // namespace drainsim::testing

namespace drainsim::testing {
namespace writers_test {
namespace {

TEST_CASE("broker_lost: report.json, Markdown and the summary agree, terms add up",
          "[reports][broker_lost]") {
  Rendered rendered;
  model::Results& r = rendered.results;
  r.published = 100;
  r.acked = 80;
  r.parked = 2;
  r.expired = 3;
  r.dlq_end = 4;
  r.rejected = 1;
  r.broker_lost = 7;
  r.broker_lost_by_cause[static_cast<size_t>(model::BrokerLossCause::kDlqFull)] = 5;
  r.broker_lost_by_cause[static_cast<size_t>(model::BrokerLossCause::kCrash)] = 2;
  r.not_terminal_end = 3;
  r.dead_letter_waiting_end = 2;
  const nlohmann::json json = nlohmann::json::parse(reports::JsonReport(rendered.Input()));
  const nlohmann::json& counts = json;  // report.json's counts are top-level keys
  CHECK(counts.at("broker_lost") == 7);
  CHECK(counts.at("broker_lost_by_cause").at("dlq_full") == 5);
  CHECK(counts.at("broker_lost_by_cause").at("crash") == 2);
  CHECK(counts.at("broker_lost_by_cause").at("worker_lost") == 0);
  CHECK(counts.at("dead_letter_waiting_end") == 2);
  int64_t sum = 0;
  for (const char* term :
       {"acked", "parked", "expired", "dlq_end", "rejected", "broker_lost", "not_terminal_end"}) {
    sum += counts.at(term).get<int64_t>();
  }
  CHECK(sum == counts.at("published").get<int64_t>());
  const std::string md = reports::MarkdownReport(rendered.Input());
  CHECK(Contains(md,
                 "100 published, 80 acked, 2 parked, 4 in the DLQ, 3 expired, 3 unfinished, "
                 "1 rejected, 7 lost by the broker"));
  CHECK(Contains(md, "| lost by the broker | 7 (dlq_full 5, crash 2) |"));
  CHECK(Contains(md, "| waiting for DLQ room | 2 of the unfinished"));
  const std::string summary = reports::RunSummary(r, rendered.context);
  CHECK(Contains(summary, "lost by the broker: 7 (dlq_full 5, crash 2)"));
  CHECK(Contains(summary, "waiting for DLQ room: 2 of the unfinished"));
}

}  // namespace
}  // namespace writers_test
}  // namespace drainsim::testing
