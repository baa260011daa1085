// `drainsim swarm` as a user runs it: hundreds of seeds over shipped scenarios pass; a bound too
// short fails liveness with a reproduce line that fails the same way; bad input is exit 2.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/process.h"

namespace drainsim::testing {
namespace swarm_cli_test {
namespace {

namespace fs = std::filesystem;

const std::string kSource = DRAINSIM_SOURCE_DIR;
// 200 in the plain suite (the issue's bar); fewer under the sanitizers (CMakeLists.txt).
constexpr int kSeeds = DRAINSIM_SWARM_SEEDS;

std::string Scenario(const std::string& name) { return kSource + "/scenarios/" + name; }

// The lines of `text` that contain `needle`.
std::vector<std::string> LinesWith(const std::string& text, const std::string& needle) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.find(needle) != std::string::npos) lines.push_back(line);
  }
  return lines;
}

// Splits a reproduce line after "reproduce: drainsim " into arguments (the paths used here
// need no quoting).
std::vector<std::string> ReproduceArgs(const std::string& line) {
  const std::string marker = "reproduce: drainsim ";
  const size_t at = line.find(marker);
  REQUIRE(at != std::string::npos);
  std::istringstream in(line.substr(at + marker.size()));
  std::vector<std::string> args;
  for (std::string word; in >> word;) args.push_back(word);
  return args;
}

void ExpectAllPass(const std::vector<std::string>& args) {
  const ProcessResult r = RunDrainsim(args);
  INFO(r.stdout_text);
  INFO(r.stderr_text);
  CHECK(r.signal == 0);
  CHECK(r.exit_code == 0);
  const std::string summary = "swarm: " + std::to_string(kSeeds) + " seeds run, " +
                              std::to_string(kSeeds) + " passed, 0 failed";
  CHECK(r.stdout_text.find(summary) != std::string::npos);
  CHECK(r.stdout_text.find("reproduce:") == std::string::npos);
}

TEST_CASE("swarm: every seed passes on poison-pills", "[chaos][swarm][cli]") {
  ExpectAllPass({"swarm", Scenario("poison-pills.json"), "--seeds", std::to_string(kSeeds),
                 "--safety-s", "600", "--jobs", "2"});
}

// From seed 1000: where the first runs found the slow-poison cycle (docs/SWARM.md).
TEST_CASE("swarm: every seed passes on lost-acks", "[chaos][swarm][cli]") {
  ExpectAllPass({"swarm", Scenario("lost-acks.json"), "--seeds", std::to_string(kSeeds),
                 "--first-seed", "1000", "--safety-s", "600", "--jobs", "2"});
}

TEST_CASE("swarm: every seed passes on monthly-rehearsal, database and downstream faults",
          "[chaos][swarm][cli]") {
  ExpectAllPass({"swarm", Scenario("monthly-rehearsal.json"), "--seeds", std::to_string(kSeeds),
                 "--safety-s", "300", "--jobs", "2"});
}

TEST_CASE("swarm: a liveness bound too short exits 4 and its reproduce line fails the same way",
          "[chaos][swarm][cli]") {
  // 3000 notifications fanned out at 60 s against a 20 calls/s API cannot all rest by 62 s.
  const ProcessResult r = RunDrainsim({"swarm", Scenario("retry-storm-full-jitter.json"), "--seeds",
                                       "3", "--safety-s", "61", "--liveness-s", "1"});
  INFO(r.stdout_text);
  INFO(r.stderr_text);
  CHECK(r.exit_code == 4);
  CHECK(r.stdout_text.find("liveness bound 1 s") != std::string::npos);
  CHECK(r.stdout_text.find("swarm: 3 seeds run, 0 passed, 3 failed (0 crash, 0 correctness, "
                           "3 liveness, 0 timeout)") != std::string::npos);
  const std::vector<std::string> failures = LinesWith(r.stdout_text, "FAIL liveness");
  const std::vector<std::string> problems = LinesWith(r.stdout_text, "liveness: ");
  const std::vector<std::string> reproduce = LinesWith(r.stdout_text, "reproduce: ");
  REQUIRE(failures.size() == 3);
  REQUIRE(problems.size() == 3);
  REQUIRE(reproduce.size() == 3);
  CHECK(failures[1] == "seed 2: FAIL liveness");
  CHECK(reproduce[1] == "  reproduce: drainsim swarm " + Scenario("retry-storm-full-jitter.json") +
                            " --seed 2 --safety-s 61 --liveness-s 1 --verbose");

  const ProcessResult again = RunDrainsim(ReproduceArgs(reproduce[1]));
  INFO(again.stdout_text);
  CHECK(again.exit_code == 4);
  CHECK(again.stdout_text.find(problems[1]) != std::string::npos);
  CHECK(again.stdout_text.find("seed 2: FAIL liveness") != std::string::npos);
  CHECK(again.stdout_text.find("fault: ") != std::string::npos);  // --verbose shows the faults
}

