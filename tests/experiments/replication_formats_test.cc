// `drainsim run --replications N --format ...`: junit.xml with one case per expectation over the
// replications (pass count, measured value, bound, unit), replications.html with a histogram per
// metric, the Markdown that is always written, and the same bytes for every --jobs.
#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>

#include "tests/experiments/cli_helpers.h"
#include "tests/reports/mini_xml.h"

namespace drainsim::testing {
namespace replication_formats_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::map<std::string, std::string> Properties(const xml::Element& element) {
  std::map<std::string, std::string> properties;
  const auto blocks = element.Children("properties");
  if (blocks.size() != 1) return properties;
  for (const xml::Element* p : blocks[0]->Children("property")) {
    properties[p->Attr("name")] = p->Attr("value");
  }
  return properties;
}

// The small scenario with its attempts bound lowered into its range (13300: it fails in some of
// ten replications, passes in others), so that one case passes and one fails.
std::string HalfFailingScenario() {
  std::string text = kSmallScenario;
  const std::string bound = "\"max\": 14000";
  text.replace(text.find(bound), bound.size(), "\"max\": 13300");
  return text;
}

TEST_CASE("run --replications --format junit,html,md: the files, identical for --jobs 1 and 2",
          "[experiments][cli][replications][formats]") {
  const fs::path dir = FreshDir("replications-formats");
  const std::string scenario = WriteFile(dir / "small.json", HalfFailingScenario());
  auto run = [&](const std::string& jobs) {
    const ProcessResult r =
        RunDrainsim({"run", scenario, "--replications", "10", "--metric", "attempts,lost",
                     "--format", "junit,html,md", "--jobs", jobs, "--out", (dir / jobs).string()});
    INFO(r.stderr_text);
    CHECK(r.exit_code == 1);  // the attempts bound failed in some replication
    return r;
  };
  const ProcessResult one = run("1");
  const ProcessResult two = run("2");
  CHECK(WithoutReportLines(one.stdout_text) == WithoutReportLines(two.stdout_text));
  const auto files = ReadDir(dir / "1");
  CHECK(files == ReadDir(dir / "2"));
  std::vector<std::string> names;
  for (const auto& [name, text] : files) names.push_back(name);
  CHECK(names == std::vector<std::string>{"junit.xml", "replications.csv", "replications.html",
                                          "replications.json", "replications.md"});

  // JUnit: one case per expectation; a case fails iff its expectation failed in some replication.
  const json report = json::parse(ReadFile((dir / "1" / "replications.json").string()));
  const int64_t attempts_passed = report["expectations"][1]["passed"].get<int64_t>();
  REQUIRE(attempts_passed > 0);
  REQUIRE(attempts_passed < 10);
  const xml::Document doc = xml::Parse(ReadFile((dir / "1" / "junit.xml").string()));
  REQUIRE(doc.error.empty());
  const xml::Element& suite = *doc.root->Children("testsuite").at(0);
  CHECK(suite.Attr("tests") == "2");
  CHECK(suite.Attr("failures") == "1");
  CHECK(Properties(suite)["replications"] == "10");
  const auto cases = suite.Children("testcase");
  REQUIRE(cases.size() == 2);
  CHECK(cases[0]->Attr("name") == "lost == 0");
  CHECK(cases[0]->Children("failure").empty());
  CHECK(Properties(*cases[0]) == std::map<std::string, std::string>{{"bound", "== 0"},
                                                                    {"passed", "10"},
                                                                    {"replications", "10"},
                                                                    {"unit", "count"},
                                                                    {"value", "0"},
                                                                    {"value_max", "0"},
                                                                    {"value_min", "0"}});
  CHECK(cases[1]->Attr("name") == "attempts <= 13300");
  std::map<std::string, std::string> attempts = Properties(*cases[1]);
  CHECK(attempts["passed"] == std::to_string(attempts_passed));
  CHECK(attempts["bound"] == "<= 13300");
  CHECK(attempts["unit"] == "count");
  // The figure of the expectation is the metric: its mean, min and max over the replications.
  const json& metric = report["metrics"][0];
  REQUIRE(metric["name"] == "attempts");
  CHECK(std::stod(attempts["value"]) == Approx(metric["mean"].get<double>()).epsilon(1e-9));
  CHECK(std::stod(attempts["value_min"]) == metric["min"].get<double>());
  CHECK(std::stod(attempts["value_max"]) == metric["max"].get<double>());
  CHECK(std::stod(attempts["value_max"]) > 13300);
  const auto failures = cases[1]->Children("failure");
  REQUIRE(failures.size() == 1);
  CHECK(failures[0]->Attr("message").find("passed " + std::to_string(attempts_passed) +
                                          " of 10 replications") == 0);
  CHECK(failures[0]->text.find("reproduce: drainsim run ") != std::string::npos);

  // HTML: well-formed after the doctype, one histogram per metric, nothing fetched.
  const std::string html = ReadFile((dir / "1" / "replications.html").string());
  REQUIRE(html.rfind("<!DOCTYPE html>\n", 0) == 0);
  const xml::Document page = xml::Parse(html.substr(html.find('\n') + 1));
  INFO(page.error);
  CHECK(page.error.empty());
  for (const std::string metric_name : {"attempts", "lost"}) {
    CHECK(html.find("<figure data-metric=\"" + metric_name + "\">") != std::string::npos);
    CHECK(html.find("data-chart=\"" + metric_name + "\"") != std::string::npos);
  }
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("attempts &lt;= 13300") != std::string::npos);

