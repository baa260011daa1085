// The command line as a user meets it: help, version, exit codes, check and dump.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/cli/process.h"

namespace drainsim::testing {
namespace cli_test {
namespace {

namespace fs = std::filesystem;

const std::string kSource = DRAINSIM_SOURCE_DIR;

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST_CASE("version: names the version and the commit", "[cli]") {
  ProcessResult r = RunDrainsim({"--version"});
  CHECK(r.exit_code == 0);
  CHECK(Contains(r.stdout_text, "drainsim 0."));
  CHECK(Contains(r.stdout_text, "(commit "));
}

TEST_CASE("help: lists every subcommand and exits 0", "[cli]") {
  ProcessResult r = RunDrainsim({"--help"});
  CHECK(r.exit_code == 0);
  CHECK(Contains(r.stdout_text, "check"));
  CHECK(Contains(r.stdout_text, "dump"));
  CHECK(Contains(r.stdout_text, "exit codes"));
}

TEST_CASE("each subcommand answers --help with its usage", "[cli]") {
  for (const char* sub : {"check", "dump"}) {
    INFO(sub);
    ProcessResult r = RunDrainsim({sub, "--help"});
    CHECK(r.exit_code == 0);
    CHECK(Contains(r.stdout_text, std::string("usage: drainsim ") + sub));
    CHECK(r.stderr_text.empty());
  }
}

TEST_CASE("usage errors exit 2 with a message", "[cli]") {
  SECTION("no command") { CHECK(RunDrainsim({}).exit_code == 2); }
  SECTION("unknown command") {
    ProcessResult r = RunDrainsim({"frobnicate"});
    CHECK(r.exit_code == 2);
    CHECK(Contains(r.stderr_text, "unknown command 'frobnicate'"));
  }
  SECTION("unknown option") {
    ProcessResult r =
        RunDrainsim({"check", "--bogus", kSource + "/scenarios/monthly-rehearsal.json"});
    CHECK(r.exit_code == 2);
    CHECK(Contains(r.stderr_text, "bogus"));
  }
  SECTION("missing scenario") {
    ProcessResult r = RunDrainsim({"check"});
    CHECK(r.exit_code == 2);
    CHECK(Contains(r.stderr_text, "usage: drainsim check"));
  }
  SECTION("dump takes exactly one scenario") {
    ProcessResult r = RunDrainsim({"dump", "a.json", "b.json"});
    CHECK(r.exit_code == 2);
  }
}

TEST_CASE("check accepts every shipped scenario", "[cli]") {
  int count = 0;
  for (const auto& entry : fs::directory_iterator(kSource + "/scenarios")) {
    if (entry.path().extension() != ".json" || entry.path().filename() == "schema.json") continue;
    INFO(entry.path().string());
    ProcessResult r = RunDrainsim({"check", entry.path().string()});
    CHECK(r.exit_code == 0);
    // Only preset-bullmq.json has a plausibility warning, on purpose (plausibility_test.cc).
    if (entry.path().filename() == "preset-bullmq.json") {
      CHECK(Contains(r.stderr_text, ": warning: "));
    } else {
      CHECK(r.stderr_text.empty());
    }
    CHECK(Contains(r.stdout_text, ": ok"));
    ++count;
  }
  CHECK(count >= 1);
}

TEST_CASE("check scenarios/*.json passes: the JSON Schema next to them is skipped", "[cli]") {
  // What a shell makes of `drainsim check scenarios/*.json`: every match, sorted.
  std::vector<std::string> paths;
  for (const auto& entry : fs::directory_iterator(kSource + "/scenarios")) {
    if (entry.path().extension() == ".json") paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  const std::string schema = kSource + "/scenarios/schema.json";
  REQUIRE(std::find(paths.begin(), paths.end(), schema) != paths.end());
  REQUIRE(paths.size() >= 3);
  std::vector<std::string> args = {"check"};
  args.insert(args.end(), paths.begin(), paths.end());
  ProcessResult r = RunDrainsim(args);
  INFO(r.stdout_text << r.stderr_text);
  CHECK(r.exit_code == 0);
  // The one warning line: preset-bullmq.json's lock, on purpose.
  CHECK(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n') == 1);
  CHECK(Contains(r.stderr_text, "preset-bullmq.json: /broker/visibility_timeout_s: warning: "));
  CHECK(Contains(r.stdout_text, schema + ": skipped (a JSON Schema document, not a scenario)\n"));
  for (const std::string& path : paths) {
    const bool warned = path.ends_with("/preset-bullmq.json");
    if (path != schema)
      CHECK(Contains(r.stdout_text, path + (warned ? ": ok (with warnings)\n" : ": ok\n")));
  }
}

TEST_CASE("only check skips a JSON Schema: dump refuses it as a scenario", "[cli]") {
  const std::string schema = kSource + "/scenarios/schema.json";
  ProcessResult dump = RunDrainsim({"dump", schema});
  CHECK(dump.exit_code == 2);
  CHECK(dump.stdout_text.empty());
  CHECK(Contains(dump.stderr_text, schema + ": /format_version: is required"));
  // A JSON Schema that is not drainsim's is skipped too; a "$schema" elsewhere is not enough.
  const fs::path dir =
      fs::temp_directory_path() / ("drainsim-cli-schema-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string other = (dir / "other.json").string();
  const std::string not_schema = (dir / "not-schema.json").string();
  { std::ofstream(other) << R"({"$schema": "http://json-schema.org/draft-07/schema#"})"; }
  { std::ofstream(not_schema) << R"({"$schema": "./schema.json", "format_version": 1})"; }
  ProcessResult r = RunDrainsim({"check", other, not_schema});
  CHECK(r.exit_code == 2);
  CHECK(Contains(r.stdout_text, other + ": skipped (a JSON Schema document, not a scenario)"));
  CHECK(Contains(r.stderr_text, not_schema + ": /name: is required"));
  fs::remove_all(dir);
}

TEST_CASE("a scenario naming its schema in \"$schema\" loads, a non-string $schema is exit 2",
          "[cli][schema]") {
  // What an editor set-up writes (README "Editing scenarios"): the installed schema's path.
  std::ifstream in(kSource + "/scenarios/monthly-rehearsal.json");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t brace = text.find('{');
  REQUIRE(brace != std::string::npos);
  const fs::path dir =
      fs::temp_directory_path() / ("drainsim-cli-dollar-schema-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string named = (dir / "named.json").string();
  const std::string bad = (dir / "bad.json").string();
  std::ofstream(named) << text.substr(0, brace + 1)
                       << "\n  \"$schema\": \"/usr/share/drainsim/schema.json\","
                       << text.substr(brace + 1);
  std::ofstream(bad) << text.substr(0, brace + 1) << "\n  \"$schema\": 7,"
                     << text.substr(brace + 1);
  ProcessResult r = RunDrainsim({"check", named});
  CHECK(r.exit_code == 0);
  CHECK(Contains(r.stdout_text, named + ": ok"));
  // Ignored by the model: the canonical dump is the scenario's own, without "$schema".
  ProcessResult dump = RunDrainsim({"dump", named});
  CHECK(dump.exit_code == 0);
  CHECK(dump.stdout_text ==
        RunDrainsim({"dump", kSource + "/scenarios/monthly-rehearsal.json"}).stdout_text);
  CHECK_FALSE(Contains(dump.stdout_text, "$schema"));
  r = RunDrainsim({"check", bad});
  CHECK(r.exit_code == 2);
  CHECK(Contains(r.stderr_text, bad + ": /$schema: must be a string (got 7)"));
  fs::remove_all(dir);
}

TEST_CASE("check reports each file: valid ones ok, the run fails if any is bad", "[cli]") {
  const std::string good = kSource + "/scenarios/monthly-rehearsal.json";
  const std::string bad = kSource + "/tests/bad_inputs/does-not-exist.json";
  ProcessResult r = RunDrainsim({"check", good, bad});
  CHECK(r.exit_code == 2);
  CHECK(Contains(r.stdout_text, good + ": ok"));
  CHECK(Contains(r.stderr_text, bad + ": "));
}

TEST_CASE("a plausibility warning: check passes, check --strict fails, run prints it once",
          "[cli]") {
  // preset-bullmq.json renders for up to 45 s under BullMQ's 30 s lock, on purpose.
  const std::string path = kSource + "/scenarios/preset-bullmq.json";
  const std::string warning = path + ": /broker/visibility_timeout_s: warning: 30 s is shorter";
  ProcessResult check = RunDrainsim({"check", path});
  CHECK(check.exit_code == 0);
  CHECK(Contains(check.stdout_text, path + ": ok (with warnings)"));
  CHECK(Contains(check.stderr_text, warning));
  ProcessResult strict = RunDrainsim({"check", "--strict", path});
  CHECK(strict.exit_code == 2);
  CHECK_FALSE(Contains(strict.stdout_text, ": ok"));
  CHECK(Contains(strict.stderr_text, warning));
  ProcessResult run = RunDrainsim({"run", path, "--expect-only"});
  INFO(run.stderr_text);
  CHECK(run.exit_code == 0);
  const size_t first = run.stderr_text.find(warning);
  REQUIRE(first != std::string::npos);
  CHECK(run.stderr_text.find(warning, first + 1) == std::string::npos);
  // Without warnings, --strict changes nothing.
  const std::string clean = kSource + "/scenarios/monthly-rehearsal.json";
  ProcessResult plain = RunDrainsim({"check", "--strict", clean});
  CHECK(plain.exit_code == 0);
  CHECK(Contains(plain.stdout_text, clean + ": ok\n"));
}

TEST_CASE("dump prints a canonical form that checks and dumps to itself", "[cli]") {
  ProcessResult first = RunDrainsim({"dump", kSource + "/scenarios/monthly-rehearsal.json"});
  REQUIRE(first.exit_code == 0);
  REQUIRE(!first.stdout_text.empty());
  const fs::path tmp = fs::temp_directory_path() / "drainsim-cli-dump.json";
  { std::ofstream(tmp) << first.stdout_text; }
  ProcessResult second = RunDrainsim({"dump", tmp.string()});
  CHECK(second.exit_code == 0);
  CHECK(second.stdout_text == first.stdout_text);
  fs::remove(tmp);
}

TEST_CASE("dump of a bad scenario prints nothing on stdout and exits 2", "[cli]") {
  ProcessResult r = RunDrainsim({"dump", kSource + "/tests/bad_inputs/does-not-exist.json"});
  CHECK(r.exit_code == 2);
  CHECK(r.stdout_text.empty());
  CHECK(!r.stderr_text.empty());
}

}  // namespace
}  // namespace cli_test
}  // namespace drainsim::testing
