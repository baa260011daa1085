// The parts of drainsim live that need no broker: which scenarios it refuses and where, the
// publish plan and its fates, and the process groups that make the teardown reliable.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "live/local_ports.h"
#include "live/plan.h"
#include "live/process.h"
#include "sim/scenario/load.h"

namespace live_unit_test {
namespace {

using drainsim::live::Child;
using drainsim::live::ChildSpec;
using drainsim::live::ScratchDir;

drainsim::config::Scenario Load(const std::string& name) {
  auto loaded =
      drainsim::scenario::LoadScenarioFile(std::string(DRAINSIM_SOURCE_DIR) + "/scenarios/" + name);
  REQUIRE(loaded.ok());
  return *loaded.scenario;
}

bool HasProblem(const std::vector<drainsim::scenario::Problem>& problems,
                const std::string& pointer, const std::string& text) {
  for (const auto& p : problems) {
    if (p.pointer == pointer && p.message.find(text) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("live: the live scenarios are supported, the monthly rehearsal is refused by pointer",
          "[live]") {
  CHECK(drainsim::live::CheckLiveSupport(Load("live-poison.json")).empty());
  CHECK(drainsim::live::CheckLiveSupport(Load("live-throughput.json")).empty());
  const auto problems = drainsim::live::CheckLiveSupport(Load("monthly-rehearsal.json"));
  CHECK_FALSE(HasProblem(problems, "/faults/1/type", ""));  // db_slowdown: live/db_faults.h
  CHECK(HasProblem(problems, "/broker/on_visibility_timeout", "ack_loss live needs"));
  CHECK_FALSE(HasProblem(problems, "/drains/0", ""));  // a drip drain is supported
  // republish is supported, but not with a jittered backoff (live/retry_plan.h)
  CHECK_FALSE(HasProblem(problems, "/retry/delivery", ""));
  CHECK(HasProblem(problems, "/retry/backoff/jitter", "jitter proportional with republish"));
  // Live traffic is supported (live/live_traffic.h), up to kLiveRateMaxPerS.
  CHECK_FALSE(HasProblem(problems, "/database/live_traffic", ""));
  CHECK(drainsim::live::CheckLiveSupport(Load("live-traffic.json")).empty());
  auto fast = Load("live-traffic.json");
  fast.database->live_traffic->rate_per_s = 2001;
  CHECK(HasProblem(drainsim::live::CheckLiveSupport(fast), "/database/live_traffic/rate_per_s",
                   "above 2000 queries/s"));
  CHECK_FALSE(HasProblem(problems, "/faults/0/type", ""));  // synthetic_failures is supported
}

TEST_CASE("live: the plan publishes what the simulation publishes, with its poison messages",
          "[live]") {
  const auto scenario = Load("live-poison.json");
  const drainsim::live::Plan plan = drainsim::live::MakePlan(scenario, scenario.seed);
  REQUIRE(plan.messages.size() == 2000);
  CHECK(plan.simulated.published == 2000);
  CHECK(plan.simulated.dlq_end == 10);
  int fated = 0;
  double previous_s = 0;
  for (const auto& m : plan.messages) {
    CHECK(m.publish_at_s >= previous_s);
    previous_s = m.publish_at_s;
    CHECK(m.key == "order:" + std::to_string(m.id));
    if (!m.fate) continue;
    ++fated;
    CHECK(m.publish_at_s >= 2.0);  // the fault's from_s
    CHECK(m.fate->fault_index == 0);
    REQUIRE(m.fate->fail_after_ms);
    CHECK(*m.fate->fail_after_ms == 50.0);
  }
  CHECK(fated == 10);
  // The first ten orders published at or after 2 s, and no other.
  size_t first = 0;
  while (plan.messages[first].publish_at_s < 2.0) ++first;
  for (size_t i = first; i < first + 10; ++i) CHECK(plan.messages[i].fate.has_value());
  // Same scenario, same seed: the same plan.
  const drainsim::live::Plan again = drainsim::live::MakePlan(scenario, scenario.seed);
  CHECK(again.simulated.fingerprint == plan.simulated.fingerprint);
}

TEST_CASE("live: stopping a child ends its whole process group, grandchildren included", "[live]") {
  const std::string pid_file =
      (std::filesystem::temp_directory_path() / ("drainsim-live-test-" + std::to_string(getpid())))
          .string();
  ChildSpec spec;
  // A shell that ignores SIGTERM and leaves a grandchild behind: only a group kill ends both.
  spec.argv = {"/bin/sh", "-c", "trap '' TERM; sleep 300 & echo $! > " + pid_file + "; wait"};
  spec.env = {"PATH=/usr/bin:/bin"};
  drainsim::base::Expected<Child> spawned = Child::Spawn(spec);
  REQUIRE(spawned.ok());
  Child child = std::move(*spawned);
  REQUIRE(child.pid() > 0);
  pid_t grandchild = 0;
  for (int i = 0; i < 100 && grandchild == 0; ++i) {
    std::ifstream in(pid_file);
    in >> grandchild;
    if (grandchild == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE(grandchild > 0);
  CHECK(getpgid(grandchild) == child.pid());
  const pid_t leader = child.pid();
  CHECK_FALSE(child.Stop(SIGTERM, std::chrono::milliseconds(300)));  // needed SIGKILL
  CHECK_FALSE(drainsim::live::GroupAlive(leader));
  CHECK(kill(grandchild, 0) != 0);
  std::filesystem::remove(pid_file);
}

TEST_CASE("live: a free loopback port is free, and open once something listens", "[live]") {
  const int port = drainsim::live::FreeLoopbackPort();
  REQUIRE(port > 0);
  CHECK_FALSE(drainsim::live::LoopbackPortOpen(port, std::chrono::milliseconds(200)));
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  REQUIRE(listen(fd, 1) == 0);
  CHECK(drainsim::live::LoopbackPortOpen(port, std::chrono::milliseconds(200)));
  close(fd);
}

TEST_CASE("live: a child that cannot start says why, one that runs gives its exit code", "[live]") {
  const drainsim::base::Expected<Child> nothing = Child::Spawn(ChildSpec{});
  REQUIRE_FALSE(nothing.ok());
  CHECK(nothing.error() == "no program to run");
  ChildSpec bad_cpu;
  bad_cpu.argv = {"/bin/true"};
  bad_cpu.cpus = {-1};
  const drainsim::base::Expected<Child> unpinned = Child::Spawn(bad_cpu);
  REQUIRE_FALSE(unpinned.ok());
  CHECK(unpinned.error() == "no CPU -1");

  ChildSpec exits;
  exits.argv = {"/bin/sh", "-c", "exit 3"};
  exits.env = {"PATH=/usr/bin:/bin"};
  const drainsim::base::Expected<int> code =
      drainsim::live::RunToCompletion(exits, std::chrono::seconds(10));
  REQUIRE(code.ok());
  CHECK(*code == 3);
  ChildSpec sleeps;
  sleeps.argv = {"/bin/sleep", "5"};
  const drainsim::base::Expected<int> late =
      drainsim::live::RunToCompletion(sleeps, std::chrono::milliseconds(100));
  REQUIRE_FALSE(late.ok());
  CHECK(late.error() == "/bin/sleep did not finish in 100 ms");
}

TEST_CASE("live: a scratch directory is made, moved and removed, and a bad TMPDIR is refused",
          "[live]") {
  std::string path;
  {
    drainsim::base::Expected<ScratchDir> made = ScratchDir::Create();
    REQUIRE(made.ok());
    path = made->path();
    CHECK(std::filesystem::is_directory(path));
    const ScratchDir moved(std::move(*made));
    CHECK(made->path().empty());  // the moved-from one removes nothing
    CHECK(moved.path() == path);
    CHECK(moved.WriteFile("a.txt", "x", "").ok());
    CHECK(std::filesystem::is_regular_file(path + "/a.txt"));
    CHECK(moved.MakeSubdir("sub", "").ok());
    const drainsim::base::Status again = moved.MakeSubdir("sub", "");
    REQUIRE_FALSE(again.ok());
    CHECK(again.error() == "cannot create " + path + "/sub: File exists");
    const drainsim::base::Status nobody = moved.MakeSubdir("other", "drainsim-no-such-user");
    REQUIRE_FALSE(nobody.ok());
    CHECK(nobody.error() == "no user 'drainsim-no-such-user' on this machine");
  }
  CHECK_FALSE(std::filesystem::exists(path));

  const char* tmpdir = std::getenv("TMPDIR");
  const std::string saved = tmpdir != nullptr ? tmpdir : "";
  setenv("TMPDIR", "/drainsim-no-such-dir", 1);
  const drainsim::base::Expected<ScratchDir> refused = ScratchDir::Create();
  if (tmpdir != nullptr) {
    setenv("TMPDIR", saved.c_str(), 1);
  } else {
    unsetenv("TMPDIR");
  }
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error() ==
        "cannot create a directory like /drainsim-no-such-dir/drainsim-live-XXXXXX: No such file "
        "or directory");
}

}  // namespace live_unit_test
