// A run that breaks a model invariant (Results::model_error, a drainsim bug) is never passed
// off as a result: `run` and every experiment command exit 3 with what is stuck and a reproduce
// line on stderr, and write nothing. The stall is made on purpose with the test-only environment
// variable DRAINSIM_TEST_STALL_AT_S (RunOptions::test_stall_at).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli/process.h"

namespace drainsim::testing {
namespace model_error_test {
namespace {

namespace fs = std::filesystem;

// 100 jobs of 1 s on 2 workers: done at 50 s, long before run.until.
const char* kDrain = R"({"format_version": 1, "name": "drain", "seed": 5, "run": {"until_s": 600},
  "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1000}}}},
  "backlog": [{"where": "main", "kind": "job", "count": 100}],
  "workers": {"count": 2, "prefetch": 1, "concurrency": 1},
  "expect": [{"metric": "lost", "max": 0}]})";

// Sets the variable for the life of the guard (the child processes inherit it).
class StallAt {
 public:
  explicit StallAt(const char* seconds) { setenv("DRAINSIM_TEST_STALL_AT_S", seconds, 1); }
  ~StallAt() { unsetenv("DRAINSIM_TEST_STALL_AT_S"); }
};

fs::path Setup(const std::string& name, std::string* scenario) {
  const fs::path dir = fs::temp_directory_path() / ("drainsim-model-error-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  *scenario = (dir / "drain.json").string();
  std::ofstream(*scenario) << kDrain;
  return dir;
}

void CheckModelError(const ProcessResult& r, const std::string& reproduce) {
  CHECK(r.exit_code == 3);
  CHECK(r.stderr_text.find("model error (a drainsim bug") != std::string::npos);
  CHECK(r.stderr_text.find("invariant quiet_end broken: ") != std::string::npos);
  CHECK(r.stderr_text.find(" ready, 0 delayed, 0 in flight) when nothing was left to happen") !=
        std::string::npos);
  CHECK(r.stderr_text.find("reproduce: " + reproduce) != std::string::npos);
}

TEST_CASE("run: a model error exits 3, says what is stuck and writes no report", "[cli][run]") {
  std::string scenario;
  const fs::path dir = Setup("run", &scenario);
  const std::string out = (dir / "out").string();
  {
    const StallAt stall("10");
    CheckModelError(RunDrainsim({"run", scenario, "--out", out}),
                    "drainsim run " + scenario + " --seed 5");
  }
  CHECK_FALSE(fs::exists(out));
  // Without the stall the same run passes: the exit code is the stall's.
  CHECK(RunDrainsim({"run", scenario, "--out", out}).exit_code == 0);
  fs::remove_all(dir);
}

TEST_CASE("experiments: a model error in any run stops them with exit 3", "[cli][experiments]") {
  std::string scenario;
  const fs::path dir = Setup("experiments", &scenario);
  const std::string out = (dir / "out").string();
  const StallAt stall("10");
  const std::vector<std::vector<std::string>> commands = {
      {"run", scenario, "--replications", "3", "--out", out},
      {"compare", scenario, scenario, "--replications", "2", "--out", out},
      {"sweep", scenario, "--vary", "/workers/count=2,3", "--replications", "2", "--out", out},
      {"tune", scenario, "--param", "/workers/count", "--range", "1:4", "--minimize",
       "--constraint", "lost<=0", "--replications", "2", "--out", out},
  };
  for (const std::vector<std::string>& args : commands) {
    INFO(args[0] << " " << args[2]);
    std::string reproduce = "drainsim";
    // Shell-quoted where it needs it: the constraint's '<'.
    for (const std::string& arg : args) {
      reproduce += " " + (arg.find('<') == std::string::npos ? arg : "'" + arg + "'");
    }
    const ProcessResult r = RunDrainsim(args);
    CheckModelError(r, reproduce);
    CHECK(r.stderr_text.find("in the run of scenario 'drain' with seed ") != std::string::npos);
    CHECK_FALSE(fs::exists(out));
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace model_error_test
}  // namespace drainsim::testing
