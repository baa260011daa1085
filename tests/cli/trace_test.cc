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
namespace trace_test {
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
struct MonthlyRun {
  json trace;
  json report;
};

const MonthlyRun& Monthly() {
  static const MonthlyRun run = [] {
    const fs::path dir = FreshDir("monthly");
    const ProcessResult r =
        RunDrainsim({"run", kMonthly, "--format", "json,trace", "--out", dir.string()});
    INFO(r.stderr_text);
    REQUIRE(r.exit_code == 0);
    MonthlyRun parsed{json::parse(ReadFile((dir / "trace.json").string())),
                      json::parse(ReadFile((dir / "report.json").string()))};
    fs::remove_all(dir);
    return parsed;
  }();
  return run;
}

const json& MonthlyTrace() { return Monthly().trace; }

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

void CheckEventFields() {
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

void CheckWorkerConcurrency() {
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

void CheckCountersAndInstants() {
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

void CheckReplayedStates() {
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

// Where an event stands in its flow, from its v2 flow fields: "start" (flow_out only), "step"
// (both), "end" (flow_in only), "" (neither).
std::string FlowRoleOf(const json& e) {
  const bool in = e.value("flow_in", false);
  const bool out = e.value("flow_out", false);
  if (in && out) return "step";
  if (out) return "start";
  if (in) return "end";
  return "";
}

// The slices a message's flow may link: attempt spans and backoff sleeps (pid 1) and outcome
// slices (pid 4), by message id.
std::map<int64_t, std::vector<const json*>> LinkableSlices(const json& events) {
  std::map<int64_t, std::vector<const json*>> slices;
  for (const json& e : events) {
    if (e["ph"] != "X" || (e["pid"] != 1 && e["pid"] != 4)) continue;
    slices[e["args"]["message"].get<int64_t>()].push_back(&e);
  }
  return slices;
}

void CheckFlows() {
  const json& events = MonthlyTrace()["traceEvents"];
  std::map<int64_t, std::vector<const json*>> flows;  // bind_id -> its slices
  for (const json& e : events) {
    if (!e.contains("bind_id")) {
      CHECK(FlowRoleOf(e).empty());
      continue;
    }
    REQUIRE(e["ph"] == "X");  // v2 flow fields bind to the complete event that carries them
    REQUIRE(!FlowRoleOf(e).empty());
    flows[e["bind_id"].get<int64_t>()].push_back(&e);
  }
  REQUIRE(flows.size() > 500);  // at least the 500 dead-lettered and replayed messages
  int64_t across_tracks = 0;
  for (const auto& [id, slices] : flows) {
    INFO("flow " << id);
    REQUIRE(slices.size() >= 2);
    std::map<std::string, int> roles;
    int64_t first_ts = INT64_MAX;
    int64_t last_ts = INT64_MIN;
    std::set<int> pids;
    for (const json* e : slices) {
      ++roles[FlowRoleOf(*e)];
      // Deterministic and unique per message: the id is the message's id + 1.
      CHECK((*e)["args"]["message"].get<int64_t>() == id - 1);
      first_ts = std::min(first_ts, (*e)["ts"].get<int64_t>());
      last_ts = std::max(last_ts, (*e)["ts"].get<int64_t>());
      pids.insert((*e)["pid"].get<int>());
    }
    REQUIRE(roles["start"] == 1);
    REQUIRE(roles["end"] == 1);
    CHECK(roles["step"] == static_cast<int>(slices.size()) - 2);
    // Along the flow (the order Perfetto follows, by timestamp) the start comes first and the
    // end last: every step lies between them.
    for (const json* e : slices) {
      const int64_t ts = (*e)["ts"];
      if (FlowRoleOf(*e) == "start") CHECK(ts == first_ts);
      if (FlowRoleOf(*e) == "end") CHECK(ts == last_ts);
    }
    if (pids.size() == 2) ++across_tracks;
  }
  // Flows go from the workers' attempts to the outcome tracks and back.
  CHECK(across_tracks > 500);
  // Exactly the messages with two or more linkable slices have a flow, through all of them.
  for (const auto& [message, slices] : LinkableSlices(events)) {
    INFO("message " << message);
    const auto flow = flows.find(message + 1);
    if (slices.size() < 2) {
      CHECK(flow == flows.end());
    } else {
      REQUIRE(flow != flows.end());
      CHECK(flow->second.size() == slices.size());
    }
  }
}

void CheckReplayedFlow() {
  const auto slices = LinkableSlices(MonthlyTrace()["traceEvents"]);
  int checked = 0;
  for (const auto& [message, list] : slices) {
    std::vector<const json*> flow = list;
    std::stable_sort(flow.begin(), flow.end(), [](const json* a, const json* b) {
      return (*a)["ts"].get<int64_t>() < (*b)["ts"].get<int64_t>();
    });
    std::vector<std::string> outcomes;
    for (const json* e : flow) {
      if ((*e)["pid"] == 4) outcomes.push_back((*e)["cat"].get<std::string>());
    }
    const auto dead = std::find(outcomes.begin(), outcomes.end(), "outcome,dead-lettered");
    if (dead == outcomes.end() || (*flow.front())["pid"] != 1) continue;
    // A synthetic failure: failed attempts and retries, the dead letter, the drain's replay,
    // then acked.
    INFO("message " << message);
    CHECK(std::count(outcomes.begin(), dead, "outcome,retried") >= 1);
    const auto replayed = std::find(dead, outcomes.end(), "outcome,replayed");
    REQUIRE(replayed != outcomes.end());
    CHECK(std::find(replayed, outcomes.end(), "outcome,acked") != outcomes.end());
    CHECK(FlowRoleOf(*flow.front()) == "start");
    CHECK(FlowRoleOf(*flow.back()) == "end");
    ++checked;
  }
  CHECK(checked >= 400);  // the 500 synthetic failures the drain replays
}

void CheckSliceNames() {
  const json& events = MonthlyTrace()["traceEvents"];
  const auto names = ThreadNames(events);
  const std::vector<std::string> classes = {
      "acked",  "retried", "redelivered", "dead-lettered", "replayed",
      "parked", "expired", "rejected",    "duplicate",     "broker-lost"};
  std::map<std::string, int64_t> track_of;  // class -> tid in process 4 "outcomes"
  for (const auto& [where, name] : names) {
    if (where.first == 4) track_of[name] = where.second;
  }
  CHECK(track_of.size() == classes.size());
  for (const std::string& c : classes) CHECK(track_of.count(c) == 1);
  CHECK(std::any_of(events.begin(), events.end(), [](const json& e) {
    return e["ph"] == "M" && e["name"] == "process_name" && e["pid"] == 4 &&
           e["args"]["name"] == "outcomes";
  }));

  const std::map<std::string, std::string> outcome_text = {{"acked", "acked"},
                                                           {"ack-lost", "ack lost"},
                                                           {"ack-ignored", "ignored"},
                                                           {"suppressed", "claim"},
                                                           {"failed", "failed"},
                                                           {"crashed", "crashed"},
                                                           {"duplicate", "duplicate execution"}};
  std::map<std::string, int64_t> attempts;  // by class
  std::map<std::string, int64_t> outcomes;  // by class
  for (const json& e : events) {
    if (e["ph"] != "X") continue;
    const std::string name = e["name"];
    const std::string cat = e["cat"];
    if (e["pid"] == 1 && cat != "sleep") {
      REQUIRE(StartsWith(cat, "attempt,"));
      const std::string c = cat.substr(std::string("attempt,").size());
      INFO(name << " " << cat);
      CHECK(StartsWith(name, c + ": "));
      // The class agrees with the outcome the args spell out.
      if (outcome_text.count(c) == 1) {
        CHECK(e["args"]["outcome"].get<std::string>().find(outcome_text.at(c)) !=
              std::string::npos);
      }
      ++attempts[c];
    }
    if (e["pid"] == 4) {
      REQUIRE(StartsWith(cat, "outcome,"));
      const std::string c = cat.substr(std::string("outcome,").size());
      INFO(name << " " << cat);
      CHECK(StartsWith(name, c));
      CHECK(e["tid"].get<int64_t>() == track_of.at(c));
      CHECK(e["dur"] == 0);
      ++outcomes[c];
    }
  }
  CHECK(attempts["acked"] > 1000);
  CHECK(attempts["failed"] >= 2500);  // 500 synthetic failures, 5 attempts each
  const json& report = Monthly().report;
  // Every message that ran twice or was parked is in the sample: the outcome tracks count them
  // as report.json does.
  REQUIRE(MonthlyTrace()["otherData"]["message_tracks_left_out"] == 0);
  REQUIRE(MonthlyTrace()["otherData"]["messages_not_recorded"] == 0);
  CHECK(outcomes["duplicate"] == report["duplicate_executions"].get<int64_t>());
  CHECK(attempts["duplicate"] == report["duplicate_executions"].get<int64_t>());
  CHECK(outcomes["parked"] == report["parked"].get<int64_t>());
  CHECK(outcomes["replayed"] == 500);
  CHECK(outcomes["retried"] >= 2000);
}

// One test case for the checks of one trace: ctest runs each test case in a process of its
// own, and each would run the rehearsal and parse its 20 MB trace again (half a minute under the
// sanitizers); Catch2 reruns the case once per section, in one process, with the run cached.
TEST_CASE("trace: the monthly rehearsal's trace, checked for structure and order",
          "[cli][trace][flows][outcomes]") {
  SECTION("every event has ph, ts, pid and tid, and complete events a duration") {
    CheckEventFields();
  }
  SECTION("a worker never runs more attempts at once than its concurrency") {
    CheckWorkerConcurrency();
  }
  SECTION("queue counters, and an instant for every fault and drain") {
    CheckCountersAndInstants();
  }
  SECTION("a dead-lettered then replayed message's states appear in order") {
    CheckReplayedStates();
  }
  SECTION("one flow per message, from its first slice to its last, in time order") { CheckFlows(); }
  SECTION("a dead-lettered, replayed message's flow runs through its outcomes in order") {
    CheckReplayedFlow();
  }
  SECTION("slice names and categories carry the outcome, on a track per outcome class") {
    CheckSliceNames();
  }
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
}  // namespace trace_test
}  // namespace drainsim::testing
