// RunOptions::observer watches a run and never changes it: the same Results, fingerprint and
// report with or without one; and what it is told adds up to what the Results count.
#include "sim/model/observer.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "reports/json_report.h"
#include "sim/model/simulation.h"
#include "sim/model/trace_log.h"
#include "sim/scenario/load.h"

namespace drainsim::model {
namespace observer_test {
namespace {

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

config::Scenario LoadShipped(const std::string& name) {
  const std::string path = std::string(DRAINSIM_SOURCE_DIR) + "/scenarios/" + name;
  scenario::LoadResult loaded = scenario::LoadScenarioFile(path);
  REQUIRE(loaded.ok());
  return *loaded.scenario;
}

std::string Report(const Results& results) {
  const reports::ReportContext context;
  const std::vector<reports::Verdict> verdicts;
  return reports::JsonReport(reports::ReportInput{results, context, verdicts, ""});
}

// Counts every callback, and checks the order contract on the way: time never decreases.
class CountingObserver final : public RunObserver {
 public:
  bool WantsKeys() const override { return true; }
  void OnPublish(const PublishInfo& i) override {
    See(i.at);
    ++published;
    if (i.key.empty()) ++empty_keys;
  }
  void OnTransition(const TransitionInfo& i) override {
    See(i.at);
    ++to_state[i.to];
    CHECK(i.from != i.to);
  }
  void OnAttemptStart(const AttemptInfo& i) override {
    See(i.at);
    ++attempts;
  }
  void OnAttemptEnd(const AttemptEndInfo& i) override {
    See(i.at);
    ++ends[i.outcome];
  }
  void OnCommit(const CommitInfo& i) override {
    See(i.at);
    if (i.duplicate) ++duplicates;
  }
  void OnReleased(uint64_t, engine::Instant at) override {
    See(at);
    ++released;
  }
  void OnFaultEdge(uint32_t, FaultEdge, engine::Instant at) override {
    See(at);
    ++fault_edges;
  }
  void OnDrainStart(uint32_t, engine::Instant at) override {
    See(at);
    ++drains;
  }
  void OnProgress(engine::Instant now, engine::Instant, int64_t events) override {
    See(now);
    CHECK(events % 65536 == 0);
    ++progress;
  }

  int64_t published = 0, empty_keys = 0, attempts = 0, duplicates = 0, released = 0;
  int64_t fault_edges = 0, drains = 0, progress = 0;
  std::map<MessageState, int64_t> to_state;
  std::map<AttemptOutcome, int64_t> ends;

