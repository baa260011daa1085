// `drainsim explain`: one message's life in words, on the shipped scenarios. "Why did course
// 4812 get purged twice?" (cleanup-0200) gets an answer by key; a message that lost-acks ran
// twice (found through the trace, so the test follows the model rather than a hard-coded id)
// is explained with its cause; unknown ids and keys are bad input.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli/process.h"

namespace drainsim::testing {
namespace {

namespace fs = std::filesystem;

const std::string kScenarios = std::string(DRAINSIM_SOURCE_DIR) + "/scenarios/";

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// The output with the "why" paragraph's wrapping undone: a line break and the indentation that
// follows it read as one space.
std::string Unwrapped(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' && i + 1 < text.size() && text[i + 1] == ' ') {
      while (i + 1 < text.size() && text[i + 1] == ' ') ++i;
      out += ' ';
    } else {
      out += text[i];
    }
  }
  return out;
}

TEST_CASE("explain: why course 4812 was purged more than once, by key", "[cli][explain]") {
  const ProcessResult r = RunDrainsim(
      {"explain", kScenarios + "cleanup-0200.json", "--key", "purge:course-4812:2026-03-01"});
  INFO(r.stdout_text << r.stderr_text);
  REQUIRE(r.exit_code == 0);
  CHECK(r.stderr_text.empty());
  const std::string out = Unwrapped(r.stdout_text);
  CHECK(Contains(out, "scenario cleanup-0200  seed 2026  fingerprint "));
  CHECK(Contains(out, "(kind purge-90k, key purge:course-4812:2026-03-01)"));
  // The 25x slowdown makes its batched DELETEs hit the statement timeout five times ...
  CHECK(Contains(out, "attempt 1 failed: transient (database statement timeout)"));
  CHECK(Contains(out, "attempt 5 failed: transient (database statement timeout)"));
  CHECK(Contains(out, "dead-lettered: reason max_attempts (after 5 attempts"));
  // ... and the morning drain replays it on a healthy database.
  CHECK(Contains(out, "28800.000 s  replayed by drain 0"));
  CHECK(Contains(out, "attempt 1 succeeded; acked: done"));
  // The "why": attempted six times, took effect once.
  CHECK(Contains(out, "\nwhy: It was acked at "));
  CHECK(Contains(out, "Failed attempts: 5 x transient (database statement timeout)."));
  CHECK(Contains(out, "its attempts reached the retry policy's attempts_max (5)"));
  CHECK(Contains(out, "It was attempted 6 times but its work committed once"));
}

TEST_CASE("explain: a message lost-acks ran twice names the cause", "[cli][explain]") {
  // The trace's message tracks mark duplicate executions; take the first one.
  const fs::path dir =
      fs::temp_directory_path() / ("drainsim-explain-test-lost-acks-" + std::to_string(getpid()));
  fs::remove_all(dir);
  const ProcessResult run = RunDrainsim(
      {"run", kScenarios + "lost-acks.json", "--format", "trace", "--out", dir.string()});
  REQUIRE(run.exit_code == 0);
  const nlohmann::json trace = nlohmann::json::parse(ReadFile((dir / "trace.json").string()));
  fs::remove_all(dir);
  int64_t id = -1;
  for (const nlohmann::json& e : trace["traceEvents"]) {
    if (e["pid"] == 3 && e["name"] == "committed again: duplicate execution (lost_ack)") {
      id = e["args"]["message"];
      break;
    }
  }
  REQUIRE(id >= 0);

  const ProcessResult r =
      RunDrainsim({"explain", kScenarios + "lost-acks.json", "--message", std::to_string(id)});
  INFO(r.stdout_text << r.stderr_text);
  REQUIRE(r.exit_code == 0);
  const std::string out = Unwrapped(r.stdout_text);
  CHECK(Contains(out, "message " + std::to_string(id) + " (kind "));
  CHECK(Contains(out, "but its ack was lost (ack_loss)"));
  CHECK(Contains(out, "visibility timeout: back in the main queue (its ack was lost)"));
  CHECK(Contains(out,
                 "ran again although its key had committed: duplicate execution (cause: "
                 "lost_ack)"));
  CHECK(Contains(out,
                 "(duplicate execution, cause lost_ack): its ack was lost after the work "
                 "had committed"));
}

TEST_CASE("explain: a quorum-queue poison message's dead-letter history reads like x-death",
          "[cli][explain][rabbitmq]") {
  // One message that always fails, rejected back to a RabbitMQ 4.3 quorum queue: the 21st
  // reject exceeds the delivery limit of 20; a drain replays it and it dies the same way again.
  const fs::path file = fs::temp_directory_path() /
                        ("drainsim-explain-xdeath-" + std::to_string(::getpid()) + ".json");
  {
    std::ofstream(file) << R"({"format_version": 1, "name": "x-death", "run": {"until_s": 1000},
      "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1}}}},
      "backlog": [{"where": "main", "kind": "job", "count": 1}],
      "broker": {"preset": "rabbitmq-quorum"},
      "workers": {"count": 1},
      "faults": [{"type": "poison", "kind": "job", "fraction": 1, "fail_after_ms": 1000}],
      "drains": [{"start_at_s": 100, "strategy": "bulk"}]})";
  }
  const ProcessResult r = RunDrainsim({"explain", file.string(), "--message", "0"});
  fs::remove(file);
  INFO(r.stdout_text << r.stderr_text);
  REQUIRE(r.exit_code == 0);
  const std::string out = Unwrapped(r.stdout_text);
  CHECK(Contains(out, "dead-lettered: reason delivery_limit"));
  // Dead at 21 s, replayed at 100 s, dead again at 121 s: one entry, count 2, the latest time.
  CHECK(Contains(out, "x-death: {queue main, reason delivery_limit, count 2, time 121.000 s}; "
                      "x-first-death-reason delivery_limit"));
  CHECK(Contains(out, "its counted returns exceeded broker.delivery_limit (20)"));
}

TEST_CASE("explain: unknown ids and keys, and bad usage, exit 2", "[cli][explain]") {
  const std::string scenario = kScenarios + "cleanup-0200.json";
  SECTION("an id past the last message") {
    const ProcessResult r = RunDrainsim({"explain", scenario, "--message", "999999"});
    CHECK(r.exit_code == 2);
    CHECK(Contains(r.stderr_text, "no message 999999: the run published 3001 (ids 0 to 3000)"));
    CHECK(r.stdout_text.empty());
  }
  SECTION("a key no message has, with the keys that contain it") {
    const ProcessResult r = RunDrainsim({"explain", scenario, "--key", "course-4812"});
    CHECK(r.exit_code == 2);
    CHECK(Contains(r.stderr_text, "no message has key 'course-4812'"));
    CHECK(Contains(r.stderr_text, "purge:course-4812:2026-03-01"));
  }
  SECTION("neither --message nor --key, or both") {
    CHECK(RunDrainsim({"explain", scenario}).exit_code == 2);
    CHECK(RunDrainsim({"explain", scenario, "--message", "1", "--key", "k"}).exit_code == 2);
  }
  SECTION("--help") {
    const ProcessResult r = RunDrainsim({"explain", "--help"});
    CHECK(r.exit_code == 0);
    CHECK(Contains(r.stdout_text, "usage: drainsim explain SCENARIO"));
  }
}

}  // namespace
}  // namespace drainsim::testing
