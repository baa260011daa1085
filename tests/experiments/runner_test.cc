// RunTasks (experiments/runner.h) and RunUntilCiWidth (replicate.h) in-process: the records do
// not depend on --jobs, progress is reported once per run, a run that breaks a model invariant
// stops the experiment with the lowest such task whatever the scheduling, and a width never
// reached ends at the maximum.
#include "experiments/runner.h"

#include <catch2/catch.hpp>
#include <mutex>
#include <nlohmann/json.hpp>

#include "experiments/replicate.h"
#include "sim/scenario/load.h"
#include "tests/experiments/small_scenario.h"

namespace drainsim::experiments {
namespace runner_test {
namespace {

// 100 jobs of 1 s on 2 workers: drained at 50 s, then nothing is left to happen.
const char* kDrain = R"({"format_version": 1, "name": "drain", "seed": 5, "run": {"until_s": 600},
  "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1000}}}},
  "backlog": [{"where": "main", "kind": "job", "count": 100}],
  "workers": {"count": 2, "prefetch": 1, "concurrency": 1}})";

config::Scenario Load(const char* text) {
  scenario::LoadResult loaded = scenario::LoadScenarioText(text);
  REQUIRE(loaded.scenario);
  return std::move(*loaded.scenario);
}

std::vector<MetricSpec> Metrics(const char* text, const std::vector<std::string>& names) {
  std::vector<std::string> errors;
  std::optional<std::vector<MetricSpec>> specs =
      ResolveMetrics(nlohmann::json::parse(text), names, &errors);
  REQUIRE(specs);
  return std::move(*specs);
}

TEST_CASE("RunTasks keeps the same records for any jobs and reports progress once per run",
          "[experiments][runner]") {
  const config::Scenario small = Load(testing::kSmallScenario);
  const std::vector<MetricSpec> metrics =
      Metrics(testing::kSmallScenario, {"lost", "attempts", "message_latency_p99_s"});
  std::vector<Task> tasks;
  for (uint64_t seed = 1; seed <= 4; ++seed) tasks.push_back({&small, seed});

  const std::vector<RunRecord> alone = RunTasks(tasks, metrics, RunnerOptions{});
  REQUIRE(alone.size() == 4);
  for (size_t i = 0; i < alone.size(); ++i) {
    CHECK(alone[i].seed == i + 1);
    REQUIRE(alone[i].values.size() == 3);
    CHECK(alone[i].values[0] == 0.0);  // lost
    CHECK(alone[i].values[1] > 0);     // attempts
    CHECK(alone[i].passed == std::vector<bool>{true, true});
  }
  CHECK(alone[0].fingerprint != alone[1].fingerprint);

  RunnerOptions options;
  options.jobs = 3;
  std::mutex mutex;
  std::vector<size_t> progress;
  options.on_done = [&](size_t done, size_t total) {
    const std::lock_guard<std::mutex> lock(mutex);  // RunTasks serialises calls already
    CHECK(total == 4);
    progress.push_back(done);
  };
  CHECK(RunTasks(tasks, metrics, options) == alone);
  CHECK(progress == std::vector<size_t>{1, 2, 3, 4});
}

TEST_CASE("RunTasks throws for the lowest task whose run broke a model invariant",
          "[experiments][runner]") {
  const config::Scenario drain = Load(kDrain);
  std::string quick_text = kDrain;
  quick_text.replace(quick_text.find("\"count\": 100"), 12, "\"count\": 10");
  const config::Scenario quick = Load(quick_text.c_str());
  const std::vector<MetricSpec> metrics = Metrics(kDrain, {"lost"});
  // From 10 s the broker delivers nothing: the drain of 100 goes quiet with messages left (a
  // model error), the drain of 10 is over at 5 s.
  const std::vector<Task> tasks = {{&quick, 1}, {&drain, 7}, {&quick, 2}, {&drain, 8}};
  for (int jobs : {1, 4}) {
    INFO("jobs " << jobs);
    RunnerOptions options;
    options.jobs = jobs;
    options.run.test_stall_at = engine::Instant::Micros(10'000'000);
    try {
      RunTasks(tasks, metrics, options);
      FAIL("no model error");
    } catch (const ModelErrorInRun& e) {
      CHECK(e.scenario_name == "drain");
      CHECK(e.seed == 7);
      CHECK(e.error.invariant == "quiet_end");
      CHECK(std::string(e.what()).rfind(
                "model error (a drainsim bug) in the run of scenario 'drain' with seed 7: "
                "invariant quiet_end broken: ",
                0) == 0);
    }
  }
  // Without the stall every run is fine.
  CHECK(RunTasks(tasks, metrics, RunnerOptions{}).size() == 4);
}

TEST_CASE("RunUntilCiWidth stops at the maximum when the width is never reached, for any jobs",
          "[experiments][runner]") {
  std::string text = testing::kSmallScenario;
  text.replace(text.find("\"until_s\": 600"), 14, "\"until_s\": 60");  // a tenth of the cost
  const config::Scenario small = Load(text.c_str());
  const std::vector<MetricSpec> metrics = Metrics(text.c_str(), {"attempts"});
  // 10 is more than one batch (8 with one job): the first batch decides nothing, the second
  // ends at the maximum with the width not met.
  const CiStopResult alone = RunUntilCiWidth(small, metrics, 3, 1e-9, 2, 10, 0.95, RunnerOptions{});
  CHECK_FALSE(alone.met);
  REQUIRE(alone.records.size() == 10);
  CHECK(alone.records ==
        RunReplications(small, metrics, 3, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, RunnerOptions{}));
  RunnerOptions options;
  options.jobs = 3;  // batches of 12: one batch, cut back to the maximum
  const CiStopResult threaded = RunUntilCiWidth(small, metrics, 3, 1e-9, 2, 10, 0.95, options);
  CHECK_FALSE(threaded.met);
  CHECK(threaded.records == alone.records);
}

}  // namespace
}  // namespace runner_test
}  // namespace drainsim::experiments
