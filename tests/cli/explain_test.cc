// `drainsim explain`: one message's life in words, on the shipped scenarios. "Why did course
// 4812 get purged twice?" (cleanup-0200) gets an answer by key; a message that lost-acks ran
// twice (found through the trace, so the test follows the model rather than a hard-coded id)
// is explained with its cause; unknown ids and keys are bad input. `--list CLASS` lists the
// messages report.json counts as duplicates, human needed, DLQ and parked, and agrees with it.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/process.h"

namespace drainsim::testing {
namespace explain_test {
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
  CHECK(Contains(out,
                 "x-death: {queue main, reason delivery_limit, count 2, time 121.000 s}; "
                 "x-first-death-reason delivery_limit"));
  CHECK(Contains(out, "its counted returns exceeded broker.delivery_limit (20)"));
}

// `explain --list CLASS` parsed: the header's count, and per line id, key, why.
struct Listing {
  int64_t count = -1;  // the header's first number
  std::string header;
  std::vector<int64_t> ids;
  std::vector<std::string> keys;
  std::vector<std::string> whys;
};

Listing ListOf(const std::string& scenario, const std::string& word,
               const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"explain", scenario, "--list", word};
  args.insert(args.end(), extra.begin(), extra.end());
  const ProcessResult r = RunDrainsim(args);
  INFO(word << ": " << r.stderr_text);
  REQUIRE(r.exit_code == 0);
  Listing listing;
  std::istringstream lines(r.stdout_text);
  std::getline(lines, listing.header);
  listing.count = std::stoll(listing.header);
  for (std::string line; std::getline(lines, line);) {
    const size_t tab1 = line.find('\t');
    const size_t tab2 = line.find('\t', tab1 + 1);
    REQUIRE(tab2 != std::string::npos);
    REQUIRE(line.find('\t', tab2 + 1) == std::string::npos);
    listing.ids.push_back(std::stoll(line.substr(0, tab1)));
    listing.keys.push_back(line.substr(tab1 + 1, tab2 - tab1 - 1));
    listing.whys.push_back(line.substr(tab2 + 1));
  }
  return listing;
}

std::map<std::string, int64_t> Tally(const std::vector<std::string>& words) {
  std::map<std::string, int64_t> tally;
  for (const std::string& w : words) ++tally[w];
  return tally;
}

// report.json's human_needed_by_reason, only the reasons starting with one of `prefixes`.
std::map<std::string, int64_t> ReasonsOf(const nlohmann::json& report,
                                         const std::vector<std::string>& prefixes) {
  std::map<std::string, int64_t> reasons;
  for (const auto& [reason, count] : report["human_needed_by_reason"].items()) {
    for (const std::string& prefix : prefixes) {
      if (reason.rfind(prefix, 0) == 0 && count.get<int64_t>() > 0) reasons[reason] = count;
    }
  }
  return reasons;
}