 private:
  void See(engine::Instant at) {
    CHECK(at >= last_);
    last_ = at;
  }
  engine::Instant last_ = engine::Instant::Zero() - engine::Duration::Seconds(1'000'000);
};

TEST_CASE("observer: monthly-rehearsal gives the same results and report with or without one",
          "[model][observer]") {
  const config::Scenario scenario = LoadShipped("monthly-rehearsal.json");
  const Results plain = RunSimulation(scenario, scenario.seed);

  CountingObserver counting;
  TraceRecorder recorder(scenario, TraceOptions{});
  ObserverTee tee({&counting, &recorder});
  RunOptions options;
  options.observer = &tee;
  const Results watched = RunSimulation(scenario, scenario.seed, options);

  CHECK(watched.fingerprint == plain.fingerprint);
  CHECK(watched.events == plain.events);
  CHECK(Report(watched) == Report(plain));

  // What the observer was told adds up to the run's own counts.
  CHECK(counting.published == plain.published);
  CHECK(counting.empty_keys == 0);
  CHECK(counting.attempts == plain.attempts);
  CHECK(counting.duplicates == plain.duplicate_executions);
  CHECK(counting.to_state[MessageState::kAcked] == plain.acked);
  CHECK(counting.to_state[MessageState::kParked] == plain.parked);
  CHECK(counting.ends[AttemptOutcome::kSuppressed] == plain.duplicates_suppressed);
  CHECK(counting.to_state[MessageState::kDeadLettered] == plain.dlq_inflow);
  CHECK(counting.released <= plain.acked + plain.parked);  // less if a copy outlived its ack
  CHECK(counting.drains == 1);
  CHECK(counting.fault_edges >= 3);  // db_slowdown opens and closes, ack_loss opens, crashes
  CHECK(counting.progress == plain.events / 65536);

  const TraceLog log =
      recorder.Finish(engine::Instant::Micros(static_cast<int64_t>(plain.ended_at_s * 1e6 + 0.5)));
  CHECK(log.attempts_seen == plain.attempts);
  CHECK(log.spans.size() == static_cast<size_t>(plain.attempts));  // under spans_max
  CHECK(log.published == plain.published);
  CHECK(log.spans_left_out == 0);
  CHECK(!log.lives.empty());
  CHECK(log.lives.size() <= log.lives_max);
  for (const AttemptSpan& span : log.spans) {
    REQUIRE(span.lane < static_cast<uint32_t>(scenario.workers.concurrency));
    REQUIRE(span.start <= span.end);
  }
}

TEST_CASE("observer: the recorder's memory bounds hold and say what they left out",
          "[model][observer]") {
  const config::Scenario scenario = LoadShipped("lost-acks.json");
  TraceOptions small;
  small.spans_max = 100;
  small.lives_first = 10;
  small.lives_max = 20;
  TraceRecorder recorder(scenario, small);
  RunOptions options;
  options.observer = &recorder;
  const Results results = RunSimulation(scenario, scenario.seed, options);
  const TraceLog log = recorder.Finish(
      engine::Instant::Micros(static_cast<int64_t>(results.ended_at_s * 1e6 + 0.5)));
  CHECK(log.spans.size() == 100);
  CHECK(log.spans_left_out == results.attempts - 100);  // republish: no backoff sleeps
  CHECK(log.lives.size() == 20);
  CHECK(log.lives_dropped > 0);
  // First come first kept: the first ids are in, and the lives are sorted by id.
  CHECK(log.lives.front().id == 0);
  for (size_t i = 1; i < log.lives.size(); ++i) CHECK(log.lives[i - 1].id < log.lives[i].id);
}

// Issue 20, defect 3: a retry storm (every attempt fails and is retried at once, 1000 times)
// with a worker crash every few milliseconds, under small limits.
TEST_CASE("observer: every life, the lives recorded at once and the worker marks are bounded",
          "[model][observer]") {
  nlohmann::json s = nlohmann::json::parse(
      ReadText(std::string(DRAINSIM_SOURCE_DIR) + "/scenarios/monthly-rehearsal.json"));
  s["run"]["events_max"] = 150'000;
  s["retry"]["backoff"] = {{"kind", "constant"}, {"delay_s", 0}};
  s["retry"]["classes"]["transient"]["attempts_max"] = 1000;
  s["faults"].push_back({{"type", "errors"}, {"probability", 1}, {"error", "transient"}});
  s["faults"].push_back({{"type", "worker_crash"}, {"rate_per_h", 1e6}, {"point", "anywhere"}});
  s["workers"]["restart_s"] = 0;
  const scenario::LoadResult loaded = scenario::LoadScenarioText(s.dump());
  REQUIRE(loaded.ok());
  const config::Scenario& scenario = *loaded.scenario;
  TraceOptions small;
  small.life_events_max = 8;
  small.lives_alive_max = 50;
  small.marks_max = 30;
  TraceRecorder recorder(scenario, small);
  RunOptions options;
  options.observer = &recorder;
  const Results results = RunSimulation(scenario, scenario.seed, options);
  const TraceLog log = recorder.Finish(
      engine::Instant::Micros(static_cast<int64_t>(results.ended_at_s * 1e6 + 0.5)));
  REQUIRE(!log.lives.empty());
  int64_t left_out = 0;
  int64_t gaps = 0;
  for (const MessageLife& life : log.lives) {
    REQUIRE(life.events.size() <= 8);
    left_out += life.events_left_out;
    if (life.events_left_out == 0) continue;
    ++gaps;
    // The first quarter, then the latest: still in time order across the gap.
    CHECK(life.gap_at == 2);
    CHECK(life.events.front().type == LifeEvent::Type::kPublish);
    for (size_t i = 1; i < life.events.size(); ++i) {
      CHECK(life.events[i - 1].at <= life.events[i].at);
    }
  }
  CHECK(gaps > 0);
  CHECK(left_out == log.life_events_left_out);
  CHECK(log.lives_not_recorded > 0);  // more than 50 messages alive at once
  CHECK(log.marks_left_out > 0);
  int64_t worker_marks = 0;
  for (const RunMark& m : log.marks) {
    if (m.type == RunMark::Type::kWorkerCrash || m.type == RunMark::Type::kWorkerRestart ||
        (m.type == RunMark::Type::kFault && m.edge == FaultEdge::kStrike)) {
      ++worker_marks;
    }
  }
  CHECK(worker_marks <= 30);
}

TEST_CASE("observer: a recorder that wants no messages still sees progress and faults",
          "[model][observer]") {
  class RunOnly final : public RunObserver {
   public:
    bool WantsMessages() const override { return false; }
    void OnTransition(const TransitionInfo&) override { ++transitions; }
    void OnFaultEdge(uint32_t, FaultEdge, engine::Instant) override { ++faults; }
    int64_t transitions = 0, faults = 0;
  } run_only;
  const config::Scenario scenario = LoadShipped("lost-acks.json");
  RunOptions options;
  options.observer = &run_only;
  const Results watched = RunSimulation(scenario, scenario.seed, options);
  CHECK(watched.fingerprint == RunSimulation(scenario, scenario.seed).fingerprint);
  CHECK(run_only.transitions == 0);
  CHECK(run_only.faults > 0);
}

TEST_CASE("observer: explain's recorder keeps exactly the messages asked for",
          "[model][observer]") {
  const config::Scenario scenario = LoadShipped("cleanup-0200.json");
  TraceOptions by_key;
  by_key.spans = false;
  by_key.only_key = "purge:course-4812:2026-03-01";
  TraceRecorder recorder(scenario, by_key);
  RunOptions options;
  options.observer = &recorder;
  const Results results = RunSimulation(scenario, scenario.seed, options);
  const TraceLog log = recorder.Finish(
      engine::Instant::Micros(static_cast<int64_t>(results.ended_at_s * 1e6 + 0.5)));
  REQUIRE(log.lives.size() == 1);
  CHECK(log.lives[0].key == "purge:course-4812:2026-03-01");
  CHECK(log.kinds.at(log.lives[0].kind_index) == "purge-90k");
  CHECK(log.spans.empty());
  CHECK(log.lives[0].events.front().type == LifeEvent::Type::kPublish);
}

// Writes down every callback it gets, as "name:argument".
class LoggingObserver final : public RunObserver {
 public:
  LoggingObserver(bool messages, bool keys) : messages_(messages), keys_(keys) {}
  bool WantsMessages() const override { return messages_; }
  bool WantsKeys() const override { return keys_; }
  void OnPublish(const PublishInfo& i) override { Log("publish", i.message_id); }
  void OnTransition(const TransitionInfo& i) override { Log("transition", i.message_id); }
  void OnAttemptStart(const AttemptInfo& i) override { Log("start", i.message_id); }
  void OnAttemptEnd(const AttemptEndInfo& i) override { Log("end", i.message_id); }
  void OnCommit(const CommitInfo& i) override { Log("commit", i.message_id); }
  void OnSleep(const SleepInfo& i) override { Log("sleep", i.message_id); }
  void OnReleased(uint64_t id, engine::Instant) override { Log("released", id); }
  void OnFaultEdge(uint32_t fault, FaultEdge edge, engine::Instant) override {
    Log(std::string("fault_") + std::string(FaultEdgeName(edge)), fault);
  }
  void OnWorkerCrash(uint32_t worker, bool after_commit, engine::Instant) override {
    Log(after_commit ? "crash_after_commit" : "crash", worker);
  }
  void OnWorkerRestart(uint32_t worker, engine::Instant) override { Log("restart", worker); }
  void OnDrainStart(uint32_t drain, engine::Instant) override { Log("drain_start", drain); }
  void OnDrainEnd(uint32_t drain, engine::Instant) override { Log("drain_end", drain); }
  void OnProgress(engine::Instant, engine::Instant, int64_t events) override {
    Log("progress", static_cast<uint64_t>(events));
  }
  std::vector<std::string> log;

