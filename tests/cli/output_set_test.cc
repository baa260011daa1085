// The output set (tools/drainsim/output_set.h) through every writer path: a failure at any
// file-system step, or a SIGINT/SIGTERM at any step, leaves the complete old set or the
// complete new set, never a mix, no staging file, and files drainsim did not write untouched.
// The failures and signals come from the test binary drainsim_output_faults
// (tools/drainsim/output_faults.h).
#include <signal.h>

#include <catch2/catch.hpp>
#include <cstring>

#include "tests/cli/output_set_support.h"

namespace drainsim::testing {
namespace output_set_test {
namespace {

const std::string kFaults = DRAINSIM_FAULTS_BINARY;
// Every step in the plain suite; every few under the sanitizers, where a process costs more.
constexpr int kStride = DRAINSIM_OUTPUT_FAULT_STRIDE;

struct Sets {
  FileSet old_set;   // the output directory before: the seed-1 output and a user's file
  FileSet new_set;   // what it must hold after a success
  int new_exit = 0;  // the exit code of the successful new run
};

// Runs the writer's old invocation into `out` (and adds a user's file), and the new one into
// a reference directory.
Sets MakeSets(const Writer& writer, const fs::path& base, const fs::path& out) {
  Sets sets;
  const fs::path reference = base / "reference";
  fs::remove_all(reference);
  const ProcessResult made = RunDrainsim(writer.args(base, reference, true));
  REQUIRE((made.exit_code == 0 || made.exit_code == 1));
  sets.new_exit = made.exit_code;
  fs::remove_all(out);
  const ProcessResult old_run = RunDrainsim(writer.args(base, out, false));
  REQUIRE((old_run.exit_code == 0 || old_run.exit_code == 1));
  WriteText(out / "notes.txt", "a file drainsim did not write\n");
  sets.old_set = ReadSet(out);
  sets.new_set = sets.old_set;
  for (const auto& [name, text] : ReadSet(reference)) sets.new_set[name] = text;
  REQUIRE(sets.new_set != sets.old_set);
  return sets;
}

std::string Names(const FileSet& files) {
  std::string names;
  for (const auto& entry : files) names += entry.first + " ";
  return names;
}

TEST_CASE("output set: a failure at any step of any writer leaves the whole old set",
          "[cli][output]") {
  const fs::path base = FreshTestDir("faults");
  PrepareWriters(base);
  const fs::path out = base / "out";
  const std::pair<const char*, int> errnos[] = {
      {"ENOSPC", ENOSPC}, {"EIO", EIO}, {"EISDIR", EISDIR}};
  for (const Writer& writer : Writers()) {
    INFO(writer.name);
    const Sets sets = MakeSets(writer, base, out);
    int failures = 0;
    for (int step = 1;; step += kStride) {
      REQUIRE(step < 1000);
      INFO("step " << step);
      const auto& [errno_name, errno_value] = errnos[step % 3];
      RestoreSet(out, sets.old_set);
      const ProcessResult r =
          RunBinary(kFaults, writer.args(base, out, true),
                    {"DRAINSIM_TEST_FAIL_STEP=" + std::to_string(step) + ":" + errno_name});
      INFO(r.stderr_text);
      const FileSet now = ReadSet(out);
      INFO("now: " << Names(now));
      if (r.exit_code != 2) {  // past the last step: the write succeeded
        CHECK(r.exit_code == sets.new_exit);
        CHECK(now == sets.new_set);
        break;
      }
      ++failures;
      CHECK(now == sets.old_set);
      CHECK(r.stderr_text.find(std::strerror(errno_value)) != std::string::npos);
      CHECK(r.stderr_text.find(out.string()) != std::string::npos);
    }
    // Each file is opened, written, synced, closed, linked and renamed: all were tried.
    CHECK(failures * kStride >= 6 * static_cast<int>(sets.new_set.size() - 1));
  }
}

TEST_CASE("output set: SIGINT or SIGTERM at any step leaves a whole set and no staging file",
          "[cli][output]") {
  const fs::path base = FreshTestDir("signals");
  PrepareWriters(base);
  const fs::path out = base / "out";
  // `run` alone: every writer shares the one module, and the failure test covers them all.
  for (const Writer& writer : {Writers()[0]}) {
    INFO(writer.name);
    const Sets sets = MakeSets(writer, base, out);
    int signalled = 0;
    for (int step = 1;; step += kStride) {
      REQUIRE(step < 1000);
      INFO("step " << step);
      const bool interrupt = step % 2 == 0;
      RestoreSet(out, sets.old_set);
      const ProcessResult r = RunBinary(
          kFaults, writer.args(base, out, true),
          {"DRAINSIM_TEST_SIGNAL_STEP=" + std::to_string(step) + (interrupt ? ":INT" : ":TERM")});
      const FileSet now = ReadSet(out);
      INFO("now: " << Names(now));
      if (r.signal == 0) {
        CHECK(r.exit_code == sets.new_exit);
        CHECK(now == sets.new_set);
        break;
      }
      ++signalled;
      CHECK(r.signal == (interrupt ? SIGINT : SIGTERM));
      CHECK((now == sets.old_set || now == sets.new_set));
    }
    CHECK(signalled >= 10 / kStride);
  }
}

TEST_CASE("output set: a SIGINT from outside while the set is switched leaves a whole set",
          "[cli][output]") {
  const fs::path base = FreshTestDir("outside-signal");
  PrepareWriters(base);
  const fs::path out = base / "out";
  const Sets sets = MakeSets(Writers()[0], base, out);
  // Step 20 of run's four files: steps 1-17 stage them, 18 makes the backup directory, 19
  // links the first earlier file aside, 20 renames the first new one into place.
  Spawned child = Spawn(kFaults, RunArgs(base, out, true), {"DRAINSIM_TEST_PAUSE_STEP=20"});
  REQUIRE(child.pid > 0);
  const bool paused = WaitForStderr(child, "paused at step 20", 30'000);
  kill(child.pid, SIGINT);
  const ProcessResult r = Wait(child);
  REQUIRE(paused);
  CHECK(r.signal == SIGINT);
  const FileSet now = ReadSet(out);
  INFO("now: " << Names(now));
  CHECK((now == sets.old_set || now == sets.new_set));
}

TEST_CASE("output set: a name that is a directory fails the run before any file is replaced",
          "[cli][output]") {
  const fs::path base = FreshTestDir("junit-dir");
  WriteText(base / "small.json", kSmallScenario);
  const fs::path out = base / "out";
  const ProcessResult old_run = RunDrainsim(
      {"run", (base / "small.json").string(), "--format", "json,md", "--out", out.string()});
  REQUIRE(old_run.exit_code == 0);
  fs::create_directories(out / "junit.xml");
  WriteText(out / "junit.xml" / "keep", "mine\n");
  const FileSet before = ReadSet(out);
  const ProcessResult r = RunDrainsim({"run", (base / "small.json").string(), "--seed", "9",
                                       "--format", "json,md,junit,csv", "--out", out.string()});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find((out / "junit.xml").string() + ": " + std::strerror(EISDIR)) !=
        std::string::npos);
  CHECK(ReadSet(out) == before);  // report.json and report.md are the old ones
  CHECK(ReadFile((out / "junit.xml" / "keep").string()) == "mine\n");
}

TEST_CASE("output set: a re-run with fewer formats replaces only what it writes", "[cli][output]") {
  const fs::path base = FreshTestDir("fewer");
  WriteText(base / "small.json", kSmallScenario);
  const fs::path out = base / "out";
  REQUIRE(RunDrainsim(
              {"run", (base / "small.json").string(), "--format", "json,md", "--out", out.string()})
              .exit_code == 0);
  WriteText(out / "notes.txt", "mine\n");
  const std::string old_md = ReadFile((out / "report.md").string());
  const std::string old_json = ReadFile((out / "report.json").string());
  REQUIRE(RunDrainsim({"run", (base / "small.json").string(), "--seed", "9", "--out", out.string()})
              .exit_code == 0);
  CHECK(ReadFile((out / "report.json").string()) != old_json);
  CHECK(ReadFile((out / "report.md").string()) == old_md);  // left, as output_set.h decides
  CHECK(ReadFile((out / "notes.txt").string()) == "mine\n");
  CHECK(ReadSet(out).size() == 3);  // nothing staged left behind
}

}  // namespace
}  // namespace output_set_test
}  // namespace drainsim::testing
