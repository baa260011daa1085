// `drainsim run` in CI: expectations and exit codes, --format and the files it writes,
// --expect-only, determinism of every format, and nothing written on bad input.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/process.h"
#include "tests/reports/mini_xml.h"

namespace drainsim::testing {
namespace run_formats_test {
namespace {

namespace fs = std::filesystem;

const std::string kSource = DRAINSIM_SOURCE_DIR;
const std::vector<std::string> kFiles = {"report.json", "report.md", "junit.xml", "series.csv"};

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

fs::path FreshDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() /
                       ("drainsim-formats-test-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A small scenario (600 s, 20 jobs/s, 10% failing attempts) named `name` (JSON-escaped) with
// the `expect` array given.
std::string WriteScenario(const fs::path& dir, const std::string& expect,
                          const std::string& name = "small") {
  const std::string text = R"({"format_version": 1, "name": ")" + name + R"(", "seed": 5,
    "run": {"until_s": 600},
    "kinds": {"job": {"handler": {"cpu_ms": {"exponential": {"mean": 40}}}}},
    "producers": [{"kind": "job", "poisson": {"rate_per_s": 20}}],
    "workers": {"count": 2},
    "faults": [{"type": "errors", "probability": 0.1}],
    "expect": )" + expect + "}";
  const fs::path path = dir / "scenario.json";
  std::ofstream(path) << text;
  return path.string();
}

const char* kPassing =
    R"([{"metric": "lost", "equals": 0}, {"metric": "acked", "min": 1},
        {"always": "depth", "min": 0}])";
const char* kFailing =
    R"([{"metric": "lost", "equals": 0}, {"metric": "acked", "max": 1},
        {"sometimes": "dlq_depth", "min": 1000000}])";

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

ProcessResult RunAll(const std::string& scenario, const fs::path& out,
                     std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"run",   scenario,    "--format", "json,md,junit,csv",
                                   "--out", out.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  return RunDrainsim(args);
}

TEST_CASE("run: a passing scenario exits 0 and writes every requested format",
          "[cli][run][formats]") {
  const fs::path dir = FreshDir("pass");
  const std::string scenario = WriteScenario(dir, kPassing);
  const ProcessResult r = RunAll(scenario, dir / "out");
  INFO(r.stdout_text << r.stderr_text);
  CHECK(r.exit_code == 0);
  CHECK(Contains(r.stdout_text, "expectations: 3 passed, 0 failed\n"));
  CHECK(Contains(r.stdout_text, "  PASS  lost == 0: measured 0"));
  for (const std::string& file : kFiles) {
    INFO(file);
    CHECK(fs::exists(dir / "out" / file));
    CHECK(Contains(r.stdout_text, "report: " + (dir / "out" / file).string() + "\n"));
    CHECK_FALSE(fs::exists(dir / "out" / (file + ".tmp")));
  }
  CHECK(Contains(r.stdout_text, "reproduce: drainsim run " + scenario + " --seed 5\n"));
  fs::remove_all(dir);
}

TEST_CASE("run: a failed expectation exits 1, writes every file and says how to reproduce",
          "[cli][run][formats]") {
  const fs::path dir = FreshDir("fail");
  const std::string scenario = WriteScenario(dir, kFailing);
  const ProcessResult r = RunAll(scenario, dir / "out", {"--seed", "9"});
  INFO(r.stdout_text << r.stderr_text);
  CHECK(r.exit_code == 1);
  CHECK(Contains(r.stdout_text, "expectations: 1 passed, 2 failed\n"));
  CHECK(Contains(r.stdout_text, "  FAIL  acked <= 1: measured "));
  CHECK(Contains(r.stdout_text, ", bound <= 1 ("));
  CHECK(Contains(r.stdout_text, "  FAIL  sometimes dlq_depth >= 1000000: measured "));
  CHECK(Contains(r.stdout_text, "reproduce: drainsim run " + scenario + " --seed 9\n"));
  for (const std::string& file : kFiles) CHECK(fs::exists(dir / "out" / file));

  const std::string junit = ReadFile((dir / "out" / "junit.xml").string());
  CHECK(Contains(junit, "<failure"));
  const xml::Document doc = xml::Parse(junit);
  REQUIRE(doc.error.empty());
  const xml::Element& suite = *doc.root->Children("testsuite").at(0);
  CHECK(suite.Attr("tests") == "3");
  CHECK(suite.Attr("failures") == "2");
  const auto cases = suite.Children("testcase");
  REQUIRE(cases.size() == 3);
  CHECK(cases[0]->Children("failure").empty());
  REQUIRE(cases[1]->Children("failure").size() == 1);
  const xml::Element& failure = *cases[1]->Children("failure")[0];
  CHECK(failure.Attr("message").rfind("measured ", 0) == 0);
  CHECK(Contains(failure.Attr("message"), ", bound <= 1"));
  CHECK(Contains(failure.text, "--seed 9"));

  const std::string md = ReadFile((dir / "out" / "report.md").string());
  CHECK(Contains(md, "❌ 2 of 3 expectations failed"));
  CHECK(Contains(md, "| ❌ FAIL | `acked <= 1` |"));
  const nlohmann::json report =
      nlohmann::json::parse(ReadFile((dir / "out" / "report.json").string()));
  REQUIRE(report["expectations"].size() == 3);
  CHECK(report["expectations"][1]["passed"] == false);
  CHECK(report["expectations"][1]["measured"].is_number());
  fs::remove_all(dir);
}

