#include "experiments/fit_series.h"

#include <algorithm>
#include <cmath>

#include "experiments/fit.h"
#include "experiments/fit_arrivals.h"
#include "sim/base/check.h"
#include "sim/base/decimal.h"

namespace drainsim::experiments {

namespace {

constexpr double kStepTolerance = 1e-6;  // of the step: timestamps printed to microseconds
// A step's count at most: far beyond any queue, and exact in a double.
constexpr double kStepCountMax = 1e15;

// Consecutive counts merged `group` at a time; the left-over ones join the last.
std::vector<int64_t> Merged(const std::vector<int64_t>& counts, size_t group) {
  std::vector<int64_t> out(std::max<size_t>(1, counts.size() / group), 0);
  for (size_t i = 0; i < counts.size(); ++i) out[std::min(out.size() - 1, i / group)] += counts[i];
  return out;
}

}  // namespace

base::Expected<SeriesCounts> InflowCounts(const telemetry::ObservedSeries& series) {
  const std::string where = series.file + ": inflow_per_s: ";
  const auto it = series.figures.find("inflow_per_s");
  if (it == series.figures.end()) {
    std::string names;
    for (const auto& [name, points] : series.figures) names += (names.empty() ? "" : ", ") + name;
    return base::Failure{series.file + ": no inflow_per_s series: fit reads arrivals from it (" +
                         (names.empty() ? "no figure" : "figures: " + names) + ")"};
  }
  const std::vector<telemetry::SeriesPoint>& points = it->second;
  if (points.size() < 2) {
    return base::Failure{where + "one point: fit needs at least two (the step between them)"};
  }
  SeriesCounts out;
  out.file = series.file;
  out.from_s = points[0].t_s;
  out.step_s = points[1].t_s - points[0].t_s;
  DRAINSIM_CHECK(out.step_s > 0);  // the readers' invariant (3): strictly increasing times
  for (size_t i = 0; i < points.size(); ++i) {
    if (i > 0) {
      const double gap_s = points[i].t_s - points[i - 1].t_s;
      if (std::abs(gap_s - out.step_s) > kStepTolerance * out.step_s) {
        return base::Failure{where + "the points at t_s " + base::Decimal(points[i - 1].t_s) +
                             " and " + base::Decimal(points[i].t_s) + " are " +
                             base::Decimal(gap_s) + " s apart, the first two " +
                             base::Decimal(out.step_s) +
                             " s: fit needs equally spaced points (a gap or an irregular step)"};
      }
    }
    const double count = points[i].value * out.step_s;
    if (!(count <= kStepCountMax)) {
      return base::Failure{where + "at t_s " + base::Decimal(points[i].t_s) + ": " +
                           base::Decimal(points[i].value) + " per s over " +
                           base::Decimal(out.step_s) + " s is over 1e15 messages a step"};
    }
    out.counts.push_back(static_cast<int64_t>(std::llround(count)));
  }
  return out;
}

base::Status FitSeriesArrivals(const SeriesCounts& series, double window_s, KindFit* fit) {
  DRAINSIM_CHECK(window_s >= 0);
  const size_t steps = series.counts.size();
  DRAINSIM_CHECK(steps >= 2);
  int64_t total = 0;
  for (const int64_t c : series.counts) total += c;
  size_t group = 1;
  if (window_s > 0) {
    const double ratio = window_s / series.step_s;
    group = static_cast<size_t>(std::max(1.0, std::min(std::round(ratio), 1e9)));
    if (std::abs(static_cast<double>(group) - ratio) > kStepTolerance * ratio) {
      return base::Failure{"--window-s " + base::Decimal(window_s) +
                           ": must be a whole number of " + series.file + "'s steps (" +
                           base::Decimal(series.step_s) + " s)"};
    }
    group = std::min(group, steps);
    if (steps / group > kArrivalWindowsMax) {
      return base::Failure{"--window-s " + base::Decimal(window_s) + ": " +
                           std::to_string(steps / group) + " windows of " + series.file +
                           ": at most " + std::to_string(kArrivalWindowsMax)};
    }
  } else {
    const double for_count = std::ceil(kDispersionCountPerBin * static_cast<double>(steps) /
                                       std::max<double>(1, static_cast<double>(total)));
    const double for_bound =
        std::ceil(static_cast<double>(steps) / static_cast<double>(kArrivalWindowsMax));
    group = static_cast<size_t>(std::max({1.0, for_count, for_bound}));
    group = std::min(group, steps / 2);  // at least two bins to test
  }
  const std::vector<int64_t> bins = Merged(series.counts, group);
  const double bin_s = static_cast<double>(group) * series.step_s;
  const double end_s = static_cast<double>(steps) * series.step_s;
  fit->arrivals.clear();
  fit->dispersion = {};
  if (window_s > 0) {
    for (size_t i = 0; i < bins.size(); ++i) {
      const double until_s = i + 1 == bins.size() ? end_s : static_cast<double>(i + 1) * bin_s;
      fit->arrivals.push_back(PoissonWindow(static_cast<double>(i) * bin_s, until_s, bins[i]));
    }
    fit->bin_counts = bins;
  } else {
    ArrivalRateFit rate = FitArrivalCounts(bins, bin_s);
    fit->arrivals = std::move(rate.segments);
    fit->arrivals.back() = PoissonWindow(fit->arrivals.back().from_s, end_s,
                                         fit->arrivals.back().arrivals);  // left-over steps
    fit->dispersion = rate.dispersion;
    fit->bin_counts = std::move(rate.counts);
  }
  for (ArrivalWindow& w : fit->arrivals) {  // onto the series' own t_s axis
    w.from_s += series.from_s;
    w.until_s += series.from_s;
  }
  fit->bin_s = bin_s;
  fit->bins_from_s = series.from_s;
  fit->arrivals_from = series.file;
  fit->series_steps = static_cast<int64_t>(steps);
  fit->series_step_s = series.step_s;
  return {};
}

namespace {

// The kind a series' arrivals are of (experiments/fit_series.h), or why there is none.
base::Expected<std::string> SeriesKind(const std::string& file, const std::string& asked,
                                       const FitResult& result) {
  if (!asked.empty()) return asked;
  std::string kinds;
  for (const KindFit& k : result.kinds) kinds += (kinds.empty() ? "" : ", ") + k.kind;
  if (result.kinds.size() == 1) return result.kinds[0].kind;
  return base::Failure{file + ": which kind arrives in inflow_per_s? name it with --inflow-kind (" +
                       (kinds.empty() ? "no traces give one" : "the traces have " + kinds) + ")"};
}

}  // namespace

base::Status FitSeriesArrivals(const std::vector<telemetry::ObservedSeries>& series,
                               const std::string& kind, double window_s, FitResult* result) {
  std::vector<std::pair<std::string, SeriesCounts>> fitted;  // kind, counts: all checked first
  for (const telemetry::ObservedSeries& one : series) {
    base::Expected<SeriesCounts> counts = InflowCounts(one);
    if (!counts) return base::Failure{counts.error()};
    const base::Expected<std::string> name = SeriesKind(one.file, kind, *result);
    if (!name) return base::Failure{name.error()};
    for (const auto& [other_kind, other] : fitted) {
      if (other_kind == *name) {
        return base::Failure{one.file + ": " + other.file + " gives the arrivals of kind " + *name +
                             " already: fit one series of inflow_per_s a kind"};
      }
    }
    fitted.emplace_back(*name, std::move(*counts));
  }
  for (const auto& [name, counts] : fitted) {
    auto it = std::lower_bound(
        result->kinds.begin(), result->kinds.end(), name,
        [](const KindFit& k, const std::string& wanted) { return k.kind < wanted; });
    if (it == result->kinds.end() || it->kind != name) {
      KindFit added;
      added.kind = name;
      it = result->kinds.insert(it, std::move(added));
    }
    if (base::Status s = FitSeriesArrivals(counts, window_s, &*it); !s) return s;
    result->series_files.push_back(counts.file);
  }
  return {};
}

}  // namespace drainsim::experiments