// Runs `scenario` for report.json and lists every class with the same seed; each list must
// agree with the report, class by class and reason by reason. Returns the lists by class.
std::map<std::string, Listing> CheckListsAgree(const std::string& scenario,
                                               const std::vector<std::string>& seed) {
  const fs::path dir =
      fs::temp_directory_path() / ("drainsim-explain-list-" + std::to_string(getpid()));
  fs::remove_all(dir);
  std::vector<std::string> run = {"run", scenario, "--format", "json", "--out", dir.string()};
  run.insert(run.end(), seed.begin(), seed.end());
  REQUIRE(RunDrainsim(run).exit_code <= 1);  // 1: an expectation failed, still a report
  const nlohmann::json report = nlohmann::json::parse(ReadFile((dir / "report.json").string()));
  fs::remove_all(dir);

  std::map<std::string, Listing> lists;
  for (const char* word : {"duplicates", "human", "dlq", "parked"}) {
    Listing listing = ListOf(scenario, word, seed);
    INFO(word << ": " << listing.header);
    CHECK(Contains(listing.header, "seed " + report["seed"].dump() + ", fingerprint " +
                                       report["fingerprint"].get<std::string>()));
    CHECK(std::adjacent_find(listing.ids.begin(), listing.ids.end(),
                             std::greater_equal<>()) == listing.ids.end());  // by id, once
    for (const std::string& key : listing.keys) CHECK(key != "-");
    lists[word] = std::move(listing);
  }
  const Listing& duplicates = lists["duplicates"];
  std::vector<std::string> causes;
  for (const std::string& why : duplicates.whys) {
    for (size_t from = 0, to; from <= why.size(); from = to + 1) {
      to = std::min(why.find(',', from), why.size());
      causes.push_back(why.substr(from, to - from));
    }
  }
  CHECK(duplicates.count == report["duplicate_executions"].get<int64_t>());
  CHECK(static_cast<int64_t>(causes.size()) == duplicates.count);
  for (const auto& [cause, count] : Tally(causes)) {
    CHECK(report["duplicates_by_cause"][cause].get<int64_t>() == count);
  }
  CHECK(lists["dlq"].count == report["dlq_end"].get<int64_t>());
  CHECK(Tally(lists["dlq"].whys) == ReasonsOf(report, {"dlq:"}));
  CHECK(lists["parked"].count == report["parked"].get<int64_t>());
  CHECK(Tally(lists["parked"].whys) == ReasonsOf(report, {"parked:", "failed:"}));
  CHECK(lists["human"].count == report["human_needed"].get<int64_t>());
  CHECK(Tally(lists["human"].whys) == ReasonsOf(report, {""}));
  for (const char* word : {"duplicates", "human", "dlq", "parked"}) {
    if (std::string(word) != "duplicates") {
      CHECK(static_cast<int64_t>(lists[word].ids.size()) == lists[word].count);
    }
  }
  // Human needed is the DLQ and the parked, nothing else.
  std::vector<int64_t> both = lists["dlq"].ids;
  both.insert(both.end(), lists["parked"].ids.begin(), lists["parked"].ids.end());
  std::sort(both.begin(), both.end());
  CHECK(both == lists["human"].ids);
  return lists;
}

TEST_CASE("explain --list: the monthly rehearsal's duplicates and parked agree with report.json",
          "[cli][explain][list]") {
  const std::string scenario = kScenarios + "monthly-rehearsal.json";
  const auto lists = CheckListsAgree(scenario, {});
  CHECK(lists.at("duplicates").count > 0);
  CHECK(lists.at("parked").count > 0);
  // A listed duplicate is one explain tells as such, key and all.
  const Listing& duplicates = lists.at("duplicates");
  const ProcessResult r =
      RunDrainsim({"explain", scenario, "--message", std::to_string(duplicates.ids.front())});
  REQUIRE(r.exit_code == 0);
  CHECK(Contains(r.stdout_text, "key " + duplicates.keys.front() + ")"));
  CHECK(Contains(Unwrapped(r.stdout_text),
                 "duplicate execution, cause " +
                     duplicates.whys.front().substr(0, duplicates.whys.front().find(','))));
}

TEST_CASE("explain --list: BullMQ's duplicates and DLQ agree with report.json at two seeds",
          "[cli][explain][list]") {
  const std::string scenario = kScenarios + "preset-bullmq.json";
  for (const std::vector<std::string>& seed :
       std::vector<std::vector<std::string>>{{}, {"--seed", "3"}}) {
    const auto lists = CheckListsAgree(scenario, seed);
    CHECK(lists.at("duplicates").count > 0);
    CHECK(lists.at("dlq").count > 0);
  }
}

