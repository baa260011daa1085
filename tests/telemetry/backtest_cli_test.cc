// `drainsim backtest` end to end: a scenario's own series, exported by `drainsim run --format csv`
// (and the same series as a Prometheus query_range response, and as a CloudWatch GetMetricData
// response that starts 300 s earlier, read with --offset-s 300), backtested against the scenario:
// exit 0 with most of every series inside the band; against the scenario with half its workers:
// exit 1; bad input: exit 2 with the file, line or pointer, and nothing written.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/cli/process.h"

namespace drainsim::testing {
namespace backtest_cli_test {
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

// Unix seconds as the AWS CLI writes a timestamp, to the microsecond (a run's last row may fall
// between samples): "2025-12-04T17:40:00.000000+00:00".
std::string IsoTime(double unix_s) {
  const auto whole = static_cast<time_t>(unix_s);
  std::tm tm{};
  gmtime_r(&whole, &tm);
  char text[48];
  const size_t n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm);
  std::snprintf(text + n, sizeof text - n, ".%06d+00:00",
                static_cast<int>(std::lround((unix_s - static_cast<double>(whole)) * 1e6)));
  return text;
}

// series.csv's depth, dlq_depth and oldest_age_s as a CloudWatch GetMetricData response, newest
// first as CloudWatch gives it, the run starting `lead_s` after two quiet points (value 0 at 0
// and lead_s / 2), each figure split over two pages.
std::string AsCloudWatch(const std::string& csv, double lead_s) {
  const json prom = json::parse(AsPrometheus(csv));
  json results = json::array();
  for (const json& series : prom["data"]["result"]) {
    const std::string name = series["metric"]["__name__"].get<std::string>().substr(9);
    json times = json::array();
    json values = json::array();
    for (const json& point : series["values"]) {
      times.push_back(IsoTime(point[0].get<double>() + lead_s));
      values.push_back(std::stod(point[1].get<std::string>()));
    }
    const double origin_s = series["values"][0][0].get<double>();
    for (const double quiet_s : {lead_s / 2, 0.0}) {
      times.push_back(IsoTime(origin_s + quiet_s));
      values.push_back(0);
    }
    std::reverse(times.begin(), times.end());  // newest first
    std::reverse(values.begin(), values.end());
    const auto half = static_cast<std::ptrdiff_t>(times.size() / 2);
    results.push_back({{"Id", "q_" + name},
                       {"Label", name},
                       {"StatusCode", "PartialData"},
                       {"Timestamps", json(times.begin(), times.begin() + half)},
                       {"Values", json(values.begin(), values.begin() + half)}});
    results.push_back({{"Id", "q_" + name},
                       {"Label", name},
                       {"StatusCode", "Complete"},
                       {"Timestamps", json(times.begin() + half, times.end())},
                       {"Values", json(values.begin() + half, values.end())}});
  }
  return json({{"MetricDataResults", results}, {"Messages", json::array()}}).dump(2);
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

  // CloudWatch, newest first, with 300 s before the incident that --offset-s 300 leaves out;
  // the Labels name the figures (the Ids do not).
  WriteFile(dir / "own.cw.json", AsCloudWatch(ReadFile(csv.string()), 300));
  const json cloudwatch =
      Backtest(kScenario, dir / "own.cw.json", dir / "cw", 0, {"--offset-s", "300"});
  CHECK(cloudwatch["series"] == own["series"]);
  CHECK(cloudwatch["figures"] == own["figures"]);
  const json unshifted = Backtest(kScenario, dir / "own.cw.json", dir / "cw0", 1);
  CHECK(unshifted["passed"] == false);  // 300 s out of step

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
}  // namespace backtest_cli_test
}  // namespace drainsim::testing
