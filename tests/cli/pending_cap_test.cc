// --pending-messages-max (sim/model/memory_cost.h, README "Memory"): a run that would hold more
// messages pending at once stops there with exit 7, says when and how to reproduce it, and
// writes nothing; `run` and every experiment command; a run under the cap is untouched.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/cli/process.h"

namespace drainsim::testing {
namespace pending_cap_test {
namespace {

namespace fs = std::filesystem;

// 10 jobs/s for 100 s into one worker that takes 1 s a job: at most about 900 pending at once.
const char* kGrowing = R"({"format_version": 1, "name": "growing", "seed": 5, "run": {"until_s": 2000},
  "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1000}}}},
  "producers": [{"kind": "job", "constant": {"rate_per_s": 10, "until_s": 100}}],
  "workers": {"count": 1, "prefetch": 1},
  "expect": [{"metric": "lost", "max": 0}]})";

fs::path Setup(const std::string& name, std::string* scenario) {
  const fs::path dir = fs::temp_directory_path() / ("drainsim-pending-cap-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  *scenario = (dir / "growing.json").string();
  std::ofstream(*scenario) << kGrowing;
  return dir;
}

void CheckStopped(const ProcessResult& r, const std::string& reproduce) {
  INFO(r.stderr_text);
  CHECK(r.exit_code == 7);
  CHECK(r.stderr_text.find("drainsim: error: more than 500 messages pending at once (the cap: "
                           "about 105 kB at 210 bytes a message) in the run of scenario "
                           "'growing' with seed ") != std::string::npos);
  CHECK(r.stderr_text.find("; the run was stopped and nothing was written") != std::string::npos);
  CHECK(r.stderr_text.find("raise --pending-messages-max") != std::string::npos);
  CHECK(r.stderr_text.find("reproduce: " + reproduce + "\n") != std::string::npos);
}

TEST_CASE("run: over --pending-messages-max exits 7 and writes nothing, under it runs",
          "[cli][run][cap]") {
  std::string scenario;
  const fs::path dir = Setup("run", &scenario);
  const std::string out = (dir / "out").string();
  const std::vector<std::string> args = {"run", scenario, "--out", out, "--format", "json,md,csv",
                                         "--pending-messages-max", "500"};
  const ProcessResult stopped = RunDrainsim(args);
  std::string reproduce = "drainsim";
  for (const std::string& arg : args) reproduce += " " + arg;
  CheckStopped(stopped, reproduce);
  CHECK(stopped.stdout_text.empty());
  CHECK_FALSE(fs::exists(out));
  // The same instant every time: where a run stops depends on the scenario, seed and cap only.
  CHECK(RunDrainsim(args).stderr_text == stopped.stderr_text);
  // Room for everything published (1000): the run passes and writes its files.
  const ProcessResult passed = RunDrainsim(
      {"run", scenario, "--out", out, "--format", "json", "--pending-messages-max", "1000"});
  INFO(passed.stderr_text);
  CHECK(passed.exit_code == 0);
  CHECK(fs::exists(fs::path(out) / "report.json"));
  // An earlier run's files stay as they were when a later run is stopped.
  const std::string before = ReadFile((fs::path(out) / "report.json").string());
  CHECK(RunDrainsim({"run", scenario, "--out", out, "--pending-messages-max", "500"}).exit_code ==
        7);
  CHECK(ReadFile((fs::path(out) / "report.json").string()) == before);
  fs::remove_all(dir);
}

TEST_CASE("run: a --pending-messages-max out of range is a usage error", "[cli][cap]") {
  std::string scenario;
  const fs::path dir = Setup("usage", &scenario);
  for (const char* value : {"0", "-5", "4294967295", "many"}) {
    INFO(value);
    const ProcessResult r =
        RunDrainsim({"run", scenario, "--out", (dir / "out").string(), "--pending-messages-max",
                     value});
    CHECK(r.exit_code == 2);
    CHECK(r.stderr_text.find("pending-messages-max") != std::string::npos);
  }
  CHECK_FALSE(fs::exists(dir / "out"));
  fs::remove_all(dir);
}

TEST_CASE("experiments: a run over the cap stops them with exit 7, nothing written",
          "[cli][experiments][cap]") {
  std::string scenario;
  const fs::path dir = Setup("experiments", &scenario);
  const std::string out = (dir / "out").string();
  const std::vector<std::vector<std::string>> commands = {
      {"run", scenario, "--replications", "3", "--jobs", "2", "--out", out},
      {"compare", scenario, scenario, "--replications", "2", "--out", out},
      {"sweep", scenario, "--vary", "/workers/count=1,2", "--replications", "2", "--out", out},
      {"tune", scenario, "--param", "/workers/count", "--range", "1:4", "--minimize",
       "--constraint", "lost<=0", "--replications", "2", "--out", out},
  };
  for (std::vector<std::string> args : commands) {
    args.push_back("--pending-messages-max");
    args.push_back("500");
    INFO(args[0] << " " << args[2]);
    std::string reproduce = "drainsim";
    for (const std::string& arg : args) {
      reproduce += " " + (arg.find('<') == std::string::npos ? arg : "'" + arg + "'");
    }
    CheckStopped(RunDrainsim(args), reproduce);
    CHECK_FALSE(fs::exists(out));
  }
  // Under the cap the same sweep runs.
  const ProcessResult sweep = RunDrainsim({"sweep", scenario, "--vary", "/workers/count=1,2",
                                           "--replications", "2", "--out", out,
                                           "--pending-messages-max", "1000"});
  INFO(sweep.stderr_text);
  CHECK(sweep.exit_code == 0);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pending_cap_test
}  // namespace drainsim::testing
