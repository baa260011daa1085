#include "live/side_by_side.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "experiments/parallel.h"
#include "experiments/runner.h"
#include "experiments/seeds.h"
#include "live/downstream_report.h"
#include "reports/metrics.h"
#include "sim/base/check.h"
#include "sim/model/simulation.h"

namespace drainsim::live {

namespace {

using model::MessageState;

// One compared figure: its unit, whether it is a wall time (the tolerance applies), and how
// each side measures it.
enum class Needs : uint8_t { kNothing, kDatabase, kDrain, kRestart };

struct Figure {
  const char* name;
  const char* unit;
  bool wall_time;
  Needs needs;
  std::optional<double> (*simulated)(const model::Results&, std::optional<double> settled_s);
  std::optional<double> (*live)(const LiveResult&);
};

template <typename T>
std::optional<double> Some(T value) {
  return static_cast<double>(value);
}

// The order of report.json's `comparison`.
const Figure kFigures[] = {
    {"published", "messages", false, Needs::kNothing,
     [](const model::Results& r, std::optional<double>) { return Some(r.published); },
     [](const LiveResult& l) { return Some(l.published); }},
    {"attempts", "attempts", false, Needs::kNothing,
     [](const model::Results& r, std::optional<double>) { return Some(r.attempts); },
     [](const LiveResult& l) { return Some(l.attempts); }},
    {"human_needed", "messages", false, Needs::kNothing,
     [](const model::Results& r, std::optional<double>) { return Some(r.human_needed); },
     [](const LiveResult& l) { return Some(l.dead_lettered + l.parked); }},
    {"dlq_end", "messages", false, Needs::kNothing,
     [](const model::Results& r, std::optional<double>) { return Some(r.dlq_end); },
     [](const LiveResult& l) { return Some(l.dead_lettered); }},
    {"parked", "messages", false, Needs::kNothing,
     [](const model::Results& r, std::optional<double>) { return Some(r.parked); },
     [](const LiveResult& l) { return Some(l.parked); }},
    {"unfinished", "messages", false, Needs::kNothing,
     [](const model::Results& r, std::optional<double>) { return Some(r.not_terminal_end); },
     [](const LiveResult& l) { return Some(l.unfinished); }},
    {"lost", "messages", false, Needs::kNothing,
     [](const model::Results& r, std::optional<double>) { return Some(r.lost); },
     [](const LiveResult& l) { return Some(l.lost); }},
    {"duplicate_executions", "executions", false, Needs::kNothing,
     [](const model::Results& r, std::optional<double>) { return Some(r.duplicate_executions); },
     [](const LiveResult& l) { return Some(l.duplicate_executions); }},
    // broker_restart (live/broker_restart.h): the redeliveries of the claim kinds that a claim
    // row stopped (the none kinds' run again: duplicate_executions above).
    {"duplicates_suppressed", "executions", false, Needs::kRestart,
     [](const model::Results& r, std::optional<double>) { return Some(r.duplicates_suppressed); },
     [](const LiveResult& l) { return Some(l.suppressed); }},
    {"db_timeouts", "queries", false, Needs::kDatabase,
     [](const model::Results& r, std::optional<double>) { return Some(r.db_timeouts); },
     [](const LiveResult& l) { return Some(l.db_timeouts); }},
    {"main_queue_settled_s", "s", true, Needs::kNothing,
     [](const model::Results&, std::optional<double> settled_s) { return settled_s; },
     [](const LiveResult& l) { return l.time_to_empty_s; }},
    {"replays", "messages", false, Needs::kDrain,
     [](const model::Results& r, std::optional<double>) { return Some(r.replays); },
     [](const LiveResult& l) { return Some(l.drain.replayed); }},
    // The simulation's time_to_empty_s: from the (one) drain's start. The live run measures it
    // from its drainer's start to the last settle (live/harness.h): the same instant when the
    // drain's replays are what settles last, as in live-drain.json.
    {"time_to_empty_s", "s", true, Needs::kDrain,
     [](const model::Results& r, std::optional<double>) { return r.time_to_empty_s; },
     [](const LiveResult& l) { return l.drain_time_to_empty_s; }},
};

std::optional<double> SimulatedLive(const model::Results& r, reports::Stat stat) {
  return reports::HistogramStat(r.live_latency_us, stat, 1e3);
}

// With database.live_traffic (live/live_traffic.h): latencies in ms of wall time, with
// SideBySideOptions::latency_tolerance_ms; errors a count.
const Figure kLiveTrafficFigures[] = {
    {"live_errors", "queries", false, Needs::kDatabase,
     [](const model::Results& r, std::optional<double>) { return Some(r.live_errors); },
     [](const LiveResult& l) { return Some(l.live_traffic.errors); }},
    {"live_p50_ms", "ms", true, Needs::kDatabase,
     [](const model::Results& r, std::optional<double>) {
       return SimulatedLive(r, reports::Stat::kP50);
     },
     [](const LiveResult& l) { return l.live_traffic.p50_ms; }},
    {"live_p99_ms", "ms", true, Needs::kDatabase,
     [](const model::Results& r, std::optional<double>) {
       return SimulatedLive(r, reports::Stat::kP99);
     },
     [](const LiveResult& l) { return l.live_traffic.p99_ms; }},
};

bool HasBrokerRestart(const config::Scenario& s) {
  return std::any_of(s.faults.begin(), s.faults.end(), [](const config::Fault& f) {
    return std::holds_alternative<config::BrokerRestartFault>(f);
  });
}

bool HasLiveTraffic(const config::Scenario& s) {
  return s.database && s.database->live_traffic.has_value();
}

std::vector<const Figure*> FiguresFor(const config::Scenario& s) {
  std::vector<const Figure*> figures;
  for (const Figure& f : kFigures) {
    const bool has = f.needs == Needs::kNothing ||
                     (f.needs == Needs::kDatabase && s.database.has_value()) ||
                     (f.needs == Needs::kDrain && !s.drains.empty()) ||
                     (f.needs == Needs::kRestart && HasBrokerRestart(s));
    if (has) figures.push_back(&f);
  }
  if (HasLiveTraffic(s)) {
    for (const Figure& f : kLiveTrafficFigures) figures.push_back(&f);
  }
  return figures;
}

bool InMainQueue(MessageState state) {
  return state == MessageState::kReady || state == MessageState::kDelayed ||
         state == MessageState::kInFlight;
}

// Watches a run for the instant of its last settle: the last transition out of the main queue.
class SettleWatch final : public model::RunObserver {
 public:
  void OnTransition(const model::TransitionInfo& info) override {
    if (InMainQueue(info.from) && !InMainQueue(info.to)) last_settle_s_ = info.at.seconds();
  }
  std::optional<double> last_settle_s() const { return last_settle_s_; }