 private:
  void Log(const std::string& name, uint64_t argument) {
    log.push_back(name + ":" + std::to_string(argument));
  }
  bool messages_;
  bool keys_;
};

TEST_CASE(
    "observer: a tee forwards each callback in order, per-message ones only to those that "
    "want them",
    "[model][observer]") {
  LoggingObserver everything(true, false);
  LoggingObserver run_only(false, true);  // wants keys, but no messages: keys are not wanted
  ObserverTee tee({&everything, &run_only});
  CHECK(tee.WantsMessages());
  CHECK(!tee.WantsKeys());
  const engine::Instant t = engine::Instant::Zero();
  PublishInfo publish;
  publish.message_id = 1;
  tee.OnPublish(publish);
  TransitionInfo transition;
  transition.message_id = 2;
  tee.OnTransition(transition);
  AttemptInfo start;
  start.message_id = 3;
  tee.OnAttemptStart(start);
  AttemptEndInfo end;
  end.message_id = 4;
  tee.OnAttemptEnd(end);
  CommitInfo commit;
  commit.message_id = 5;
  tee.OnCommit(commit);
  SleepInfo sleep;
  sleep.message_id = 6;
  tee.OnSleep(sleep);
  tee.OnReleased(7, t);
  tee.OnFaultEdge(8, FaultEdge::kOpen, t);
  tee.OnFaultEdge(8, FaultEdge::kClose, t);
  tee.OnFaultEdge(9, FaultEdge::kStrike, t);
  tee.OnWorkerCrash(10, true, t);
  tee.OnWorkerCrash(11, false, t);
  tee.OnWorkerRestart(12, t);
  tee.OnDrainStart(13, t);
  tee.OnDrainEnd(14, t);
  tee.OnProgress(t, t, 65536);
  const std::vector<std::string> per_run = {
      "fault_opens:8", "fault_closes:8", "fault_strikes:9", "crash_after_commit:10", "crash:11",
      "restart:12",    "drain_start:13", "drain_end:14",    "progress:65536"};
  std::vector<std::string> all = {"publish:1", "transition:2", "start:3",   "end:4",
                                  "commit:5",  "sleep:6",      "released:7"};
  all.insert(all.end(), per_run.begin(), per_run.end());
  CHECK(everything.log == all);
  CHECK(run_only.log == per_run);

  LoggingObserver keys(true, true);
  CHECK(ObserverTee({&run_only, &keys}).WantsKeys());
  const ObserverTee none({&run_only});
  CHECK(!none.WantsMessages());
  CHECK(!none.WantsKeys());
}

}  // namespace
}  // namespace observer_test
}  // namespace drainsim::model
