// Where the commands write, and what they refuse before simulating (issue 20): a scenario's
// name never writes outside out/ (defect 5), an unusable --out is found before anything runs
// and a pointer varied twice is refused (defect 10), and a negative number for an unsigned
// option is refused instead of wrapping (defect 8).
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>

#include "tests/cli/output_set_support.h"

namespace drainsim::testing {
namespace out_dir_test {
namespace {

// kSmallScenario with its name replaced.
std::string Named(const std::string& name) {
  std::string text = kSmallScenario;
  const std::string from = "\"name\": \"small\"";
  text.replace(text.find(from), from.size(), "\"name\": \"" + name + "\"");
  return text;
}

// Every file under `dir`, as paths relative to it.
std::vector<std::string> FilesUnder(const fs::path& dir) {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) files.push_back(fs::relative(entry.path(), dir).string());
  }
  return files;
}

// The writers run without --out from `work`, on `scenario`; merge on a part written with --out.
std::vector<std::vector<std::string>> WritersWithoutOut(const fs::path& base,
                                                        const std::string& scenario) {
  const fs::path parts = base / "parts";
  fs::remove_all(parts);
  RunDrainsim({"run", scenario, "--replications", "2", "--shard", "1/1", "--out", parts.string()});
  return {
      {"run", scenario},
      {"run", scenario, "--replications", "2", "--metric", "attempts"},
      {"sweep", scenario, "--vary", "/workers/count=2,3", "--replications", "1", "--metric",
       "attempts"},
      {"compare", scenario, scenario, "--replications", "2", "--metric", "attempts"},
      {"tune", scenario, "--param", "/workers/count", "--range", "1:3", "--minimize",
       "--constraint", "lost<=0", "--replications", "2"},
      {"merge", (parts / "part-1-of-1.json").string()},
  };
}

TEST_CASE("a scenario name never writes outside out/, in every writer", "[cli][output]") {
  const fs::path base = FreshTestDir("names");
  const fs::path work = base / "a" / "b";
  fs::create_directories(work);
  const fs::path absolute = base / "absolute-target";
  for (const std::string& name : {absolute.string(), std::string(".."), std::string("../../x"),
                                  std::string("."), std::string("a/../../..")}) {
    INFO("name: " << name);
    const std::string scenario = WriteText(base / "named.json", Named(name));
    for (const std::vector<std::string>& command : WritersWithoutOut(base, scenario)) {
      INFO(command[0] << " (" << command.size() << " arguments)");
      fs::remove_all(work / "out");
      const ProcessResult r = RunDrainsim(command, work.string());
      INFO(r.stderr_text);
      CHECK(r.exit_code == 0);
      // compare-..-vs-.. is a safe name: only a '/' needs changing there.
      if (command[0] != "compare" || name.find('/') != std::string::npos) {
        CHECK(r.stderr_text.find("not a safe directory name") != std::string::npos);
      }
      // Exactly one directory in out/, holding every file written.
      size_t entries = 0;
      for (const auto& entry : fs::directory_iterator(work / "out")) {
        ++entries;
        CHECK(entry.is_directory());
      }
      CHECK(entries == 1);
      CHECK_FALSE(FilesUnder(work / "out").empty());
      for (const std::string& file : FilesUnder(base)) {
        INFO(file);
        CHECK((file == "named.json" || file.rfind("parts/", 0) == 0 ||
               file.rfind("a/b/out/", 0) == 0));
      }
      CHECK_FALSE(fs::exists(absolute));
    }
  }
}

TEST_CASE("an unusable --out is refused before anything is simulated, in every writer",
          "[cli][output]") {
  const fs::path base = FreshTestDir("unusable-out");
  const std::string scenario = WriteText(base / "small.json", kSmallScenario);
  const std::string file = WriteText(base / "a-file", "not a directory\n");
  for (const std::string& out : {file, file + "/below"}) {
    for (std::vector<std::string> command : WritersWithoutOut(base, scenario)) {
      INFO(command[0] << " --out " << out);
      command.insert(command.end(), {"--out", out});
      const ProcessResult r = RunDrainsim(command);
      CHECK(r.exit_code == 2);
      CHECK(r.stderr_text.find("cannot use --out " + out + ": " + file + ": Not a directory") !=
            std::string::npos);
      CHECK(r.stdout_text.empty());
    }
  }
  // Before, not after: 200 runs that would take seconds are not started.
  const auto start = std::chrono::steady_clock::now();
  const ProcessResult r = RunDrainsim(
      {"sweep", scenario, "--vary", "/workers/count=1,2", "--replications", "100", "--out", file});
  const double elapsed_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(r.exit_code == 2);
  CHECK(elapsed_s < 1.5);
}

TEST_CASE("sweep refuses a pointer varied twice", "[cli][output]") {
  const fs::path base = FreshTestDir("vary-twice");
  const std::string scenario = WriteText(base / "small.json", kSmallScenario);
  const ProcessResult r = RunDrainsim({"sweep", scenario, "--vary", "/workers/count=1,2", "--vary",
                                       "/workers/count=3,4", "--out", (base / "out").string()});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find("--vary /workers/count is given twice") != std::string::npos);
  CHECK_FALSE(fs::exists(base / "out"));
}

TEST_CASE("a negative number for an unsigned option is refused, in every subcommand",
          "[cli][options]") {
  const fs::path base = FreshTestDir("negative");
  const std::string scenario = WriteText(base / "small.json", kSmallScenario);
  const std::string out = (base / "out").string();
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"--seed", {"run", scenario, "--seed", "-1", "--out", out}},
      {"--seed", {"run", scenario, "--seed=-5", "--replications", "2", "--out", out}},
      {"--seed", {"sweep", scenario, "--vary", "/workers/count=1", "--seed", "-1"}},
      {"--seed", {"compare", scenario, scenario, "--seed", "-1"}},
      {"--seed",
       {"tune", scenario, "--param", "/workers/count", "--range", "1:3", "--minimize",
        "--constraint", "lost<=0", "--seed", "-1"}},
      {"--seed", {"explain", scenario, "--message", "1", "--seed", "-1"}},
      {"--message", {"explain", scenario, "--message", "-1"}},
      {"--seeds", {"swarm", scenario, "--seeds", "-1"}},
      {"--first-seed", {"swarm", scenario, "--first-seed", "-3"}},
      {"--seed", {"swarm", scenario, "--seed", "-1"}},
  };
  for (const auto& [option, args] : cases) {
    INFO(args[0] << " " << option);
    const ProcessResult r = RunDrainsim(args);
    CHECK(r.exit_code == 2);
    CHECK(r.stderr_text.find(option + " must not be negative") != std::string::npos);
    CHECK(r.stdout_text.empty());
  }
  CHECK_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace out_dir_test
}  // namespace drainsim::testing