// full-vocabulary.json with its database's live traffic at 10 queries a second instead of 200,
// written for this process. Everything else is the shipped file's: every section, fault type,
// drain and message (251,269 published at seed 7). The live queries are most of its events
// (86,400 s x 200/s): without them a run takes a fifth of the time, and the test runs it nine
// times (the report, then each of the four lists runs it twice), 237 s under the sanitizers.
// At seed 7 the light copy lists the same classes and reasons as the full rate (duplicates by
// crash_after_commit, lost_ack and visibility_timeout; dlq:max_attempts, dlq:retry_budget,
// parked:drain and parked:permanent), with about as many messages in each.
std::string FullVocabularyLight() {
  nlohmann::json doc = nlohmann::json::parse(ReadFile(kScenarios + "full-vocabulary.json"));
  REQUIRE(doc["database"]["live_traffic"]["rate_per_s"] == 200);
  doc["database"]["live_traffic"]["rate_per_s"] = 10;
  const fs::path file = fs::temp_directory_path() /
                        ("drainsim-explain-full-vocabulary-" + std::to_string(getpid()) + ".json");
  std::ofstream(file) << doc.dump(2);
  return file.string();
}

TEST_CASE("explain --list: every class of the full vocabulary agrees with report.json",
          "[cli][explain][list]") {
  const std::string scenario = FullVocabularyLight();
  const auto lists = CheckListsAgree(scenario, {});
  fs::remove(scenario);
  for (const char* word : {"duplicates", "human", "dlq", "parked"}) {
    INFO(word);
    CHECK(lists.at(word).count > 0);
  }
}

TEST_CASE("explain --list lost: the Kafka consumer's skipped records agree with report.json",
          "[cli][explain][list]") {
  const std::string scenario = kScenarios + "preset-kafka.json";
  const fs::path dir =
      fs::temp_directory_path() / ("drainsim-explain-lost-" + std::to_string(getpid()));
  fs::remove_all(dir);
  REQUIRE(RunDrainsim({"run", scenario, "--format", "json", "--out", dir.string()}).exit_code ==
          0);
  const nlohmann::json report = nlohmann::json::parse(ReadFile((dir / "report.json").string()));
  fs::remove_all(dir);
  const Listing lost = ListOf(scenario, "lost", {});
  INFO(lost.header);
  CHECK(Contains(lost.header, " discarded by the broker or its consumer by design (broker_lost)"));
  CHECK(lost.count == report["broker_lost"].get<int64_t>());
  CHECK(lost.count > 4000);
  CHECK(static_cast<int64_t>(lost.ids.size()) == lost.count);
  CHECK(std::adjacent_find(lost.ids.begin(), lost.ids.end(), std::greater_equal<>()) ==
        lost.ids.end());
  std::map<std::string, int64_t> by_cause;
  for (const auto& [cause, count] : report["broker_lost_by_cause"].items()) {
    if (count.get<int64_t>() > 0) by_cause["broker_lost:" + cause] = count.get<int64_t>();
  }
  CHECK(Tally(lost.whys) == by_cause);
  for (const std::string& key : lost.keys) CHECK(key.rfind("order:", 0) == 0);
}

TEST_CASE("explain --list: a bad class word, or --list with --message, exits 2",
          "[cli][explain][list]") {
  const std::string scenario = kScenarios + "cleanup-0200.json";
  const ProcessResult bad = RunDrainsim({"explain", scenario, "--list", "dead"});
  CHECK(bad.exit_code == 2);
  CHECK(Contains(bad.stderr_text,
                 "--list takes duplicates, human, dlq, parked or lost (got 'dead')"));
  CHECK(bad.stdout_text.empty());
  const ProcessResult both = RunDrainsim({"explain", scenario, "--list", "dlq", "--message", "1"});
  CHECK(both.exit_code == 2);
  CHECK(Contains(both.stderr_text, "exactly one of --message ID, --key KEY and --list CLASS"));
  const ProcessResult help = RunDrainsim({"explain", "--help"});
  CHECK(Contains(help.stdout_text, "--list CLASS"));
  // An empty class is a header and no lines.
  const ProcessResult empty = RunDrainsim({"explain", scenario, "--list", "dlq"});
  CHECK(empty.exit_code == 0);
  CHECK(Contains(empty.stdout_text, "0 messages in the DLQ at the end (dlq_end): scenario "));
  CHECK(std::count(empty.stdout_text.begin(), empty.stdout_text.end(), '\n') == 1);
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
}  // namespace explain_test
}  // namespace drainsim::testing
