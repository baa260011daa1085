#include "experiments/backtest_compare.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "experiments/backtest.h"
#include "sim/base/check.h"

namespace drainsim::experiments {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The p-quantile (type 7) of `sorted` without its element at `skip`. REQUIRES: sorted.size() >= 2
double QuantileWithout(const std::vector<double>& sorted, size_t skip, double p) {
  const size_t n = sorted.size() - 1;
  const auto at = [&](size_t i) { return sorted[i < skip ? i : i + 1]; };
  const double h = p * static_cast<double>(n - 1);
  const size_t lo = static_cast<size_t>(std::floor(h));
  const size_t hi = std::min(lo + 1, n - 1);
  const double frac = h - static_cast<double>(lo);
  if (frac == 0 || at(hi) == at(lo)) return at(lo);
  if (std::isinf(at(hi))) return at(hi);
  return at(lo) + frac * (at(hi) - at(lo));
}

// Adds 1 to inside[r] for each replication r whose value at point k lies inside the band of the
// other replications (leave one out: a run judged against a band it is not part of, as the
// observation is).
void CountRunsInside(const std::vector<std::vector<double>>& runs, size_t k,
                     std::vector<int64_t>* inside) {
  std::vector<std::pair<double, size_t>> order;
  for (size_t r = 0; r < runs.size(); ++r) order.push_back({runs[r][k], r});
  std::sort(order.begin(), order.end());
  std::vector<double> sorted;
  for (const auto& [value, r] : order) sorted.push_back(value);
  for (size_t pos = 0; pos < order.size(); ++pos) {
    const double low = QuantileWithout(sorted, pos, 0.025);
    const double high = QuantileWithout(sorted, pos, 0.975);
    if (low <= sorted[pos] && sorted[pos] <= high) ++(*inside)[order[pos].second];
  }
}

// The figure restricted to the points where every replication has a value.
FigureRuns Compared(const FigureRuns& figure, int64_t* beyond) {
  FigureRuns out{figure.name, {}, {}, std::vector<std::vector<double>>(figure.runs.size())};
  for (size_t k = 0; k < figure.times_s.size(); ++k) {
    const bool all =
        std::all_of(figure.runs.begin(), figure.runs.end(),
                    [k](const std::vector<double>& run) { return !std::isnan(run[k]); });
    if (!all) {
      ++*beyond;
      continue;
    }
    out.times_s.push_back(figure.times_s[k]);
    out.observed.push_back(figure.observed[k]);
    for (size_t r = 0; r < figure.runs.size(); ++r) out.runs[r].push_back(figure.runs[r][k]);
  }
  return out;
}

SeriesComparison CompareSeries(const FigureRuns& figure, int64_t beyond,
                               const BacktestTolerances& tolerances) {
  SeriesComparison out;
  out.name = figure.name;
  out.points_beyond_run = beyond;
  int64_t inside = 0;
  double error_sum = 0;
  std::vector<double> values(figure.runs.size());
  std::vector<int64_t> run_inside(figure.runs.size(), 0);  // leave-one-out, per replication
  for (size_t k = 0; k < figure.times_s.size(); ++k) {
    for (size_t r = 0; r < figure.runs.size(); ++r) values[r] = figure.runs[r][k];
    std::sort(values.begin(), values.end());
    BandPoint point{figure.times_s[k],
                    figure.observed[k],
                    QuantileSorted(values, 0.025),
                    QuantileSorted(values, 0.5),
                    QuantileSorted(values, 0.975),
                    false};
    point.inside = point.low <= point.observed && point.observed <= point.high;
    CountRunsInside(figure.runs, k, &run_inside);
    inside += point.inside ? 1 : 0;
    const double error = std::abs(point.observed - point.median);
    error_sum += error;
    out.max_abs_error = std::max(out.max_abs_error, error);
    out.points.push_back(point);
  }
  const double n = static_cast<double>(out.points.size());
  out.share_in_band = out.points.empty() ? 0 : static_cast<double>(inside) / n;
  out.mean_abs_error = out.points.empty() ? 0 : error_sum / n;
  out.share_floor = tolerances.share_in_band_min;
  if (!out.points.empty()) {
    // A run's series is correlated over time: a run that fills its DLQ a little faster stays
    // outside the band for the whole fill. The replications' shares, each against the band of
    // the others, say how low a run of the model itself goes; the floor never asks more than
    // their 2.5% quantile.
    std::vector<double> run_shares;
    for (const int64_t count : run_inside) run_shares.push_back(static_cast<double>(count) / n);
    std::sort(run_shares.begin(), run_shares.end());
    out.share_floor = std::min(out.share_floor, QuantileSorted(run_shares, 0.025));
  }
  // A figure with no point inside the runs is not judged (points_beyond_run says why).
  out.passed = out.points.empty() || out.share_in_band >= out.share_floor;
  return out;
}

ScalarComparison CompareScalar(const std::string& name, const std::string& rule, double observed,
                               std::vector<double> simulated,
                               const BacktestTolerances& tolerances) {
  std::sort(simulated.begin(), simulated.end());
  ScalarComparison out;
  out.name = name;
  out.rule = rule;
  out.observed = observed;
  out.low = QuantileSorted(simulated, 0.025);
  out.median = QuantileSorted(simulated, 0.5);
  out.high = QuantileSorted(simulated, 0.975);
  const auto never =
      std::count_if(simulated.begin(), simulated.end(), [](double v) { return std::isinf(v); });
  out.never_share = static_cast<double>(never) / static_cast<double>(simulated.size());
  out.inside = out.low <= observed && observed <= out.high;
  const double r = tolerances.relative;
  out.passed = out.low * (1 - r) <= observed && observed <= out.high * (1 + r);
  return out;
}

// Time to empty from dlq_depth when observed, else from depth; peak DLQ depth from dlq_depth.
void CompareScalars(const std::vector<FigureRuns>& compared, const BacktestTolerances& tolerances,
                    BacktestResult* result) {
  const auto find = [&](const char* name) -> const FigureRuns* {
    for (const FigureRuns& f : compared) {
      if (f.name == name && !f.times_s.empty()) return &f;
    }
    return nullptr;
  };
  const FigureRuns* empties = find("dlq_depth");
  if (empties == nullptr) empties = find("depth");
  if (empties != nullptr) {
    std::vector<double> simulated;
    for (const auto& run : empties->runs) simulated.push_back(TimeToEmpty(empties->times_s, run));
    result->scalars.push_back(CompareScalar(
        "time_to_empty_s", "first instant after the first peak of " + empties->name + " at 0",
        TimeToEmpty(empties->times_s, empties->observed), std::move(simulated), tolerances));
  }
  if (const FigureRuns* dlq = find("dlq_depth")) {
    std::vector<double> simulated;
    for (const auto& run : dlq->runs)
      simulated.push_back(*std::max_element(run.begin(), run.end()));
    result->scalars.push_back(
        CompareScalar("peak_dlq_depth", "largest dlq_depth at the observed instants",
                      *std::max_element(dlq->observed.begin(), dlq->observed.end()),
                      std::move(simulated), tolerances));
  }
}

}  // namespace