TEST_CASE("swarm: a Kafka consumer slower than max.poll.interval.ms never rests: liveness, exit 4",
          "[chaos][swarm][cli][kafka]") {
  // Every run of the record takes 400 s against the preset's 300 s max.poll.interval.ms: it is
  // fetched again after each run and never committed (tests/model/kafka_partitions_test.cc), so
  // the swarm's liveness check flags it whatever faults and policies it draws around it.
  const fs::path dir = fs::temp_directory_path() / "drainsim-swarm-test-kafka-loop";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path file = dir / "loop.json";
  std::ofstream(file) << R"({"format_version": 1, "name": "kafka-loop", "run": {"until_s": 600},
    "kinds": {"slow": {"handler": {"cpu_ms": {"constant": 400000}}}},
    "backlog": [{"where": "main", "kind": "slow", "count": 1}],
    "broker": {"preset": "kafka", "partitions": 1},
    "workers": {"count": 1}})";
  const ProcessResult r = RunDrainsim({"swarm", file.string(), "--seeds", "2", "--safety-s", "60",
                                       "--vary-policies", "none"});
  INFO(r.stdout_text);
  INFO(r.stderr_text);
  CHECK(r.exit_code == 4);
  CHECK(r.stdout_text.find("swarm: 2 seeds run, 0 passed, 2 failed (0 crash, 0 correctness, "
                           "2 liveness, 0 timeout)") != std::string::npos);
  CHECK(LinesWith(r.stdout_text, "1 messages still ready, delayed or in flight").size() == 2);
  fs::remove_all(dir);
}