TEST_CASE("run --expect-only prints just the verdicts, and still writes the files",
          "[cli][run][formats]") {
  const fs::path dir = FreshDir("expect-only");
  SECTION("failing: one line per expectation, then the reproduction") {
    const std::string scenario = WriteScenario(dir, kFailing);
    const ProcessResult r = RunAll(scenario, dir / "out", {"--expect-only"});
    INFO(r.stdout_text);
    CHECK(r.exit_code == 1);
    const std::vector<std::string> lines = Lines(r.stdout_text);
    REQUIRE(lines.size() == 4);
    CHECK(lines[0] == "PASS  lost == 0: measured 0 (within bounds)");
    CHECK(lines[1].rfind("FAIL  acked <= 1: measured ", 0) == 0);
    CHECK(lines[2].rfind("FAIL  sometimes dlq_depth >= 1000000: measured ", 0) == 0);
    CHECK(lines[3] == "reproduce: drainsim run " + scenario + " --seed 5");
    for (const std::string& file : kFiles) CHECK(fs::exists(dir / "out" / file));
  }
  SECTION("passing: only PASS lines") {
    const std::string scenario = WriteScenario(dir, kPassing);
    const ProcessResult r = RunAll(scenario, dir / "out", {"--expect-only"});
    CHECK(r.exit_code == 0);
    const std::vector<std::string> lines = Lines(r.stdout_text);
    REQUIRE(lines.size() == 3);
    for (const std::string& line : lines) CHECK(line.rfind("PASS  ", 0) == 0);
  }
  fs::remove_all(dir);
}

TEST_CASE("run: series.csv has a header and one row per sample of report.json",
          "[cli][run][formats]") {
  const fs::path dir = FreshDir("csv");
  const std::string scenario = WriteScenario(dir, kPassing);
  REQUIRE(RunAll(scenario, dir / "out").exit_code == 0);
  const nlohmann::json report =
      nlohmann::json::parse(ReadFile((dir / "out" / "report.json").string()));
  const size_t samples = report["series"]["t_s"].size();
  CHECK(samples == 61);  // every 10 s (the default) over 600 s, and the end at 600 s
  const std::string csv = ReadFile((dir / "out" / "series.csv").string());
  std::vector<std::string> rows;
  for (std::string line : Lines(csv)) {
    REQUIRE(!line.empty());
    CHECK(line.back() == '\r');  // CRLF, as RFC 4180 has it
    line.pop_back();
    rows.push_back(line);
  }
  REQUIRE(rows.size() == samples + 1);
  CHECK(rows[0].rfind("t_s,depth,", 0) == 0);
  const auto fields = [](const std::string& row) {
    return std::count(row.begin(), row.end(), ',') + 1;
  };
  CHECK(static_cast<size_t>(fields(rows[0])) == report["series"].size());
  for (const std::string& row : rows) CHECK(fields(row) == fields(rows[0]));
  CHECK(rows[2].rfind("10.0,", 0) == 0);
  fs::remove_all(dir);
}

