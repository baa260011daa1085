// `drainsim sweep` and `drainsim merge` as a user runs them: the grid's output, identical for
// every --jobs; shards merged into exactly the unsharded output; bad grids refused.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/experiments/cli_helpers.h"

namespace drainsim::testing {
namespace sweep_merge_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<std::string> SweepArgs(const std::string& scenario) {
  return {"sweep",          scenario,
          "--vary",         "/faults/0/probability=0.05,0.2",
          "--vary",         "/workers/count=2,3",
          "--replications", "3",
          "--metric",       "attempts,message_latency_p99_s"};
}

ProcessResult Run(std::vector<std::string> args, const std::vector<std::string>& extra) {
  args.insert(args.end(), extra.begin(), extra.end());
  ProcessResult r = RunDrainsim(args);
  INFO(r.stderr_text);
  return r;
}

TEST_CASE("sweep writes statistics per point, a chart per metric, and is the same for any --jobs",
          "[experiments][cli][sweep][jobs]") {
  const fs::path dir = FreshDir("sweep-jobs");
  const std::string scenario = WriteFile(dir / "small.json", kSmallScenario);
  const ProcessResult one =
      Run(SweepArgs(scenario), {"--jobs", "1", "--out", (dir / "j1").string()});
  const ProcessResult two =
      Run(SweepArgs(scenario), {"--jobs", "2", "--out", (dir / "j2").string()});
  REQUIRE(one.exit_code == 0);
  REQUIRE(two.exit_code == 0);
  CHECK(WithoutReportLines(one.stdout_text) == WithoutReportLines(two.stdout_text));
  const auto files = ReadDir(dir / "j1");
  CHECK(files == ReadDir(dir / "j2"));
  std::vector<std::string> names;
  for (const auto& [name, text] : files) names.push_back(name);
  CHECK(names == std::vector<std::string>{"sweep-attempts.svg", "sweep-message_latency_p99_s.svg",
                                          "sweep.csv", "sweep.json", "sweep.md"});
  const json report = json::parse(ReadFile((dir / "j1" / "sweep.json").string()));
  REQUIRE(report["points"].size() == 4);
  CHECK(report["points"][1]["values"]["/faults/0/probability"] == 0.05);
  CHECK(report["points"][1]["values"]["/workers/count"] == 3);
  CHECK(report["points"][1]["metrics"]["attempts"]["runs"] == 3);
  // More errors, more attempts: the grid's points differ where they should.
  CHECK(report["points"][2]["metrics"]["attempts"]["mean"].get<double>() >
        report["points"][0]["metrics"]["attempts"]["mean"].get<double>());
  const std::string svg = ReadFile((dir / "j1" / "sweep-attempts.svg").string());
  CHECK(svg.find("<svg") != std::string::npos);
  CHECK(svg.find("data-series=\"/workers/count=2\"") != std::string::npos);
  const std::string csv = ReadFile((dir / "j1" / "sweep.csv").string());
  CHECK(csv.rfind("point,/faults/0/probability,/workers/count,metric,runs,undefined,mean,", 0) ==
        0);
  fs::remove_all(dir);
}

TEST_CASE("sweep: 3 shards merged are byte-identical to the unsharded sweep",
          "[experiments][cli][sweep][shard]") {
  const fs::path dir = FreshDir("sweep-shards");
  const std::string scenario = WriteFile(dir / "small.json", kSmallScenario);
  const ProcessResult whole = Run(SweepArgs(scenario), {"--out", (dir / "whole").string()});
  REQUIRE(whole.exit_code == 0);
  std::vector<std::string> merge = {"merge"};
  for (int i = 1; i <= 3; ++i) {  // numbered from 1, as CI matrices number them
    const std::string shard = std::to_string(i) + "/3";
    const ProcessResult part =
        Run(SweepArgs(scenario), {"--shard", shard, "--out", (dir / "parts").string()});
    REQUIRE(part.exit_code == 0);
    merge.push_back((dir / "parts" / ("part-" + std::to_string(i) + "-of-3.json")).string());
  }
  // The order of the parts on the command line does not matter.
  std::swap(merge[1], merge[3]);
  const ProcessResult merged = Run(merge, {"--out", (dir / "merged").string()});
  REQUIRE(merged.exit_code == 0);
  CHECK(WithoutReportLines(merged.stdout_text) == WithoutReportLines(whole.stdout_text));
  CHECK(ReadDir(dir / "merged") == ReadDir(dir / "whole"));
  fs::remove_all(dir);
}

TEST_CASE("run --replications: 3 shards merged are byte-identical to the unsharded run",
          "[experiments][cli][replications][shard]") {
  const fs::path dir = FreshDir("replication-shards");
  const std::string scenario = WriteFile(dir / "small.json", kSmallScenario);
  const std::vector<std::string> args = {"run", scenario, "--replications", "7"};
  const ProcessResult whole = Run(args, {"--out", (dir / "whole").string()});
  REQUIRE(whole.exit_code == 0);
  std::vector<std::string> merge = {"merge"};
  for (int i = 1; i <= 3; ++i) {
    const ProcessResult part = Run(args, {"--shard", std::to_string(i) + "/3", "--jobs", "2",
                                          "--out", (dir / "parts").string()});
    REQUIRE(part.exit_code == 0);
    merge.push_back((dir / "parts" / ("part-" + std::to_string(i) + "-of-3.json")).string());
  }
  const ProcessResult merged = Run(merge, {"--out", (dir / "merged").string()});
  REQUIRE(merged.exit_code == 0);
  CHECK(WithoutReportLines(merged.stdout_text) == WithoutReportLines(whole.stdout_text));
  CHECK(ReadDir(dir / "merged") == ReadDir(dir / "whole"));
  fs::remove_all(dir);
}

TEST_CASE("merge refuses missing, repeated and foreign parts", "[experiments][cli][shard]") {
  const fs::path dir = FreshDir("merge-bad");
  const std::string scenario = WriteFile(dir / "small.json", kSmallScenario);
  const std::vector<std::string> args = {"run", scenario,   "--replications",
                                         "4",   "--metric", "attempts"};
  for (int i = 1; i <= 2; ++i) {
    Run(args, {"--shard", std::to_string(i) + "/2", "--out", (dir / "a").string()});
  }
  std::vector<std::string> other = args;
  other[3] = "5";  // another experiment: five replications
  Run(other, {"--shard", "2/2", "--out", (dir / "b").string()});
  const std::string a0 = (dir / "a" / "part-1-of-2.json").string();
  const std::string a1 = (dir / "a" / "part-2-of-2.json").string();
  const std::string b1 = (dir / "b" / "part-2-of-2.json").string();
  const std::string out = (dir / "out").string();

  ProcessResult r = Run({"merge", a0}, {"--out", out});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find("missing shard(s) 2 of 2") != std::string::npos);
  r = Run({"merge", a0, a0, a1}, {"--out", out});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find("are both shard 1/2") != std::string::npos);
  r = Run({"merge", a0, b1}, {"--out", out});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find("another experiment") != std::string::npos);
  r = Run({"merge", scenario}, {"--out", out});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find("not a partial result") != std::string::npos);
  CHECK_FALSE(fs::exists(out));
  CHECK(Run({"merge", a1, a0}, {"--out", out}).exit_code == 0);
  fs::remove_all(dir);
}

TEST_CASE("sweep: a bad pointer or value exits 2 naming it, and nothing runs",
          "[experiments][cli][sweep]") {
  const fs::path dir = FreshDir("sweep-bad");
  const std::string scenario = WriteFile(dir / "small.json", kSmallScenario);
  const std::string out = (dir / "out").string();
  ProcessResult r =
      Run({"sweep", scenario, "--vary", "/drain/0/rate_per_s=5:200:5", "--out", out}, {});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find("/drain/0/rate_per_s: no such place in the scenario") !=
        std::string::npos);
  r = Run({"sweep", scenario, "--vary", "/workers/count=2,0,-1", "--out", out}, {});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find("--vary /workers/count=0: /workers/count: ") != std::string::npos);
  CHECK(r.stderr_text.find("--vary /workers/count=-1: /workers/count: ") != std::string::npos);
  r = Run({"sweep", scenario, "--vary", "workers/count=2", "--out", out}, {});
  CHECK(r.exit_code == 2);
  r = Run({"sweep", scenario, "--vary", "/workers/count=2", "--shard", "1/0", "--out", out}, {});
  CHECK(r.exit_code == 2);
  CHECK_FALSE(fs::exists(out));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace sweep_merge_test
}  // namespace drainsim::testing
