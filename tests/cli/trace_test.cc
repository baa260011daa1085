// `drainsim run --format trace`: trace.json parses and has the structure Perfetto and
// chrome://tracing read; recording it changes no result; and a run prints nothing on stderr
// when stderr is not a terminal (the progress line's contract).
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "tests/cli/process.h"

namespace drainsim::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kMonthly = std::string(DRAINSIM_SOURCE_DIR) + "/scenarios/monthly-rehearsal.json";

// Per process: ctest runs each test case in its own process, several at once, and other build
// directories may run the same tests at the same time.
fs::path FreshDir(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("drainsim-trace-test-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

// One run of the monthly rehearsal with json and trace, shared by the structure checks.
const json& MonthlyTrace() {
  static const json trace = [] {
    const fs::path dir = FreshDir("monthly");
    const ProcessResult r =
        RunDrainsim({"run", kMonthly, "--format", "json,trace", "--out", dir.string()});
    INFO(r.stderr_text);
    REQUIRE(r.exit_code == 0);
    json parsed = json::parse(ReadFile((dir / "trace.json").string()));
    fs::remove_all(dir);
    return parsed;
  }();
  return trace;
}

// thread_name metadata: (pid, tid) -> name.
std::map<std::pair<int, int64_t>, std::string> ThreadNames(const json& events) {
  std::map<std::pair<int, int64_t>, std::string> names;
  for (const json& e : events) {
    if (e["ph"] == "M" && e["name"] == "thread_name") {
      names[{e["pid"].get<int>(), e["tid"].get<int64_t>()}] = e["args"]["name"];
    }
  }
  return names;
}

TEST_CASE("trace: every event has ph, ts, pid and tid, and complete events a duration",
          "[cli][trace]") {
  const json& trace = MonthlyTrace();
  CHECK(trace["displayTimeUnit"] == "ms");
  CHECK(trace["otherData"]["scenario"] == "monthly-rehearsal");
  const json& events = trace["traceEvents"];
  REQUIRE(events.is_array());
  REQUIRE(events.size() > 1000);
  for (const json& e : events) {
    REQUIRE(e.contains("ph"));
    REQUIRE(e.contains("ts"));
    REQUIRE(e.contains("pid"));
    REQUIRE(e.contains("tid"));
    REQUIRE(e.contains("name"));
    if (e["ph"] == "X") REQUIRE(e["dur"].get<int64_t>() >= 0);
  }
}

TEST_CASE("trace: a worker never runs more attempts at once than its concurrency", "[cli][trace]") {
  const json& events = MonthlyTrace()["traceEvents"];
  const auto names = ThreadNames(events);
  // Per worker: +1 at each span's start, -1 at its end; ends sort before starts at a tie.
  std::map<std::string, std::vector<std::pair<int64_t, int>>> edges;
  int64_t spans = 0;
  for (const json& e : events) {
    if (e["pid"] != 1 || e["ph"] != "X") continue;
    ++spans;
    std::string worker = names.at({1, e["tid"].get<int64_t>()});
    worker = worker.substr(0, worker.find(" slot"));
    const int64_t ts = e["ts"];
    edges[worker].push_back({ts, +1});
    edges[worker].push_back({ts + e["dur"].get<int64_t>(), -1});
  }
  CHECK(spans == MonthlyTrace()["otherData"]["attempt_spans"].get<int64_t>());
  CHECK(edges.size() == 10);  // workers.count
  for (auto& [worker, list] : edges) {
    std::sort(list.begin(), list.end());
    int running = 0;
    for (const auto& [ts, delta] : list) {
      running += delta;
      INFO(worker << " at " << ts);
      REQUIRE(running <= 1);  // workers.concurrency
    }
  }
}

TEST_CASE("trace: queue counters, and an instant for every fault and drain", "[cli][trace]") {
  const json& events = MonthlyTrace()["traceEvents"];
  std::set<std::string> counters;
  std::set<std::string> instants;
  for (const json& e : events) {
    if (e["ph"] == "C") counters.insert(e["name"].get<std::string>());
    if (e["ph"] == "i" && e["s"] == "g") instants.insert(e["name"].get<std::string>());
  }
  for (const char* name : {"depth", "delayed", "dlq", "parked", "in_flight"}) {
    CHECK(counters.count(name) == 1);
  }
  // monthly-rehearsal: synthetic_failures, db_slowdown, worker_crash, ack_loss; one drain.
  const std::vector<std::string> faults = {"fault 0 synthetic_failures", "fault 1 db_slowdown",
                                           "fault 2 worker_crash", "fault 3 ack_loss"};
  for (const std::string& fault : faults) {
    INFO(fault);
    CHECK(std::any_of(instants.begin(), instants.end(),
                      [&](const std::string& name) { return StartsWith(name, fault + " "); }));
  }
  CHECK(instants.count("fault 1 db_slowdown opens") == 1);
  CHECK(instants.count("fault 1 db_slowdown closes") == 1);
  CHECK(instants.count("drain 0 starts") == 1);
  CHECK(instants.count("drain 0 ends") == 1);
}

TEST_CASE("trace: a dead-lettered then replayed message's states appear in order", "[cli][trace]") {
  const json& events = MonthlyTrace()["traceEvents"];
  std::map<int64_t, std::vector<const json*>> states;  // message track -> its state spans
  for (const json& e : events) {
    if (e["pid"] == 3 && e["ph"] == "X") states[e["tid"].get<int64_t>()].push_back(&e);
  }
  REQUIRE(!states.empty());
  int replayed = 0;
  for (const auto& [tid, spans] : states) {
    for (size_t i = 1; i < spans.size(); ++i) {
      // Consecutive states of one message: in time order, and never overlapping.
      REQUIRE((*spans[i - 1])["ts"].get<int64_t>() + (*spans[i - 1])["dur"].get<int64_t>() <=
              (*spans[i])["ts"].get<int64_t>());
    }
    const auto dlq = std::find_if(spans.begin(), spans.end(), [](const json* e) {
      return (*e)["name"] == "dead-lettered (max_attempts)";
    });
    if (dlq == spans.end()) continue;
    const auto flight_after = std::find_if(dlq, spans.end(), [](const json* e) {
      return StartsWith((*e)["name"].get<std::string>(), "in flight (worker ");
    });
    if (flight_after != spans.end()) ++replayed;
  }
  // The drain replays the 500 synthetic failures (the sample keeps every dead-lettered one).
  CHECK(replayed >= 400);
}

TEST_CASE("trace: recording changes no result, and the trace is the same every time",
          "[cli][trace]") {
  const fs::path dir = FreshDir("determinism");
  const ProcessResult plain =
      RunDrainsim({"run", kMonthly, "--format", "json", "--out", (dir / "plain").string()});
  const ProcessResult traced =
      RunDrainsim({"run", kMonthly, "--format", "json,trace", "--out", (dir / "a").string()});
  const ProcessResult again =
      RunDrainsim({"run", kMonthly, "--format", "trace,json", "--out", (dir / "b").string()});
  REQUIRE(plain.exit_code == 0);
  REQUIRE(traced.exit_code == 0);
  REQUIRE(again.exit_code == 0);
  const std::string report = ReadFile((dir / "plain" / "report.json").string());
  CHECK(!report.empty());
  CHECK(report == ReadFile((dir / "a" / "report.json").string()));
  const std::string first_line = plain.stdout_text.substr(0, plain.stdout_text.find('\n'));
  CHECK(StartsWith(traced.stdout_text, first_line + "\n"));  // the fingerprint line
  const std::string trace = ReadFile((dir / "a" / "trace.json").string());
  CHECK(!trace.empty());
  CHECK(trace == ReadFile((dir / "b" / "trace.json").string()));
  fs::remove_all(dir);
}

TEST_CASE("run: stderr stays empty when it is not a terminal (no progress line)",
          "[cli][trace][progress]") {
  const fs::path dir = FreshDir("quiet");
  for (const std::vector<std::string>& extra :
       std::vector<std::vector<std::string>>{{}, {"--quiet"}}) {
    std::vector<std::string> args = {"run", kMonthly, "--out", dir.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    const ProcessResult r = RunDrainsim(args);
    CHECK(r.exit_code == 0);
    CHECK(r.stderr_text.empty());
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace drainsim::testing
