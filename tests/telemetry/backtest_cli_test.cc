// `drainsim backtest` end to end: a scenario's own series, exported by `drainsim run --format csv`
// (and the same series as a Prometheus query_range response), backtested against the scenario:
// exit 0 with most of every series inside the band; against the scenario with half its workers:
// exit 1; bad input: exit 2 with the file, line or pointer, and nothing written.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/cli/process.h"

namespace drainsim::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kScenario =
    std::string(DRAINSIM_SOURCE_DIR) + "/scenarios/telemetry/backtest-incident.json";

fs::path FreshDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() /
                       ("drainsim-backtest-test-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void WriteFile(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// The scenario's own run with `seed`, as series.csv.
fs::path OwnSeries(const fs::path& dir, const std::string& seed) {
  const ProcessResult run = RunDrainsim(
      {"run", kScenario, "--seed", seed, "--format", "csv", "--out", (dir / "run").string()});
  REQUIRE(run.exit_code == 0);
  return dir / "run" / "series.csv";
}

// series.csv's depth, dlq_depth and oldest_age_s as a Prometheus query_range response.
std::string AsPrometheus(const std::string& csv) {
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> names;
  std::stringstream header(line);
  for (std::string name; std::getline(header, name, ',');) {
    names.push_back(name.back() == '\r' ? name.substr(0, name.size() - 1) : name);
  }
  json series = json::object();
  while (std::getline(in, line)) {
    std::stringstream row(line);
    std::vector<std::string> fields;
    for (std::string f; std::getline(row, f, ',');) fields.push_back(f);
    const double unix_s = 1764870000 + std::stod(fields[0]);
    for (size_t c = 1; c < names.size(); ++c) {
      if (names[c] != "depth" && names[c] != "dlq_depth" && names[c] != "oldest_age_s") continue;
      series[names[c]].push_back(json::array({unix_s, fields[c]}));
    }
  }
  json result = json::array();
  for (const auto& [name, values] : series.items()) {
    result.push_back({{"metric", {{"__name__", "drainsim_" + name}}}, {"values", values}});
  }
  return json({{"status", "success"}, {"data", {{"resultType", "matrix"}, {"result", result}}}})
      .dump();
}

json Backtest(const fs::path& scenario, const fs::path& observed, const fs::path& out,
              int expected_exit, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"backtest",        scenario.string(), "--observed",
                                   observed.string(), "--replications",  "20",
                                   "--out",           out.string(),      "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  const ProcessResult r = RunDrainsim(args);
  INFO(r.stdout_text << r.stderr_text);
  REQUIRE(r.exit_code == expected_exit);
  return json::parse(ReadFile((out / "backtest.json").string()));
}

TEST_CASE("backtest cli: the scenario against its own series passes, half the workers miss",
          "[backtest][cli]") {
  const fs::path dir = FreshDir("round-trip");
  const fs::path csv = OwnSeries(dir, "1234");
  const json own = Backtest(kScenario, csv, dir / "own", 0);
  CHECK(own["passed"] == true);
  REQUIRE(own["series"].size() == 3);
  for (const json& s : own["series"]) {
    INFO(s["name"]);
    CHECK(s["share_in_band"].get<double>() >= 0.9);
    CHECK(s["points_beyond_run"] == 0);
  }
  CHECK(fs::exists(dir / "own" / "backtest.md"));
  CHECK(fs::exists(dir / "own" / "backtest.html"));

  WriteFile(dir / "own.prom.json", AsPrometheus(ReadFile(csv.string())));
  const json prom =
      Backtest(kScenario, dir / "own.prom.json", dir / "prom", 0,
               {"--map", "drainsim_depth=depth", "--map", "drainsim_dlq_depth=dlq_depth", "--map",
                "drainsim_oldest_age_s=oldest_age_s"});
  CHECK(prom["series"] == own["series"]);  // the same points, read from either format
  CHECK(prom["figures"] == own["figures"]);

  json half = json::parse(ReadFile(kScenario));
  half["workers"]["count"] = 1;  // half of its two
  WriteFile(dir / "half.json", half.dump());
  const json missed = Backtest(dir / "half.json", csv, dir / "half", 1);
  CHECK(missed["passed"] == false);
  fs::remove_all(dir);
}

TEST_CASE("backtest cli: the same files for every --jobs", "[backtest][cli]") {
  const fs::path dir = FreshDir("jobs");
  const fs::path csv = OwnSeries(dir, "77");
  Backtest(kScenario, csv, dir / "one", 0, {"--jobs", "1"});
  Backtest(kScenario, csv, dir / "two", 0, {"--jobs", "2"});
  for (const char* name : {"backtest.json", "backtest.md", "backtest.html"}) {
    CHECK(ReadFile((dir / "one" / name).string()) == ReadFile((dir / "two" / name).string()));
  }
  fs::remove_all(dir);
}

TEST_CASE("backtest cli: bad input is exit 2 with the place and reason, nothing written",
          "[backtest][cli]") {
  const fs::path dir = FreshDir("bad");
  WriteFile(dir / "back.csv", "t_s,depth\n0,1\n10,2\n5,3\n");
  const ProcessResult r =
      RunDrainsim({"backtest", kScenario, "--observed", (dir / "back.csv").string(), "--out",
                   (dir / "out").string()});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find("back.csv: line 4: t_s 5 is not after") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "out" / "backtest.json"));

  WriteFile(dir / "nameless.json", R"({"status": "success", "data": {"resultType": "matrix",
      "result": [{"metric": {}, "values": [[1, "2"]]}]}})");
  const ProcessResult p =
      RunDrainsim({"backtest", kScenario, "--observed", (dir / "nameless.json").string(), "--out",
                   (dir / "out").string()});
  CHECK(p.exit_code == 2);
  CHECK(p.stderr_text.find("nameless.json: /data/result/0/metric: no __name__") !=
        std::string::npos);
  const ProcessResult t = RunDrainsim(
      {"backtest", kScenario, "--observed", (dir / "back.csv").string(), "--tolerance", "share=2"});
  CHECK(t.exit_code == 2);
  CHECK(t.stderr_text.find("--tolerance share=2") != std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace drainsim::testing
