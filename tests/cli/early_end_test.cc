// A run that stops at run.events_max before its fault windows and drains start, or in the
// middle of one (issue 20, defect 2: `--format html` aborted on a fault band that started after
// the run's end). Every format is written and says only what happened before the end.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/cli/process.h"
#include "tests/reports/mini_xml.h"

namespace drainsim::testing {
namespace early_end_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::vector<std::string> kFiles = {"report.json", "report.md",  "junit.xml",
                                         "series.csv",  "trace.json", "report.html"};

fs::path FreshDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() /
                       ("drainsim-early-end-test-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// A small rehearsal: a database slowdown from 100 s to 500 s, synthetic failures from 300 s, a
// drain at 450 s; it stops after `events_max` events.
std::string WriteScenario(const fs::path& dir, int64_t events_max) {
  const json s = json::parse(R"({"format_version": 1, "name": "early", "seed": 7,
    "run": {"until_s": 600, "sample_every_s": 5},
    "kinds": {"job": {"handler": {"db_ops": 1, "db_op_ms": {"constant": 4},
                                  "cpu_ms": {"constant": 2}}}},
    "producers": [{"kind": "job", "poisson": {"rate_per_s": 20}}],
    "workers": {"count": 2},
    "database": {"connections": 4, "live_traffic": {"rate_per_s": 5, "query_ms": {"constant": 2}}},
    "faults": [{"type": "db_slowdown", "from_s": 100, "until_s": 500, "factor": 10},
               {"type": "synthetic_failures", "kind": "job", "count": 20, "error": "transient",
                "from_s": 300}],
    "drains": [{"start_at_s": 450, "strategy": "bulk"}],
    "expect": [{"metric": "lost", "equals": 0},
               {"metric": "live_p99_ms", "during": "drains", "max": 250}]})");
  json copy = s;
  copy["run"]["events_max"] = events_max;
  const fs::path path = dir / "early.json";
  FILE* file = std::fopen(path.c_str(), "w");
  REQUIRE(file != nullptr);
  const std::string text = copy.dump();
  REQUIRE(std::fwrite(text.data(), 1, text.size(), file) == text.size());
  REQUIRE(std::fclose(file) == 0);
  return path.string();
}

struct Run {
  double ended_at_s = 0;
  std::string html;
  json trace;
};

// Runs with every format and checks what holds for any early end.
Run RunAllFormats(const std::string& name, int64_t events_max) {
  const fs::path dir = FreshDir(name);
  const std::string scenario = WriteScenario(dir, events_max);
  const ProcessResult r =
      RunDrainsim({"run", scenario, "--quiet", "--format", "json,md,junit,csv,trace,html", "--out",
                   (dir / "out").string()});
  INFO(r.stderr_text);
  REQUIRE(r.signal == 0);
  REQUIRE((r.exit_code == 0 || r.exit_code == 1));
  CHECK(Contains(r.stdout_text, "STOPPED at run.events_max"));
  for (const std::string& file : kFiles) {
    INFO(file);
    CHECK(!ReadFile((dir / "out" / file).string()).empty());
  }
  Run run;
  const json report = json::parse(ReadFile((dir / "out" / "report.json").string()));
  CHECK(report["run"]["events_max_reached"] == true);
  run.ended_at_s = report["run"]["ended_at_s"].get<double>();
  CHECK(xml::Parse(ReadFile((dir / "out" / "junit.xml").string())).error.empty());
  CHECK(Contains(ReadFile((dir / "out" / "report.md").string()), "| drain |"));
  CHECK(Contains(ReadFile((dir / "out" / "series.csv").string()), "t_s"));
  run.html = ReadFile((dir / "out" / "report.html").string());
  run.trace = json::parse(ReadFile((dir / "out" / "trace.json").string()));
  fs::remove_all(dir);
  // Nothing in the trace lies after the run's end.
  const auto end_us = static_cast<int64_t>(run.ended_at_s * 1e6 + 0.5);
  for (const json& e : run.trace["traceEvents"]) {
    const int64_t ts = e["ts"].get<int64_t>();
    const int64_t dur = e.contains("dur") ? e["dur"].get<int64_t>() : 0;
    INFO(e.dump());
    CHECK(ts + dur <= end_us);
  }
  return run;
}

TEST_CASE("run: every format of a run stopped before its faults and drains start",
          "[cli][run][formats]") {
  const Run run = RunAllFormats("before", 2'000);
  REQUIRE(run.ended_at_s < 100);  // before the slowdown, the synthetic failures and the drain
  CHECK(!Contains(run.html, "class=\"band fault\""));
  CHECK(!Contains(run.html, "class=\"band drain\""));
  CHECK(!Contains(run.html, "class=\"marker\""));
}

TEST_CASE("run: every format of a run stopped inside a fault window", "[cli][run][formats]") {
  const Run run = RunAllFormats("inside", 18'000);
  REQUIRE(run.ended_at_s > 100);
  REQUIRE(run.ended_at_s < 300);  // inside the slowdown, before the failures and the drain
  // The slowdown is shaded up to the end: in every chart, never past the plot's right edge.
  CHECK(Contains(run.html, "class=\"band fault\""));
  CHECK(!Contains(run.html, "class=\"band drain\""));
  CHECK(!Contains(run.html, "class=\"marker\""));
}

}  // namespace
}  // namespace early_end_test
}  // namespace drainsim::testing
