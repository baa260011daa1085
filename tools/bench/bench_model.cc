// Whole-scenario benchmark: the monthly rehearsal scaled to about a million messages, and the
// event loop of the model on a pure drain (the cheapest path a message can take).
#include <benchmark/benchmark.h>

#include <string>

#include "sim/model/simulation.h"
#include "sim/scenario/load.h"

namespace {

using drainsim::config::Scenario;
using drainsim::model::Results;
using drainsim::model::RunSimulation;

Scenario LoadOrDie(const std::string& path) {
  auto loaded = drainsim::scenario::LoadScenarioFile(path);
  if (!loaded.ok()) {
    for (const auto& p : loaded.problems) {
      fprintf(stderr, "%s\n", drainsim::scenario::FormatProblem(path, p).c_str());
    }
    std::abort();
  }
  return *loaded.scenario;
}

// monthly-rehearsal.json with every constant and Poisson producer sped up by `scale`: scale 12
// publishes about 1.0M messages in its six hours (live traffic unchanged).
void BM_MonthlyRehearsalScaled(benchmark::State& state) {
  Scenario scenario =
      LoadOrDie(std::string(DRAINSIM_SOURCE_DIR) + "/scenarios/monthly-rehearsal.json");
  const double scale = static_cast<double>(state.range(0));
  for (auto& producer : scenario.producers) {
    if (auto* c = std::get_if<drainsim::config::ConstantSchedule>(&producer.schedule))
      c->rate_per_s *= scale;
    if (auto* p = std::get_if<drainsim::config::PoissonSchedule>(&producer.schedule))
      p->rate_per_s *= scale;
  }
  scenario.run.events_max = 1'000'000'000;
  int64_t messages = 0;
  int64_t events = 0;
  for (auto _ : state) {
    const Results r = RunSimulation(scenario, scenario.seed);
    messages += r.published;
    events += r.events;
    benchmark::DoNotOptimize(r.fingerprint);
  }
  state.counters["messages/s"] =
      benchmark::Counter(static_cast<double>(messages), benchmark::Counter::kIsRate);
  state.counters["events/s"] =
      benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  state.counters["messages"] =
      static_cast<double>(messages) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_MonthlyRehearsalScaled)->Arg(1)->Arg(12)->Unit(benchmark::kMillisecond);

// A backlog drained by 8 workers with constant service, no database: the model's fixed cost
// per message (publish, deliver, one timed step, ack, release).
void BM_PureDrain(benchmark::State& state) {
  const std::string text = R"({"format_version": 1, "name": "pure", "run": {"until_s": 8640000},
    "kinds": {"job": {"handler": {"cpu_ms": {"exponential": {"mean": 10}}}}},
    "backlog": [{"where": "main", "kind": "job", "count": )" +
                           std::to_string(state.range(0)) + R"(}],
    "workers": {"count": 8}})";
  auto loaded = drainsim::scenario::LoadScenarioText(text);
  if (!loaded.ok()) std::abort();
  int64_t messages = 0;
  for (auto _ : state) {
    const Results r = RunSimulation(*loaded.scenario, 1);
    messages += r.acked;
  }
  state.counters["messages/s"] =
      benchmark::Counter(static_cast<double>(messages), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PureDrain)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

}  // namespace