TEST_CASE("run: every format is byte-identical for the same scenario and seed",
          "[cli][run][formats]") {
  const fs::path dir = FreshDir("determinism");
  const std::string scenario = WriteScenario(dir, kFailing);
  RunAll(scenario, dir / "a");
  RunAll(scenario, dir / "b");
  for (const std::string& file : kFiles) {
    INFO(file);
    const std::string a = ReadFile((dir / "a" / file).string());
    CHECK_FALSE(a.empty());
    CHECK(a == ReadFile((dir / "b" / file).string()));
  }
  fs::remove_all(dir);
}

TEST_CASE("run: without --format only report.json is written", "[cli][run][formats]") {
  const fs::path dir = FreshDir("default");
  const std::string scenario = WriteScenario(dir, kPassing);
  CHECK(RunDrainsim({"run", scenario, "--out", (dir / "out").string()}).exit_code == 0);
  CHECK(fs::exists(dir / "out" / "report.json"));
  CHECK(std::distance(fs::directory_iterator(dir / "out"), fs::directory_iterator()) == 1);
  fs::remove_all(dir);
}

TEST_CASE("run: an unknown format is a usage error that writes nothing", "[cli][run][formats]") {
  const fs::path dir = FreshDir("unknown-format");
  const std::string scenario = WriteScenario(dir, kPassing);
  for (const char* list : {"json,xml", "", "json,,md", "JSON"}) {
    INFO("--format '" << list << "'");
    const ProcessResult r =
        RunDrainsim({"run", scenario, "--format", list, "--out", (dir / "out").string()});
    CHECK(r.exit_code == 2);
    CHECK(Contains(r.stderr_text, "formats are: json, md, junit, csv"));
    CHECK(r.stdout_text.empty());
    CHECK_FALSE(fs::exists(dir / "out"));
  }
  const ProcessResult r =
      RunDrainsim({"run", scenario, "--format", "json,xml", "--out", (dir / "out").string()});
  CHECK(Contains(r.stderr_text, "unknown format 'xml'"));
  fs::remove_all(dir);
}

TEST_CASE("run: a bad scenario writes no file of any format", "[cli][run][formats]") {
  const fs::path dir = FreshDir("bad");
  const std::string scenario = WriteScenario(dir, R"([{"metric": "no_such_metric", "max": 1}])");
  const ProcessResult r = RunAll(scenario, dir / "out");
  CHECK(r.exit_code == 2);
  CHECK(Contains(r.stderr_text, "/expect/0/metric"));
  CHECK_FALSE(fs::exists(dir / "out"));
  fs::remove_all(dir);
}

TEST_CASE("run: a scenario name with XML's special characters gives well-formed JUnit",
          "[cli][run][formats]") {
  const fs::path dir = FreshDir("xml-name");
  const std::string scenario = WriteScenario(dir, kFailing, R"(a&b <c> \"d\" 'e')");
  const ProcessResult r = RunAll(scenario, dir / "out");
  CHECK(r.exit_code == 1);
  const xml::Document doc = xml::Parse(ReadFile((dir / "out" / "junit.xml").string()));
  INFO(doc.error);
  REQUIRE(doc.error.empty());
  const xml::Element& suite = *doc.root->Children("testsuite").at(0);
  CHECK(suite.Attr("name") == "a&b <c> \"d\" 'e'");
  CHECK(suite.Children("testcase").at(0)->Attr("classname") == "drainsim.a&b <c> \"d\" 'e'");
  fs::remove_all(dir);
}

TEST_CASE("run --help documents --format, each format's file, and --expect-only",
          "[cli][run][formats]") {
  const ProcessResult r = RunDrainsim({"run", "--help"});
  CHECK(r.exit_code == 0);
  for (const char* text :
       {"--format", "--expect-only", "  json   report.json ", "  md     report.md ",
        "  junit  junit.xml ", "  csv    series.csv ", "Exit code 0"}) {
    INFO(text);
    CHECK(Contains(r.stdout_text, text));
  }
}

TEST_CASE("run: the canonical monthly rehearsal meets its expectations", "[cli][run][formats]") {
  const fs::path dir = FreshDir("monthly");
  const ProcessResult r =
      RunDrainsim({"run", kSource + "/scenarios/monthly-rehearsal.json", "--expect-only",
                   "--format", "junit", "--out", (dir / "out").string()});
  INFO(r.stdout_text << r.stderr_text);
  CHECK(r.exit_code == 0);
  CHECK(Lines(r.stdout_text).size() == 8);  // one verdict per expectation
  CHECK_FALSE(Contains(r.stdout_text, "FAIL"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace run_formats_test
}  // namespace drainsim::testing
