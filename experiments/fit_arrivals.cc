#include "experiments/fit_arrivals.h"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>

#include "experiments/fit.h"
#include "sim/base/check.h"

namespace drainsim::experiments {

namespace {

// count * ln(count / length): one side's Poisson log-likelihood at its own rate, up to terms
// that cancel in the ratio; 0 for no events.
double PoissonLogLikelihood(double count, double length) {
  return count > 0 ? count * std::log(count / length) : 0;
}

ArrivalDispersion Dispersion(const std::vector<int64_t>& counts, double bin_s) {
  ArrivalDispersion d;
  d.tested = true;
  d.bins = static_cast<int64_t>(counts.size());
  d.bin_s = bin_s;
  double total = 0;
  for (const int64_t c : counts) total += static_cast<double>(c);
  const double mean = total / static_cast<double>(counts.size());
  if (mean <= 0) return d;  // no arrivals: nothing to test
  double squares = 0;
  for (const int64_t c : counts)
    squares += (static_cast<double>(c) - mean) * (static_cast<double>(c) - mean);
  d.statistic = squares / mean;
  d.index = d.statistic / static_cast<double>(counts.size() - 1);
  const boost::math::chi_squared chi2(static_cast<double>(counts.size() - 1));
  d.p_value = boost::math::cdf(boost::math::complement(chi2, d.statistic));
  d.rejected = d.p_value < kArrivalTestLevel;
  d.p_value_low = boost::math::cdf(chi2, d.statistic);
  d.regular = d.bins >= kRegularBinsMin && d.p_value_low < kRegularTestLevel;
  return d;
}

struct Split {
  size_t at = 0;  // bin index of the boundary; 0: no significant split
  double ratio = 0;
};

// The best boundary of bins [from, until) by the likelihood ratio, if significant (fit_arrivals.h).
Split BestSplit(const SplitRatio& ratio_of, size_t from, size_t until) {
  Split best;
  if (until - from < 2 * kSegmentBinsMin) return best;
  for (size_t at = from + kSegmentBinsMin; at + kSegmentBinsMin <= until; ++at) {
    const double ratio = ratio_of(from, at, until);
    if (ratio > best.ratio) best = {at, ratio};
  }
  const auto candidates = static_cast<double>(until - from - 2 * kSegmentBinsMin + 1);
  const boost::math::chi_squared chi2(1);
  const double critical = boost::math::quantile(chi2, 1 - kArrivalTestLevel / candidates);
  return best.ratio > critical ? best : Split{};
}

// The Poisson likelihood ratio of two rates against one (step (3)).
std::vector<size_t> Segment(const std::vector<int64_t>& counts) {
  std::vector<int64_t> prefix(counts.size() + 1, 0);
  for (size_t i = 0; i < counts.size(); ++i) prefix[i + 1] = prefix[i] + counts[i];
  return SegmentBins(counts.size(), [&](size_t from, size_t at, size_t until) {
    const auto total = static_cast<double>(prefix[until] - prefix[from]);
    const double joint = PoissonLogLikelihood(total, static_cast<double>(until - from));
    const auto left = static_cast<double>(prefix[at] - prefix[from]);
    return 2 * (PoissonLogLikelihood(left, static_cast<double>(at - from)) +
                PoissonLogLikelihood(total - left, static_cast<double>(until - at)) - joint);
  });
}

}  // namespace

std::vector<size_t> SegmentBins(size_t bins, const SplitRatio& ratio) {
  std::vector<size_t> bounds = {0, bins};
  // Sweep left to right, splitting where a split is significant, until a sweep splits nothing.
  for (bool split = true; split && bounds.size() - 1 < kSegmentsMax;) {
    split = false;
    for (size_t i = 0; i + 1 < bounds.size() && bounds.size() - 1 < kSegmentsMax; ++i) {
      const Split s = BestSplit(ratio, bounds[i], bounds[i + 1]);
      if (s.at == 0) continue;
      bounds.insert(bounds.begin() + static_cast<std::ptrdiff_t>(i) + 1, s.at);
      split = true;
      ++i;  // the right half is looked at in the next sweep
    }
  }
  return bounds;
}

ArrivalWindow PoissonWindow(double from_s, double until_s, int64_t arrivals) {
  DRAINSIM_CHECK(until_s > from_s);
  ArrivalWindow w;
  w.from_s = from_s;
  w.until_s = until_s;
  w.arrivals = arrivals;
  const double length_s = until_s - from_s;
  w.rate_per_s = static_cast<double>(arrivals) / length_s;
  const Interval95 mean = Garwood95(arrivals);
  w.poisson = {mean.low / length_s, mean.high / length_s};
  return w;
}

namespace {

// The rule's steps (2) to (4) on bins of bin_s; the last segment ends at end_s.
ArrivalRateFit FitCounts(std::vector<int64_t> counts, double bin_s, double end_s) {
  const size_t bins = counts.size();
  ArrivalRateFit fit;
  fit.dispersion = Dispersion(counts, bin_s);
  const std::vector<size_t> bounds =
      fit.dispersion.rejected ? Segment(counts) : std::vector<size_t>{0, bins};
  fit.counts = std::move(counts);
  for (size_t i = 0; i + 1 < bounds.size(); ++i) {
    int64_t arrivals = 0;
    for (size_t b = bounds[i]; b < bounds[i + 1]; ++b) arrivals += fit.counts[b];
    // The last segment ends at end_s exactly, not at bins * bin_s rounded.
    const double until_s =
        bounds[i + 1] == bins ? end_s : static_cast<double>(bounds[i + 1]) * bin_s;
    fit.segments.push_back(
        PoissonWindow(static_cast<double>(bounds[i]) * bin_s, until_s, arrivals));
  }
  return fit;
}

}  // namespace

ArrivalRateFit FitArrivalCounts(std::vector<int64_t> counts, double bin_s) {
  DRAINSIM_CHECK(counts.size() >= 2);
  DRAINSIM_CHECK(bin_s > 0);
  for (const int64_t c : counts) DRAINSIM_CHECK(c >= 0);
  const double end_s = static_cast<double>(counts.size()) * bin_s;
  ArrivalRateFit fit = FitCounts(std::move(counts), bin_s, end_s);
  fit.dispersion.regular = false;  // rule (5): a series' smoothness is its averaging
  return fit;
}

ArrivalRateFit FitArrivalRate(const std::vector<double>& arrivals_s, double end_s) {
  DRAINSIM_CHECK(end_s > 0);
  const double wanted = static_cast<double>(arrivals_s.size()) / kDispersionCountPerBin;
  const auto bins = static_cast<size_t>(
      std::clamp(std::floor(wanted), 2.0, static_cast<double>(kArrivalWindowsMax)));
  const double bin_s = end_s / static_cast<double>(bins);
  std::vector<int64_t> counts(bins, 0);
  for (const double t_s : arrivals_s) {
    DRAINSIM_CHECK(t_s >= 0);
    ++counts[std::min(bins - 1, static_cast<size_t>(t_s / bin_s))];
  }
  return FitCounts(std::move(counts), bin_s, end_s);
}

}  // namespace drainsim::experiments