TEST_CASE(
    "swarm: a Kafka batch longer than max.poll.interval.ms never commits: liveness, exit 4",
    "[chaos][swarm][cli][kafka]") {
  // AckMode.BATCH, polls of 500 records of 1 s against the preset's 300 s max.poll.interval.ms:
  // each poll's batch outlives it, the consumer leaves, the batch goes back uncommitted and is
  // polled again, for ever (tests/model/kafka_commit_test.cc).
  const fs::path dir = fs::temp_directory_path() / "drainsim-swarm-test-kafka-batch-loop";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path file = dir / "loop.json";
  std::ofstream(file) << R"({"format_version": 1, "name": "kafka-batch-loop", "run": {"until_s": 600},
    "kinds": {"k": {"handler": {"cpu_ms": {"constant": 1000}}}},
    "backlog": [{"where": "main", "kind": "k", "count": 500}],
    "broker": {"preset": "kafka", "partitions": 1, "offset_commit": "batch"},
    "workers": {"count": 1}})";
  const ProcessResult r = RunDrainsim({"swarm", file.string(), "--seeds", "2", "--safety-s", "60",
                                       "--vary-policies", "none"});
  INFO(r.stdout_text);
  INFO(r.stderr_text);
  CHECK(r.exit_code == 4);
  CHECK(r.stdout_text.find("swarm: 2 seeds run, 0 passed, 2 failed (0 crash, 0 correctness, "
                           "2 liveness, 0 timeout)") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("swarm: a dumped variant replays the same run with drainsim run", "[chaos][swarm][cli]") {
  const fs::path dir = fs::temp_directory_path() / "drainsim-swarm-test-dump";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string variant = (dir / "variant.json").string();
  const ProcessResult swarm =
      RunDrainsim({"swarm", Scenario("lost-acks.json"), "--seed", "31", "--safety-s", "300",
                   "--dump-variant", variant, "--verbose"});
  INFO(swarm.stdout_text);
  CHECK(swarm.exit_code == 0);
  const std::vector<std::string> run_line = LinesWith(swarm.stdout_text, "run: fingerprint ");
  REQUIRE(run_line.size() == 1);
  const std::string fingerprint = run_line[0].substr(run_line[0].find("fingerprint ") + 12, 16);

  const ProcessResult run = RunDrainsim({"run", variant, "--out", (dir / "out").string()});
  INFO(run.stdout_text);
  CHECK(run.exit_code == 0);
  CHECK(run.stdout_text.find("seed 31  fingerprint " + fingerprint) != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("swarm: --dump-variant shows the drawn policy, --vary-policies none draws none",
          "[chaos][swarm][cli]") {
  const fs::path dir = fs::temp_directory_path() / "drainsim-swarm-test-policy";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string variant = (dir / "variant.json").string();
  const std::vector<std::string> args = {
      "swarm", Scenario("poison-pills.json"), "--seed", "3", "--safety-s", "300", "--dump-variant",
      variant};
  const ProcessResult varied = RunDrainsim(args);
  INFO(varied.stdout_text);
  CHECK(varied.exit_code == 0);
  CHECK(LinesWith(varied.stdout_text, "policy: preset: ").size() == 1);
  CHECK(LinesWith(varied.stdout_text, "policy: breaker: ").size() == 1);
  CHECK(LinesWith(varied.stdout_text, "liveness bound: ").size() == 1);
  std::vector<std::string> none = args;
  none.insert(none.end(), {"--vary-policies", "none"});
  const ProcessResult kept = RunDrainsim(none);
  INFO(kept.stdout_text);
  CHECK(kept.exit_code == 0);
  CHECK(LinesWith(kept.stdout_text, "policy: ").empty());
  CHECK(kept.stdout_text.find("the scenario's policy") != std::string::npos);
  none.back() = "some";
  const ProcessResult bad = RunDrainsim(none);
  CHECK(bad.exit_code == 2);
  CHECK(bad.stderr_text.find("--vary-policies must be all or none") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("swarm: the output does not depend on the number of jobs", "[chaos][swarm][cli]") {
  const std::vector<std::string> args = {
      "swarm", Scenario("poison-pills.json"), "--seeds", "12", "--safety-s", "300", "--verbose"};
  std::vector<std::string> three = args;
  three.insert(three.end(), {"--jobs", "3"});
  const ProcessResult a = RunDrainsim(args);
  const ProcessResult b = RunDrainsim(three);
  CHECK(a.exit_code == 0);
  CHECK(a.stdout_text == b.stdout_text);
  CHECK(LinesWith(a.stdout_text, ": pass").size() == 12);
}

TEST_CASE("swarm: bad input and bad usage exit 2", "[chaos][swarm][cli]") {
  const std::string good = Scenario("poison-pills.json");
  const ProcessResult missing = RunDrainsim({"swarm", "/nonexistent/scenario.json"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.stderr_text.find("/nonexistent/scenario.json") != std::string::npos);
  CHECK(missing.stdout_text.find("swarm:") == std::string::npos);

  const ProcessResult bad = RunDrainsim(
      {"swarm", kSource + "/tests/bad_inputs/drain_negative_rate.json", "--seeds", "5"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.stderr_text.find("rate_per_s") != std::string::npos);

  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"swarm"},
           {"swarm", good, "--seeds", "0"},
           {"swarm", good, "--seed", "3", "--seeds", "5"},
           {"swarm", good, "--dump-variant", "/tmp/x.json"},
           {"swarm", good, "--liveness-s", "-5"},
           {"swarm", good, "--safety-s", "0"},
           {"swarm", good, "--safety-s", "nan"},
           {"swarm", good, "--jobs", "0"},
           {"swarm", good, "--seed-timeout-s", "-1"},
           {"swarm", good, "--first-seed", "18446744073709551615", "--seeds", "2"},
           {"swarm", good, "--no-such-option"}}) {
    INFO(args.back());
    const ProcessResult r = RunDrainsim(args);
    CHECK(r.exit_code == 2);
    CHECK(r.stdout_text.find("seeds run") == std::string::npos);
  }
}

TEST_CASE("swarm --help names the exit codes", "[chaos][swarm][cli]") {
  const ProcessResult r = RunDrainsim({"swarm", "--help"});
  CHECK(r.exit_code == 0);
  CHECK(r.stdout_text.find("3 a correctness failure") != std::string::npos);
  CHECK(r.stdout_text.find("4 a liveness") != std::string::npos);
  CHECK(r.stdout_text.find("5 a crash") != std::string::npos);
  CHECK(r.stdout_text.find("6 a timeout") != std::string::npos);
  CHECK(r.stdout_text.find("--liveness-s") != std::string::npos);
  const ProcessResult top = RunDrainsim({"--help"});
  CHECK(top.stdout_text.find("swarm") != std::string::npos);
}

// The pids whose parent is `parent` (from /proc), zombies left out.
std::vector<pid_t> ChildrenOf(pid_t parent) {
  std::vector<pid_t> children;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::istringstream stat(ReadFile(entry.path().string() + "/stat"));
    std::string pid, command, state;
    pid_t ppid = 0;
    // "PID (COMMAND) STATE PPID": drainsim's command has no space or parenthesis.
    if (stat >> pid >> command >> state >> ppid && ppid == parent && state != "Z") {
      children.push_back(static_cast<pid_t>(std::stol(pid)));
    }
  }
  return children;
}

// A live process, not a zombie waiting for a parent to reap it.
bool Alive(pid_t pid) {
  std::istringstream stat(ReadFile("/proc/" + std::to_string(pid) + "/stat"));
  std::string id, command, state;
  return stat >> id >> command >> state && state != "Z";
}

TEST_CASE("swarm: SIGTERM to the swarm leaves no child running", "[chaos][swarm][cli]") {
  // Full-length rehearsal seeds: each child runs for many seconds when nothing stops it.
  Spawned swarm = Spawn(DRAINSIM_BINARY, {"swarm", Scenario("monthly-rehearsal.json"), "--seeds",
                                          "100", "--jobs", "2"});
  REQUIRE(swarm.pid > 0);
  std::vector<pid_t> children;
  for (int i = 0; i < 200 && children.size() < 2; ++i) {
    usleep(20'000);
    children = ChildrenOf(swarm.pid);
  }
  REQUIRE(!children.empty());
  kill(swarm.pid, SIGTERM);
  const ProcessResult r = Wait(swarm);
  CHECK(r.signal == SIGTERM);
  bool gone = false;
  for (int i = 0; i < 100 && !gone; ++i) {  // within 2 s
    gone = std::none_of(children.begin(), children.end(), Alive);
    if (!gone) usleep(20'000);
  }
  CHECK(gone);
  for (pid_t child : children) {
    if (Alive(child)) kill(child, SIGKILL);  // leave nothing behind, even on failure
  }
}

TEST_CASE("swarm: a seed past --seed-timeout-s gets the timeout verdict and exit 6",
          "[chaos][swarm][cli]") {
  // The full-length rehearsal: its audited run takes far longer than 0.05 s.
  const ProcessResult r = RunDrainsim(
      {"swarm", Scenario("monthly-rehearsal.json"), "--seed", "7", "--seed-timeout-s", "0.05"});
  INFO(r.stdout_text);
  INFO(r.stderr_text);
  CHECK(r.exit_code == 6);
  CHECK(r.stdout_text.find("seed 7: FAIL timeout") != std::string::npos);
  CHECK(r.stdout_text.find("timeout: still running after 0.05 s of wall clock") !=
        std::string::npos);
  CHECK(r.stdout_text.find("(0 crash, 0 correctness, 0 liveness, 1 timeout)") != std::string::npos);
}

}  // namespace
}  // namespace swarm_cli_test
}  // namespace drainsim::testing
