// The renderers of experiment results on hand-made results: compare's pull-request comment and
// gate lines (reports/compare_comment.h), the replications' JUnit (reports/replications_junit.h)
// and the histogram bins of replications.html (reports/replications_html.h).
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "reports/compare_comment.h"
#include "reports/replications_html.h"
#include "reports/replications_junit.h"
#include "tests/reports/mini_xml.h"

namespace drainsim::testing {
namespace experiment_reports_test {
namespace {

using experiments::Better;
using experiments::GateResult;
using experiments::GateRow;
using experiments::GateVerdict;
using experiments::Statistics;

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

Statistics Mean(double mean, int64_t runs) {
  Statistics s;
  s.runs = runs;
  s.count = runs;
  s.mean = mean;
  return s;
}

Statistics Difference(double mean, double low, double high, int64_t runs) {
  Statistics s = Mean(mean, runs);
  s.ci_low = low;
  s.ci_high = high;
  s.half_width = (high - low) / 2;
  return s;
}

GateResult TwoMetrics(GateVerdict duplicates, bool gated) {
  GateResult g;
  g.a_name = "retry|old";
  g.b_name = "retry_new";
  g.replications = 20;
  g.confidence = 0.95;
  g.rows.push_back({"duplicate_executions", Better::kLower, Mean(2, 20), Mean(14.5, 20),
                    Difference(12.5, 8.25, 16.75, 20), "paired t", duplicates, gated});
  g.rows.push_back({"acked", Better::kHigher, Mean(1000, 20), Mean(1000, 20),
                    Difference(0, 0, 0, 20), "paired t", GateVerdict::kNoDifference, false});
  return g;
}

TEST_CASE("compare comment: a failed gate names the worse metric, and the table every metric",
          "[reports][compare]") {
  const GateResult g = TwoMetrics(GateVerdict::kWorse, true);
  REQUIRE(g.Failed());
  const std::string md = reports::CompareCommentMarkdown(g);
  INFO(md);
  CHECK(md.rfind("### drainsim compare: retry\\|old (A) → retry\\_new (B)\n\n", 0) == 0);
  CHECK(Contains(md, "| metric | A | B | B − A (95% CI) | verdict |\n"));
  CHECK(Contains(md,
                 "| `duplicate_executions` (gate) | 2 | 14.5 | +12.5 [+8.25, +16.75] | "
                 "❌ worse |\n"));
  CHECK(Contains(md, "| `acked` | 1000 | 1000 | 0 [0, 0] | no significant difference |\n"));
  // The summary is the last line.
  CHECK(Contains(md,
                 "\n❌ **Gate failed**: B is worse than A on `duplicate_executions`, at 95% "
                 "confidence over 20 paired replications (judged: `duplicate_executions`).\n"));
  CHECK(md.back() == '\n');
  const std::string text = reports::GateText(g);
  CHECK(Contains(text, "gate (--fail-if-worse, 95% confidence):\n"));
  CHECK(Contains(text, "worse"));
  CHECK(Contains(text, "FAIL"));
  CHECK(Contains(text, "gate failed: B is worse than A on duplicate_executions\n"));
}

TEST_CASE("compare comment: a gate that is not significantly worse passes, and no gate says so",
          "[reports][compare]") {
  for (const GateVerdict verdict :
       {GateVerdict::kNoDifference, GateVerdict::kBetter, GateVerdict::kTooFew}) {
    const GateResult g = TwoMetrics(verdict, true);
    CHECK_FALSE(g.Failed());
    const std::string md = reports::CompareCommentMarkdown(g);
    CHECK(Contains(md,
                   "\n✅ **Gate passed**: B is not significantly worse than A on "
                   "`duplicate_executions`"));
    CHECK_FALSE(Contains(md, "Gate failed"));
    CHECK(Contains(reports::GateText(g), "gate passed"));
  }
  // The same worse metric, not gated: reported, never failing.
  const GateResult ungated = TwoMetrics(GateVerdict::kWorse, false);
  CHECK_FALSE(ungated.Failed());
  CHECK_FALSE(ungated.AnyGated());
  const std::string md = reports::CompareCommentMarkdown(ungated);
  CHECK(Contains(md, "| `duplicate_executions` | 2 | 14.5 |"));
  CHECK(Contains(md, "\nNo gate (no --fail-if-worse): B is worse on 1, better on 0 of 2 metrics"));
  CHECK(reports::GateText(ungated).empty());
}

TEST_CASE("replications junit: pass counts, figures, bound and unit, and a failure by any replication",
          "[reports][junit][replications]") {
  experiments::ReplicationsResult r;
  r.scenario_name = "night & day";
  r.scenario_path = "scenarios/night.json";
  r.replications = 5;
  r.base_seed = 7;
  experiments::ReplicatedExpectation held{"lost == 0", "== 0",       "count", 5,
                                          5,           std::nullopt, "",      Mean(0, 5)};
  experiments::ReplicatedExpectation failed{"time_to_empty_s <= 1800",
                                            "<= 1800",
                                            "s",
                                            3,
                                            5,
                                            1,
                                            "drainsim run scenarios/night.json --seed 99",
                                            Mean(1750.5, 5)};
  failed.measured.min = 1700;
  failed.measured.max = 1900.25;
  r.expectations = {held, failed};
  const std::string text = reports::ReplicationsJunit(r);
  const xml::Document doc = xml::Parse(text);
  INFO(text);
  REQUIRE(doc.error.empty());
  CHECK(doc.root->Attr("tests") == "2");
  CHECK(doc.root->Attr("failures") == "1");
  const xml::Element& suite = *doc.root->Children("testsuite").at(0);
  CHECK(suite.Attr("name") == "night & day");
  const auto cases = suite.Children("testcase");
  REQUIRE(cases.size() == 2);
  CHECK(cases[0]->Children("failure").empty());
  std::map<std::string, std::string> properties;
  for (const xml::Element* p : cases[1]->Children("properties").at(0)->Children("property")) {
    properties[p->Attr("name")] = p->Attr("value");
  }
  CHECK(properties == std::map<std::string, std::string>{{"bound", "<= 1800"},
                                                         {"passed", "3"},
                                                         {"replications", "5"},
                                                         {"unit", "s"},
                                                         {"value", "1750.5"},
                                                         {"value_max", "1900.25"},
                                                         {"value_min", "1700"}});
  const auto failures = cases[1]->Children("failure");
  REQUIRE(failures.size() == 1);
  CHECK(failures[0]->Attr("message") ==
        "passed 3 of 5 replications; first failed in replication 1");
  CHECK(Contains(failures[0]->text, "reproduce: drainsim run scenarios/night.json --seed 99"));
  CHECK(cases[1]->children.front()->name == "properties");

  r.expectations.clear();
  const xml::Document empty = xml::Parse(reports::ReplicationsJunit(r));
  REQUIRE(empty.error.empty());
  CHECK(empty.root->Attr("tests") == "1");
  CHECK(empty.root->Attr("failures") == "0");
}

TEST_CASE("replications html: histogram bins cover every value once", "[reports][html]") {
  CHECK(reports::HistogramBins(1) == 1);
  CHECK(reports::HistogramBins(10) == 4);
  CHECK(reports::HistogramBins(16) == 4);
  CHECK(reports::HistogramBins(10000) == 20);
  const std::vector<double> values = {0, 1, 2.5, 5, 7.49, 7.5, 10};
  CHECK(reports::BinCounts(values, 0, 10, 4) == std::vector<int64_t>{2, 1, 2, 2});
  CHECK(reports::BinCounts(values, 0, 10, 1) == std::vector<int64_t>{7});
}

}  // namespace
}  // namespace experiment_reports_test
}  // namespace drainsim::testing