bool IsComparedFigure(const std::string& name) {
  return name == "depth" || name == "dlq_depth" || name == "oldest_age_s";
}

double TimeToEmpty(const std::vector<double>& times_s, const std::vector<double>& values) {
  DRAINSIM_CHECK(times_s.size() == values.size());
  if (values.empty()) return 0;
  const size_t peak =
      static_cast<size_t>(std::max_element(values.begin(), values.end()) - values.begin());
  if (!(values[peak] > 0)) return 0;
  for (size_t k = peak + 1; k < values.size(); ++k) {
    if (values[k] <= 0) return times_s[k];
  }
  return kInfinity;
}

base::Status CompareAll(const std::vector<FigureRuns>& figures,
                        const BacktestTolerances& tolerances, BacktestResult* result) {
  std::vector<FigureRuns> compared;
  bool any = false;
  for (const FigureRuns& figure : figures) {
    DRAINSIM_CHECK(figure.runs.size() >= 2);
    int64_t beyond = 0;
    compared.push_back(Compared(figure, &beyond));
    result->series.push_back(CompareSeries(compared.back(), beyond, tolerances));
    any = any || !compared.back().times_s.empty();
  }
  if (!any) {
    return base::Failure{
        "no observed point lies inside the simulated runs (every one is after "
        "run.until_s): is the series' origin the scenario's?"};
  }
  CompareScalars(compared, tolerances, result);
  result->passed = true;
  for (const SeriesComparison& s : result->series) result->passed = result->passed && s.passed;
  for (const ScalarComparison& s : result->scalars) result->passed = result->passed && s.passed;
  return {};
}

}  // namespace drainsim::experiments
