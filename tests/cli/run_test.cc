// `drainsim run` as a user meets it: summary, report file, determinism, and no partial output
// on bad input.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli/process.h"

namespace drainsim::testing {
namespace run_test {
namespace {

namespace fs = std::filesystem;

const std::string kSource = DRAINSIM_SOURCE_DIR;

fs::path FreshDir(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("drainsim-run-test-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  return dir;
}

const char* kSmall = R"({"format_version": 1, "name": "small", "seed": 5,
  "run": {"until_s": 600},
  "kinds": {"job": {"handler": {"cpu_ms": {"exponential": {"mean": 40}}}}},
  "producers": [{"kind": "job", "poisson": {"rate_per_s": 20}}],
  "workers": {"count": 2},
  "faults": [{"type": "errors", "probability": 0.1}]})";

std::string WriteScenario(const fs::path& dir, const std::string& text) {
  fs::create_directories(dir);
  const fs::path path = dir / "scenario.json";
  std::ofstream(path) << text;
  return path.string();
}

TEST_CASE("run prints the summary and writes report.json", "[cli][run]") {
  const fs::path dir = FreshDir("basic");
  const std::string scenario = WriteScenario(dir, kSmall);
  ProcessResult r = RunDrainsim({"run", scenario, "--out", (dir / "out").string()});
  CHECK(r.exit_code == 0);
  CHECK(r.stdout_text.rfind("scenario small  seed 5  fingerprint ", 0) == 0);
  CHECK(r.stdout_text.find("lost") != std::string::npos);
  CHECK(r.stdout_text.find("reproduce: drainsim run " + scenario + " --seed 5") !=
        std::string::npos);
  const std::string report = ReadFile((dir / "out" / "report.json").string());
  CHECK(report.find("\"report_version\": 1") != std::string::npos);
  CHECK(report.find("\"lost\": 0") != std::string::npos);
  CHECK(report.find("\"seed\": 5") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("run: same seed gives a byte-identical report, another seed another fingerprint",
          "[cli][run]") {
  const fs::path dir = FreshDir("det");
  const std::string scenario = WriteScenario(dir, kSmall);
  RunDrainsim({"run", scenario, "--out", (dir / "a").string()});
  RunDrainsim({"run", scenario, "--out", (dir / "b").string()});
  RunDrainsim({"run", scenario, "--seed", "6", "--out", (dir / "c").string()});
  const std::string a = ReadFile((dir / "a" / "report.json").string());
  const std::string b = ReadFile((dir / "b" / "report.json").string());
  const std::string c = ReadFile((dir / "c" / "report.json").string());
  REQUIRE(!a.empty());
  CHECK(a == b);
  const auto fingerprint = [](const std::string& report) {
    const size_t at = report.find("\"fingerprint\"");
    return report.substr(at, 40);
  };
  CHECK(fingerprint(a) != fingerprint(c));
  fs::remove_all(dir);
}

TEST_CASE("run of a bad scenario exits 2 and writes nothing", "[cli][run]") {
  const fs::path dir = FreshDir("bad");
  const std::string scenario = WriteScenario(dir, R"({"format_version": 1, "name": "bad",
    "run": {"until_s": 60}, "kinds": {"job": {}}, "workers": {"count": 0},
    "producers": [{"kind": "job", "burst": {"at_s": 0, "count": 1}}]})");
  ProcessResult r = RunDrainsim({"run", scenario, "--out", (dir / "out").string()});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find("/workers/count") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "out"));
  fs::remove_all(dir);
}

TEST_CASE("run answers --help and refuses a bad seed", "[cli][run]") {
  ProcessResult help = RunDrainsim({"run", "--help"});
  CHECK(help.exit_code == 0);
  CHECK(help.stdout_text.find("usage: drainsim run") != std::string::npos);
  ProcessResult bad =
      RunDrainsim({"run", kSource + "/scenarios/monthly-rehearsal.json", "--seed", "minus-one"});
  CHECK(bad.exit_code == 2);
}

}  // namespace
}  // namespace run_test
}  // namespace drainsim::testing
