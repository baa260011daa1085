// `drainsim run --replications`: statistics per metric, identical output for every --jobs,
// --until-ci-width, and the seeds a replication can be rerun with.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/experiments/cli_helpers.h"

namespace drainsim::testing {
namespace run_replications_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

TEST_CASE("run --replications prints statistics per metric and writes json, csv and md",
          "[experiments][cli][replications]") {
  const fs::path dir = FreshDir("replications-basic");
  const std::string scenario = WriteFile(dir / "small.json", kSmallScenario);
  const ProcessResult r =
      RunDrainsim({"run", scenario, "--replications", "6", "--metric", "attempts,lost", "--metric",
                   "message_latency_p99_s", "--out", (dir / "out").string()});
  INFO(r.stderr_text);
  CHECK(r.exit_code == 0);
  CHECK(r.stdout_text.find("scenario small  6 replications  base seed 5") != std::string::npos);
  CHECK(r.stdout_text.find("attempts ") != std::string::npos);
  CHECK(r.stdout_text.find("6/6  lost == 0") != std::string::npos);
  const json report = json::parse(ReadFile((dir / "out" / "replications.json").string()));
  REQUIRE(report["metrics"].size() == 3);
  CHECK(report["metrics"][0]["name"] == "attempts");
  CHECK(report["metrics"][0]["better"] == "lower");
  CHECK(report["metrics"][0]["runs"] == 6);
  CHECK(report["metrics"][1]["sd"] == 0);  // lost is always 0
  CHECK(report["runs"].size() == 6);
  const std::string csv = ReadFile((dir / "out" / "replications.csv").string());
  CHECK(csv.rfind("replication,seed,fingerprint,attempts,lost,message_latency_p99_s\r\n", 0) == 0);
  CHECK(fs::exists(dir / "out" / "replications.md"));

  // Replication 2 alone, through its printed seed, gives the same run.
  const json& run2 = report["runs"][2];
  const ProcessResult single =
      RunDrainsim({"run", scenario, "--seed", run2["seed"].get<std::string>(), "--out",
                   (dir / "one").string()});
  const json one = json::parse(ReadFile((dir / "one" / "report.json").string()));
  CHECK(one["fingerprint"] == run2["fingerprint"]);
  CHECK(one["attempts"] == run2["values"]["attempts"]);
  fs::remove_all(dir);
}

TEST_CASE("run --replications: byte-identical output for --jobs 1 and 2",
          "[experiments][cli][replications][jobs]") {
  const fs::path dir = FreshDir("replications-jobs");
  const std::string scenario = WriteFile(dir / "small.json", kSmallScenario);
  const ProcessResult one = RunDrainsim(
      {"run", scenario, "--replications", "8", "--jobs", "1", "--out", (dir / "j1").string()});
  const ProcessResult two = RunDrainsim(
      {"run", scenario, "--replications", "8", "--jobs", "2", "--out", (dir / "j2").string()});
  REQUIRE(one.exit_code == 0);
  REQUIRE(two.exit_code == 0);
  CHECK(WithoutReportLines(one.stdout_text) == WithoutReportLines(two.stdout_text));
  const auto a = ReadDir(dir / "j1");
  const auto b = ReadDir(dir / "j2");
  REQUIRE(a.size() == 3);
  CHECK(a == b);
  fs::remove_all(dir);
}

TEST_CASE("run --until-ci-width stops at the first narrow enough prefix, whatever --jobs",
          "[experiments][cli][replications]") {
  const fs::path dir = FreshDir("replications-ci-width");
  const std::string scenario = WriteFile(dir / "small.json", kSmallScenario);
  auto run = [&](const std::string& jobs) {
    const ProcessResult r = RunDrainsim(
        {"run", scenario, "--replications", "40", "--until-ci-width", "0.01", "--min-replications",
         "3", "--metric", "attempts", "--jobs", jobs, "--out", (dir / jobs).string()});
    CHECK(r.exit_code == 0);
    return json::parse(ReadFile((dir / jobs / "replications.json").string()));
  };
  const json a = run("1");
  const json b = run("2");
  CHECK(a == b);
  const int64_t n = a["experiment"]["replications"].get<int64_t>();
  CHECK(n >= 3);
  CHECK(n < 40);
  CHECK(a["experiment"]["until_ci_width"]["met"] == true);
  const json& attempts = a["metrics"][0];
  CHECK(attempts["half_width"].get<double>() < 0.01 * attempts["mean"].get<double>());
  fs::remove_all(dir);
}

TEST_CASE("run --replications: bad options and metrics are usage errors",
          "[experiments][cli][replications]") {
  const fs::path dir = FreshDir("replications-bad");
  const std::string scenario = WriteFile(dir / "small.json", kSmallScenario);
  const std::string out = (dir / "out").string();
  ProcessResult r = RunDrainsim({"run", scenario, "--replications", "0", "--out", out});
  CHECK(r.exit_code == 2);
  r = RunDrainsim(
      {"run", scenario, "--replications", "3", "--metric", "live_p99_ms", "--out", out});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find("--metric live_p99_ms") != std::string::npos);
  CHECK(r.stderr_text.find("database.live_traffic") != std::string::npos);
  r = RunDrainsim({"run", scenario, "--replications", "3", "--metric", "atempts", "--out", out});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find("attempts") != std::string::npos);
  r = RunDrainsim({"run", scenario, "--replications", "3", "--jobs", "0", "--out", out});
  CHECK(r.exit_code == 2);
  r = RunDrainsim({"run", scenario, "--replications", "3", "--shard", "4/3", "--out", out});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find("1 <= i <= N") != std::string::npos);
  // Shards are numbered from 1: a 0-based index is refused, and the message says why.
  r = RunDrainsim({"run", scenario, "--replications", "3", "--shard", "0/3", "--out", out});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find("--shard '0/3': shards are numbered from 1") != std::string::npos);
  CHECK(r.stdout_text.empty());
  CHECK_FALSE(fs::exists(out));
  fs::remove_all(dir);
}

TEST_CASE("run --replications exits 1 when an expectation failed in some replication",
          "[experiments][cli][replications]") {
  const fs::path dir = FreshDir("replications-fail");
  std::string text = kSmallScenario;
  const std::string bound = "\"max\": 14000";
  text.replace(text.find(bound), bound.size(), "\"max\": 13300");
  const std::string scenario = WriteFile(dir / "small.json", text);
  const ProcessResult r =
      RunDrainsim({"run", scenario, "--replications", "10", "--out", (dir / "out").string()});
  CHECK(r.exit_code == 1);
  CHECK(r.stdout_text.find("(first failed in replication ") != std::string::npos);
  CHECK(r.stdout_text.find(" --seed ") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("the experiment commands answer --help and are listed", "[experiments][cli]") {
  const ProcessResult help = RunDrainsim({"--help"});
  for (const std::string sub : {"compare", "sweep", "tune", "merge"}) {
    INFO(sub);
    CHECK(help.stdout_text.find("  " + sub + " ") != std::string::npos);
    const ProcessResult r = RunDrainsim({sub, "--help"});
    CHECK(r.exit_code == 0);
    CHECK(r.stdout_text.rfind("usage: drainsim " + sub, 0) == 0);
    CHECK(r.stderr_text.empty());
  }
  const ProcessResult run = RunDrainsim({"run", "--help"});
  CHECK(run.exit_code == 0);
  CHECK(run.stdout_text.find("--replications") != std::string::npos);
  CHECK(run.stdout_text.find("--shard") != std::string::npos);
}

}  // namespace
}  // namespace run_replications_test
}  // namespace drainsim::testing
