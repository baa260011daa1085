// `drainsim fit` on metric series (experiments/fit_series.h) end to end: a CSV series of
// inflow_per_s with a known rate step (Poisson counts per 1 s from the project's generator: the
// model records no arrival series, so drainsim run cannot make one) is fitted to two producers,
// each rate inside its interval and the change point found; the same series as a Prometheus
// query_range response is recognised by its content; beside a run's traces the series' arrivals
// replace the spans'; bad input is exit 2 with the file, line or pointer, and the reason.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/engine/rng.h"
#include "tests/cli/process.h"
#include "tests/experiments/cli_helpers.h"

namespace drainsim::testing {
namespace fit_series_cli_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The truth: 10/s for 300 s, then 40/s for 300 s; counts per 1 s step.
std::vector<int64_t> TruthCounts() {
  engine::Rng rng = engine::Rng::FromSeed(17);
  std::vector<int64_t> counts(600, 0);
  for (double t_s = 0;;) {
    t_s -= std::log(rng.NextOpenDouble()) / (t_s < 300 ? 10.0 : 40.0);
    if (t_s >= 600) break;
    ++counts[static_cast<size_t>(t_s)];
  }
  return counts;
}

std::string TruthCsv() {
  std::string csv = "t_s,depth,inflow_per_s\n";
  const std::vector<int64_t> counts = TruthCounts();
  for (size_t i = 0; i < counts.size(); ++i) {
    csv += std::to_string(i) + ",0," + std::to_string(counts[i]) + "\n";
  }
  return csv;
}

// The same counts as Prometheus would answer query_range, from unix time 1.7e9.
std::string TruthPrometheus() {
  json values = json::array();
  const std::vector<int64_t> counts = TruthCounts();
  for (size_t i = 0; i < counts.size(); ++i) {
    values.push_back(
        json::array({1'700'000'000 + static_cast<int64_t>(i), std::to_string(counts[i])}));
  }
  return json({{"status", "success"},
               {"data",
                {{"resultType", "matrix"},
                 {"result", json::array({{{"metric", {{"__name__", "published_rate"}}},
                                          {"values", values}}})}}}})
      .dump();
}

void RequireTwoSegments(const json& producers, const std::string& from) {
  REQUIRE(producers.size() == 2);
  const json& first = producers[0]["poisson"];
  const json& second = producers[1]["poisson"];
  INFO(producers.dump());
  CHECK(producers[0]["kind"] == "job");
  CHECK(first["from_s"] == 0.0);
  CHECK(std::abs(first["until_s"].get<double>() - 300) <= 2);  // the change point
  CHECK(second["from_s"] == first["until_s"]);
  CHECK(second["until_s"] == 600.0);
  CHECK(first["fitted"]["interval"][0].get<double>() <= 10);
  CHECK(10 <= first["fitted"]["interval"][1].get<double>());
  CHECK(second["fitted"]["interval"][0].get<double>() <= 40);
  CHECK(40 <= second["fitted"]["interval"][1].get<double>());
  CHECK(first["fitted"]["from"] == from);
}

TEST_CASE("fit series: a CSV and a Prometheus inflow_per_s with a rate step", "[cli][fit]") {
  const fs::path dir = FreshDir("fit-series");
  const std::string csv = WriteFile(dir / "series.csv", TruthCsv());
  const ProcessResult fit = RunDrainsim({"fit", csv, "--inflow-kind", "job"});
  INFO(fit.stderr_text);
  REQUIRE(fit.exit_code == 0);
  const json fragment = json::parse(fit.stdout_text);
  RequireTwoSegments(fragment["producers"], csv);
  CHECK(fragment["kinds"].empty());  // a series says nothing of the handler
  CHECK(Contains(fit.stderr_text, "arrivals from the series " + csv +
                                      "'s inflow_per_s: 600 points every 1 s (no spans)"));

  const std::string prometheus = WriteFile(dir / "series.json", TruthPrometheus());
  const ProcessResult from_json = RunDrainsim(
      {"fit", prometheus, "--inflow-kind", "job", "--map", "published_rate=inflow_per_s"});
  INFO(from_json.stderr_text);
  REQUIRE(from_json.exit_code == 0);
  RequireTwoSegments(json::parse(from_json.stdout_text)["producers"], prometheus);
  fs::remove_all(dir);
}

TEST_CASE("fit series: beside traces the series' arrivals replace the spans'", "[cli][fit]") {
  const fs::path dir = FreshDir("fit-series-traces");
  const std::string scenario = WriteFile(dir / "s.json", R"({"format_version": 1, "name": "s",
    "seed": 3, "run": {"until_s": 120},
    "kinds": {"job": {"handler": {"cpu_ms": {"lognormal": {"mu": 2, "sigma": 0.5}}}}},
    "producers": [{"kind": "job", "poisson": {"rate_per_s": 5, "until_s": 100}}],
    "workers": {"count": 2}})");
  REQUIRE(RunDrainsim({"run", scenario, "--format", "otlp", "--out", (dir / "out").string()})
              .exit_code == 0);
  const std::string traces = (dir / "out" / "otlp-traces.json").string();
  const std::string csv = WriteFile(dir / "series.csv", TruthCsv());
  const ProcessResult fit = RunDrainsim({"fit", traces, csv});  // the traces' one kind: job
  INFO(fit.stderr_text);
  REQUIRE(fit.exit_code == 0);
  const json fragment = json::parse(fit.stdout_text);
  RequireTwoSegments(fragment["producers"], csv);
  CHECK(fragment["kinds"]["job"]["handler"]["cpu_ms"]["fitted"]["from"] == traces);
  CHECK(Contains(fit.stderr_text, "replacing the spans': the series counts every message"));
  // Named kinds: a series read as what --kind says, whatever its content.
  const ProcessResult as_otlp = RunDrainsim({"fit", csv, "--kind", "otlp"});
  CHECK(as_otlp.exit_code == 2);
  CHECK(Contains(as_otlp.stderr_text, csv + ": line 1"));
  const ProcessResult as_csv = RunDrainsim({"fit", traces, "--kind", "csv"});
  CHECK(as_csv.exit_code == 2);
  CHECK(Contains(as_csv.stderr_text, traces + ": line 1: "));
  const ProcessResult unknown = RunDrainsim({"fit", csv, "--kind", "xml"});
  CHECK(unknown.exit_code == 2);
  CHECK(Contains(unknown.stderr_text,
                 "--kind xml: unknown kind (otlp, live, csv, prometheus, cloudwatch)"));
  fs::remove_all(dir);
}

TEST_CASE("fit series: bad series are exit 2 with the file and the reason", "[cli][fit]") {
  const fs::path dir = FreshDir("fit-series-bad");
  const auto refused = [&](const std::string& name, const std::string& text,
                           const std::string& reason) {
    const std::string path = WriteFile(dir / name, text);
    const std::string out = (dir / "never.json").string();
    const ProcessResult fit = RunDrainsim({"fit", path, "--inflow-kind", "job", "-o", out});
    INFO(fit.stderr_text);
    CHECK(fit.exit_code == 2);
    CHECK(Contains(fit.stderr_text, "drainsim fit: " + path + ": " + reason));
    CHECK_FALSE(fs::exists(out));
  };
  refused("no-inflow.csv", "t_s,depth\n0,1\n1,2\n",
          "no inflow_per_s series: fit reads arrivals from it (figures: depth)");
  refused("no-unit.csv", "t_s,inflow\n0,1\n1,2\n",
          "line 1: column inflow: units missing: inflow is in messages per second: name it "
          "inflow_per_s");
  refused("backwards.csv", "t_s,inflow_per_s\n0,1\n2,2\n1,2\n",
          "line 4: t_s 1 is not after the previous row's (times must increase)");
  refused("gap.csv", "t_s,inflow_per_s\n0,1\n1,2\n3,2\n",
          "inflow_per_s: the points at t_s 1 and 3 are 2 s apart, the first two 1 s");
  refused("no-time.csv", "time,inflow_per_s\n0,1\n1,2\n",
          "line 1: units missing: the time column is t_s (seconds from the start), not time");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace fit_series_cli_test
}  // namespace drainsim::testing
