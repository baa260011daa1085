#include "experiments/fit_windows.h"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>

#include "experiments/fit.h"
#include "experiments/fit_arrivals.h"
#include "sim/base/check.h"

namespace drainsim::experiments {

namespace {

// One side's binomial log-likelihood at its own probability; 0 when f is 0 or n.
double BinomialLogLikelihood(double failures, double trials) {
  double l = 0;
  if (failures > 0) l += failures * std::log(failures / trials);
  if (trials > failures) l += (trials - failures) * std::log((trials - failures) / trials);
  return l;
}

FailureHomogeneity Homogeneity(const std::vector<int64_t>& failures,
                               const std::vector<int64_t>& trials, double bin_s) {
  FailureHomogeneity h;
  h.tested = true;
  h.bins = static_cast<int64_t>(trials.size());
  h.bin_s = bin_s;
  double f = 0;
  double n = 0;
  for (size_t i = 0; i < trials.size(); ++i) {
    f += static_cast<double>(failures[i]);
    n += static_cast<double>(trials[i]);
  }
  const double p = f / n;
  int64_t used = 0;
  for (size_t i = 0; i < trials.size(); ++i) {
    if (trials[i] == 0) continue;
    ++used;
    const auto ni = static_cast<double>(trials[i]);
    const double d = static_cast<double>(failures[i]) - ni * p;
    h.statistic += d * d / (ni * p * (1 - p));
  }
  if (used < 2) return h;  // one bin with trials: nothing to compare
  const boost::math::chi_squared chi2(static_cast<double>(used - 1));
  h.p_value = boost::math::cdf(boost::math::complement(chi2, h.statistic));
  h.rejected = h.p_value < kArrivalTestLevel;
  return h;
}

ProbabilityWindow Window(double from_s, double until_s, int64_t failures, int64_t trials) {
  ProbabilityWindow w;
  w.from_s = from_s;
  w.until_s = until_s;
  w.failures = failures;
  w.trials = trials;
  w.probability = trials > 0 ? static_cast<double>(failures) / static_cast<double>(trials) : 0;
  if (trials > 0) w.wilson = Wilson95(failures, trials);
  return w;
}

// The trials sorted by time, with prefix counts: [i] of the first i trials.
struct Sorted {
  std::vector<double> t_s;
  std::vector<int64_t> failures;  // size + 1
};

Sorted SortTrials(const std::vector<Trial>& trials) {
  std::vector<Trial> by_time = trials;
  std::stable_sort(by_time.begin(), by_time.end(),
                   [](const Trial& a, const Trial& b) { return a.t_s < b.t_s; });
  Sorted out;
  out.failures.push_back(0);
  for (const Trial& t : by_time) {
    out.t_s.push_back(t.t_s);
    out.failures.push_back(out.failures.back() + (t.failed ? 1 : 0));
  }
  return out;
}

// Step (3)'s interior edges moved to the trial level: each edge within one bin either side, to
// where the two windows beside it are likeliest (between two trials' times). Bins straddling a
// change would otherwise join the window with failures, diluting its probability.
std::vector<double> Refined(const std::vector<Trial>& trials, std::vector<double> edges_s,
                            double bin_s) {
  const Sorted sorted = SortTrials(trials);
  const auto index_at = [&](double t_s) {
    return static_cast<size_t>(std::lower_bound(sorted.t_s.begin(), sorted.t_s.end(), t_s) -
                               sorted.t_s.begin());
  };
  for (size_t e = 1; e + 1 < edges_s.size(); ++e) {
    const size_t from = index_at(edges_s[e - 1]);
    const size_t until = index_at(edges_s[e + 1]);
    const size_t low = std::max(from + 1, index_at(edges_s[e] - bin_s));
    const size_t high = std::min(until, index_at(edges_s[e] + bin_s));
    double best = -INFINITY;
    size_t best_at = 0;
    for (size_t at = low; at < high; ++at) {  // left: trials [from, at), right: [at, until)
      const auto f1 = static_cast<double>(sorted.failures[at] - sorted.failures[from]);
      const auto f2 = static_cast<double>(sorted.failures[until] - sorted.failures[at]);
      const double l = BinomialLogLikelihood(f1, static_cast<double>(at - from)) +
                       BinomialLogLikelihood(f2, static_cast<double>(until - at));
      if (l > best) {
        best = l;
        best_at = at;
      }
    }
    if (best_at > 0) edges_s[e] = (sorted.t_s[best_at - 1] + sorted.t_s[best_at]) / 2;
  }
  return edges_s;
}

// The windows between consecutive edges, with their counts.
std::vector<ProbabilityWindow> WindowsOf(const std::vector<Trial>& trials,
                                         const std::vector<double>& edges_s) {
  std::vector<int64_t> failures(edges_s.size() - 1, 0);
  std::vector<int64_t> tried(edges_s.size() - 1, 0);
  for (const Trial& t : trials) {
    const auto after = std::upper_bound(edges_s.begin() + 1, edges_s.end() - 1, t.t_s);
    const auto w = static_cast<size_t>(after - edges_s.begin()) - 1;
    ++tried[w];
    failures[w] += t.failed ? 1 : 0;
  }
  std::vector<ProbabilityWindow> out;
  for (size_t w = 0; w + 1 < edges_s.size(); ++w) {
    out.push_back(Window(edges_s[w], edges_s[w + 1], failures[w], tried[w]));
  }
  return out;
}

}  // namespace

FailureWindowsFit FitFailureWindows(const std::vector<Trial>& trials, double end_s) {
  DRAINSIM_CHECK(end_s > 0);
  int64_t failed = 0;
  for (const Trial& t : trials) failed += t.failed ? 1 : 0;
  const auto total = static_cast<int64_t>(trials.size());
  FailureWindowsFit fit;
  const double wanted =
      std::floor(static_cast<double>(std::min(failed, total - failed)) / kDispersionCountPerBin);
  if (wanted < 2) {  // too few failures (or successes) to test: one window
    fit.windows.push_back(Window(0, end_s, failed, total));
    return fit;
  }
  const auto bins = static_cast<size_t>(std::min(wanted, static_cast<double>(kArrivalWindowsMax)));
  const double bin_s = end_s / static_cast<double>(bins);
  std::vector<int64_t> failures(bins, 0);
  std::vector<int64_t> tried(bins, 0);
  for (const Trial& t : trials) {
    DRAINSIM_CHECK(t.t_s >= 0);
    const size_t bin = std::min(bins - 1, static_cast<size_t>(t.t_s / bin_s));
    ++tried[bin];
    failures[bin] += t.failed ? 1 : 0;
  }
  fit.homogeneity = Homogeneity(failures, tried, bin_s);
  std::vector<int64_t> f_prefix(bins + 1, 0);
  std::vector<int64_t> n_prefix(bins + 1, 0);
  for (size_t i = 0; i < bins; ++i) {
    f_prefix[i + 1] = f_prefix[i] + failures[i];
    n_prefix[i + 1] = n_prefix[i] + tried[i];
  }
  const auto ratio = [&](size_t from, size_t at, size_t until) {
    const auto f1 = static_cast<double>(f_prefix[at] - f_prefix[from]);
    const auto n1 = static_cast<double>(n_prefix[at] - n_prefix[from]);
    const auto f2 = static_cast<double>(f_prefix[until] - f_prefix[at]);
    const auto n2 = static_cast<double>(n_prefix[until] - n_prefix[at]);
    return 2 * (BinomialLogLikelihood(f1, n1) + BinomialLogLikelihood(f2, n2) -
                BinomialLogLikelihood(f1 + f2, n1 + n2));
  };
  const std::vector<size_t> bounds =
      fit.homogeneity.rejected ? SegmentBins(bins, ratio) : std::vector<size_t>{0, bins};
  std::vector<double> edges_s = {0};
  for (size_t i = 1; i + 1 < bounds.size(); ++i) {
    edges_s.push_back(static_cast<double>(bounds[i]) * bin_s);
  }
  edges_s.push_back(end_s);
  if (edges_s.size() > 2) edges_s = Refined(trials, edges_s, bin_s);
  fit.windows = WindowsOf(trials, edges_s);
  return fit;
}

}  // namespace drainsim::experiments