  // Markdown: the pass counts.
  const std::string md = ReadFile((dir / "1" / "replications.md").string());
  CHECK(md.find("| " + std::to_string(attempts_passed) + "/10 | `attempts <= 13300` |") !=
        std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("merge --format junit,html: the shards merged write the unsharded run's files",
          "[experiments][cli][replications][formats][shards]") {
  const fs::path dir = FreshDir("replications-formats-merge");
  const std::string scenario = WriteFile(dir / "small.json", HalfFailingScenario());
  const std::vector<std::string> common = {"run",      scenario, "--replications", "6",
                                           "--metric", "attempts,lost"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = common;
    args.insert(args.end(), extra.begin(), extra.end());
    return RunDrainsim(args);
  };
  const ProcessResult whole =
      with({"--format", "junit,html", "--out", (dir / "whole").string()});
  for (const std::string shard : {"1/2", "2/2"}) {
    const ProcessResult part = with({"--shard", shard, "--out", (dir / "parts").string()});
    INFO(part.stderr_text);
    REQUIRE(part.exit_code == 0);
  }
  const ProcessResult merged = RunDrainsim(
      {"merge", (dir / "parts" / "part-1-of-2.json").string(),
       (dir / "parts" / "part-2-of-2.json").string(), "--format", "junit,html", "--out",
       (dir / "merged").string()});
  INFO(merged.stderr_text);
  CHECK(merged.exit_code == whole.exit_code);
  CHECK(WithoutReportLines(merged.stdout_text) == WithoutReportLines(whole.stdout_text));
  const auto files = ReadDir(dir / "merged");
  std::vector<std::string> names;
  for (const auto& [name, text] : files) names.push_back(name);
  CHECK(names == std::vector<std::string>{"junit.xml", "replications.csv", "replications.html",
                                          "replications.json", "replications.md"});
  CHECK(files == ReadDir(dir / "whole"));
  // An unknown format is refused before anything is written.
  const ProcessResult bad = RunDrainsim({"merge", (dir / "parts" / "part-1-of-2.json").string(),
                                         (dir / "parts" / "part-2-of-2.json").string(),
                                         "--format", "trace", "--out", (dir / "bad").string()});
  CHECK(bad.exit_code == 2);
  CHECK(bad.stderr_text.find("drainsim merge: --format: unknown format 'trace'") !=
        std::string::npos);
  CHECK_FALSE(fs::exists(dir / "bad"));
  fs::remove_all(dir);
}

TEST_CASE("run --replications --format: trace, unknown names and sharded extras are refused",
          "[experiments][cli][replications][formats]") {
  const fs::path dir = FreshDir("replications-formats-bad");
  const std::string scenario = WriteFile(dir / "small.json", kSmallScenario);
  const std::string out = (dir / "out").string();
  ProcessResult r =
      RunDrainsim({"run", scenario, "--replications", "2", "--format", "trace", "--out", out});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find("unknown format 'trace' for replications") != std::string::npos);
  CHECK(r.stderr_text.find("junit, html") != std::string::npos);
  r = RunDrainsim({"run", scenario, "--replications", "2", "--format", "junit", "--shard", "1/2",
                   "--out", out});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find("drainsim merge") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
  // json, csv and md are written anyway: naming them is accepted and adds nothing.
  r = RunDrainsim(
      {"run", scenario, "--replications", "2", "--format", "json,csv,md", "--out", out});
  CHECK(r.exit_code == 0);
  CHECK(ReadDir(out).size() == 3);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace replication_formats_test
}  // namespace drainsim::testing
