#include "experiments/backtest.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>

#include "experiments/backtest_compare.h"
#include "experiments/parallel.h"
#include "experiments/seeds.h"
#include "sim/base/check.h"
#include "sim/model/simulation.h"

namespace drainsim::experiments {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double SampleValue(const model::Sample& sample, const std::string& name) {
  if (name == "depth") return static_cast<double>(sample.depth);
  if (name == "dlq_depth") return static_cast<double>(sample.dlq_depth);
  DRAINSIM_CHECK(name == "oldest_age_s");
  return sample.oldest_age_s;
}

// What is compared: the observation's series figures, their instants and values.
struct Plan {
  std::vector<std::string> figures;
  std::vector<std::vector<double>> times_s;   // per figure
  std::vector<std::vector<double>> observed;  // per figure
};

Plan MakePlan(const telemetry::ObservedSeries& observed, std::vector<std::string>* notes) {
  Plan plan;
  for (const auto& [name, points] : observed.figures) {
    if (!IsComparedFigure(name)) {
      notes->push_back(name + ": read, not compared (the model records no such series)");
      continue;
    }
    plan.figures.push_back(name);
    plan.times_s.emplace_back();
    plan.observed.emplace_back();
    for (const telemetry::SeriesPoint& point : points) {
      plan.times_s.back().push_back(point.t_s);
      plan.observed.back().push_back(point.value);
    }
  }
  return plan;
}

// Per replication, per figure of the plan: the values at the figure's observed instants.
std::vector<std::vector<std::vector<double>>> RunAll(const config::Scenario& scenario,
                                                     const Plan& plan, uint64_t base_seed,
                                                     int64_t replications,
                                                     const RunnerOptions& options) {
  const size_t count = static_cast<size_t>(replications);
  std::vector<std::vector<std::vector<double>>> runs(count);
  std::vector<std::optional<model::ModelError>> model_errors(count);
  std::mutex progress_mutex;
  size_t done = 0;
  ParallelFor(count, options.jobs, [&](size_t r) {
    const model::Results results =
        model::RunSimulation(scenario, ReplicationSeed(base_seed, r), options.run);
    model_errors[r] = results.model_error;
    for (size_t f = 0; f < plan.figures.size(); ++f) {
      runs[r].push_back(ResampleRun(results, plan.figures[f], plan.times_s[f]));
    }
    if (options.on_done) {
      const std::lock_guard<std::mutex> lock(progress_mutex);
      options.on_done(++done, count);
    }
  });
  for (size_t r = 0; r < count; ++r) {
    if (model_errors[r]) {
      throw ModelErrorInRun(scenario.name, ReplicationSeed(base_seed, r), *model_errors[r]);
    }
  }
  return runs;
}

}  // namespace

std::vector<double> ResampleRun(const model::Results& results, const std::string& name,
                                const std::vector<double>& times_s) {
  const std::vector<model::Sample>& series = results.series;
  const bool at_rest = !results.reached_until && !results.events_max_reached;
  std::vector<double> out;
  out.reserve(times_s.size());
  size_t k = 0;  // series[k] is the first sample at or after the time asked for
  for (const double t_s : times_s) {
    while (k < series.size() && series[k].t_s < t_s) ++k;
    if (series.empty()) {
      out.push_back(kNaN);
    } else if (k == series.size()) {
      out.push_back(at_rest ? SampleValue(series.back(), name) : kNaN);
    } else if (k == 0 || series[k].t_s == t_s) {
      out.push_back(SampleValue(series[k], name));
    } else {
      const model::Sample& a = series[k - 1];
      const model::Sample& b = series[k];
      const double w = (t_s - a.t_s) / (b.t_s - a.t_s);
      out.push_back(SampleValue(a, name) + w * (SampleValue(b, name) - SampleValue(a, name)));
    }
  }
  return out;
}

double QuantileSorted(const std::vector<double>& sorted, double p) {
  DRAINSIM_CHECK(!sorted.empty());
  DRAINSIM_CHECK(p >= 0 && p <= 1);
  const double h = p * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(h));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = h - static_cast<double>(lo);
  if (frac == 0 || sorted[hi] == sorted[lo]) return sorted[lo];
  if (std::isinf(sorted[hi])) return sorted[hi];  // between a time and "never": never
  return sorted[lo] + frac * (sorted[hi] - sorted[lo]);
}

base::Expected<BacktestResult> RunBacktest(const config::Scenario& scenario,
                                           const telemetry::ObservedSeries& observed,
                                           uint64_t base_seed, int64_t replications,
                                           const BacktestTolerances& tolerances,
                                           const RunnerOptions& options) {
  DRAINSIM_CHECK(replications >= 2);
  BacktestResult result;
  result.scenario_name = scenario.name;
  result.observed_file = observed.file;
  result.base_seed = base_seed;
  result.replications = replications;
  result.tolerances = tolerances;
  const Plan plan = MakePlan(observed, &result.notes);
  if (plan.figures.empty()) {
    return base::Failure{observed.file +
                         ": no figure to compare (depth, dlq_depth or oldest_age_s)"};
  }
  const auto runs = RunAll(scenario, plan, base_seed, replications, options);
  std::vector<FigureRuns> figures;
  for (size_t f = 0; f < plan.figures.size(); ++f) {
    FigureRuns figure{plan.figures[f], plan.times_s[f], plan.observed[f], {}};
    for (const auto& run : runs) figure.runs.push_back(run[f]);
    figures.push_back(std::move(figure));
  }
  if (base::Status s = CompareAll(figures, tolerances, &result); !s) {
    return base::Failure{observed.file + ": " + s.error()};
  }
  return result;
}

}  // namespace drainsim::experiments