 private:
  std::optional<double> last_settle_s_;
};

// One replication's main queue at its sampled rows: (t_s, ready + delayed + in flight). Kept
// instead of the whole Sample rows, which are ten times larger.
using MainQueueRows = std::vector<std::pair<double, double>>;

MainQueueRows MainQueueOf(const std::vector<model::Sample>& series) {
  MainQueueRows rows;
  rows.reserve(series.size());
  for (const model::Sample& at : series) {
    rows.emplace_back(at.t_s, static_cast<double>(at.depth + at.delayed_depth + at.in_flight));
  }
  return rows;
}

// The grid's step: sample_every_s, or a whole multiple of it that keeps the grid within
// kChartSamplesMax steps (the chart draws at most 2,000 points; 30 replications of a million
// samples would not fit in memory).
constexpr double kChartSamplesMax = 10'000;

double ChartStep(const std::vector<MainQueueRows>& runs, double sample_every_s) {
  double end_s = 0;
  for (const auto& run : runs) {
    if (!run.empty()) end_s = std::max(end_s, run.back().first);
  }
  return sample_every_s * std::max(1.0, std::ceil(end_s / sample_every_s / kChartSamplesMax));
}

// Contract (4): every replication's main queue on the common grid k * dt.
std::vector<std::vector<double>> MainQueueOnGrid(const std::vector<MainQueueRows>& runs,
                                                 double dt_s) {
  double end_s = 0;
  for (const auto& run : runs) {
    if (!run.empty()) end_s = std::max(end_s, run.back().first);
  }
  const size_t samples = static_cast<size_t>(std::floor(end_s / dt_s + 1e-9)) + 1;
  std::vector<std::vector<double>> grid(runs.size(), std::vector<double>(samples, 0));
  for (size_t r = 0; r < runs.size(); ++r) {
    size_t row = 0;
    for (size_t k = 0; k < samples && !runs[r].empty(); ++k) {
      const double t_s = static_cast<double>(k) * dt_s;
      while (row + 1 < runs[r].size() && runs[r][row + 1].first <= t_s + 1e-9) ++row;
      grid[r][k] = runs[r][row].second;
    }
  }
  return grid;
}

}  // namespace

SimulatedWait SimulatedWaitOf(const SimulatedSide& side) {
  SimulatedWait wait;
  for (size_t i = 0; i < side.queue_wait_p50_ms.size(); ++i) {
    if (!side.queue_wait_p50_ms[i]) continue;
    ++wait.replications;
    wait.p50_ms += *side.queue_wait_p50_ms[i];
    wait.p99_ms += *side.queue_wait_p99_ms[i];
  }
  if (wait.replications > 0) {
    wait.p50_ms /= static_cast<double>(wait.replications);
    wait.p99_ms /= static_cast<double>(wait.replications);
  }
  return wait;
}

std::vector<std::string> ComparedFigures(const config::Scenario& scenario) {
  std::vector<std::string> names;
  for (const Figure* f : FiguresFor(scenario)) names.emplace_back(f->name);
  for (std::string& name : DownstreamFigures(scenario)) names.push_back(std::move(name));
  return names;
}

std::optional<double> SimulatedSettled(const model::Results& results,
                                       std::optional<double> last_settle_s) {
  if (results.not_terminal_end != 0) return std::nullopt;
  return last_settle_s;
}

SimulatedSide RunSimulatedSide(const config::Scenario& scenario, uint64_t base_seed,
                               int64_t replications, int jobs) {
  DRAINSIM_CHECK(replications >= 1);
  const std::vector<const Figure*> figures = FiguresFor(scenario);
  SimulatedSide side;
  side.base_seed = base_seed;
  side.replications = replications;
  side.names = ComparedFigures(scenario);
  const size_t n = static_cast<size_t>(replications);
  side.values.assign(side.names.size(), std::vector<std::optional<double>>(n));
  side.queue_wait_p50_ms.assign(n, std::nullopt);
  side.queue_wait_p99_ms.assign(n, std::nullopt);
  std::vector<std::optional<model::ModelError>> errors(n);
  std::vector<MainQueueRows> series(n);
  experiments::ParallelFor(n, jobs, [&](size_t i) {
    SettleWatch watch;
    DownstreamWatch downstream;  // its 503s (live/downstream_report.h)
    model::ObserverTee tee({&watch, &downstream});
    model::RunOptions options;
    options.observer = &tee;
    const uint64_t seed = experiments::ReplicationSeed(base_seed, i);
    const model::Results results = model::RunSimulation(scenario, seed, options);
    errors[i] = results.model_error;
    series[i] = MainQueueOf(results.series);
    if (!results.queue_wait_us.empty()) {
      side.queue_wait_p50_ms[i] = static_cast<double>(results.queue_wait_us.Quantile(0.50)) / 1e3;
      side.queue_wait_p99_ms[i] = static_cast<double>(results.queue_wait_us.Quantile(0.99)) / 1e3;
    }
    const std::optional<double> settled = SimulatedSettled(results, watch.last_settle_s());
    for (size_t f = 0; f < figures.size(); ++f) {
      side.values[f][i] = figures[f]->simulated(results, settled);
    }
    if (scenario.downstream) {
      const std::vector<std::optional<double>> d = DownstreamSimulated(results, downstream);
      for (size_t k = 0; k < d.size(); ++k) side.values[figures.size() + k][i] = d[k];
    }
  });
  side.sample_every_s = ChartStep(series, scenario.run.sample_every.seconds());
  side.main_queue = MainQueueOnGrid(series, side.sample_every_s);
  for (size_t i = 0; i < n; ++i) {
    if (errors[i]) {
      throw experiments::ModelErrorInRun(scenario.name, experiments::ReplicationSeed(base_seed, i),
                                         *errors[i]);
    }
  }
  return side;
}

std::vector<Comparison> CompareSides(const config::Scenario& scenario, const LiveResult& live,
                                     const SimulatedSide& simulated,
                                     const SideBySideOptions& options) {
  const std::vector<const Figure*> figures = FiguresFor(scenario);
  const std::vector<std::string> downstream = DownstreamFigures(scenario);
  DRAINSIM_CHECK(figures.size() + downstream.size() == simulated.values.size());
  std::vector<Comparison> rows;
  for (size_t f = 0; f < figures.size(); ++f) {
    const Figure& figure = *figures[f];
    const double wall_tolerance =
        std::string(figure.unit) == "ms" ? options.latency_tolerance_ms : options.time_tolerance_s;
    rows.push_back(figure.wall_time
                       ? Compare(figure.name, figure.unit, figure.live(live), simulated.values[f],
                                 wall_tolerance, options.level)
                       : CompareCount(figure.name, figure.unit, figure.live(live),
                                      simulated.values[f], options.level));
  }
  const std::vector<std::optional<double>> downstream_live = DownstreamLive(live);
  for (size_t k = 0; k < downstream.size(); ++k) {
    rows.push_back(CompareCount(downstream[k], kDownstreamUnit, downstream_live[k],
                                simulated.values[figures.size() + k], options.level));
  }
  if (scenario.drains.empty()) {
    rows.push_back(NotCompared("time_to_empty_s", "s",
                               "no drain planned; it counts from the first drain's start"));
  }
  if (!HasLiveTraffic(scenario)) {
    rows.push_back(NotCompared("live_p50_ms", "ms", "the scenario has no live traffic"));
    rows.push_back(NotCompared("live_p99_ms", "ms", "the scenario has no live traffic"));
  }
  return rows;
}

}  // namespace drainsim::live
