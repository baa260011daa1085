// Statistics of replications: what `drainsim run --replications`, `compare`, `sweep` and `tune`
// say about a metric over independent runs, and about the paired differences of two scenarios.
//
// Each replication is one run with its own seed, so a metric's values are independent and
// identically distributed, and
//   mean +- t((1 + level) / 2, n - 1) * sd / sqrt(n)
// is a confidence interval of that level for its expectation (Student t; sd: the sample standard
// deviation, divisor n - 1). The interval assumes the mean is close to normal; for a count that
// is almost always 0, or a figure with a few huge outliers, read it with min, max and p95.
//
// Contract:
//  (1) A run where the metric had no value (the DLQ never emptied: no time_to_empty_s) is
//      counted in `undefined` and left out of every other figure; nothing is imputed.
//  (2) p50 and p95 are nearest-rank percentiles: the value of rank ceil(p * n) in increasing
//      order (1-based), always one of the measured values.
//  (3) half_width >= 0, and it is 0 iff every defined value is the same (or n < 2: no interval,
//      has_interval() is false and ci_low = ci_high = mean).
//  (4) Deterministic: the same values in the same order give the same bits (Eigen's reductions
//      are fixed for a given binary), so results do not depend on how many threads made them.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

namespace drainsim::experiments {

struct Statistics {
  int64_t runs = 0;       // replications looked at
  int64_t undefined = 0;  // of them, runs where the metric had no value
  int64_t count = 0;      // runs - undefined: the values every figure below is over
  // Meaningful iff count >= 1.
  double mean = 0;
  double p50 = 0;
  double p95 = 0;
  double min = 0;
  double max = 0;
  // Meaningful iff count >= 2 (has_interval()); otherwise 0, and ci_low = ci_high = mean.
  double sd = 0;
  double half_width = 0;  // of the two-sided interval at `level`
  double ci_low = 0;
  double ci_high = 0;
  double level = 0.95;

  bool has_interval() const { return count >= 2; }
  double StandardError() const;
  // half_width / |mean|, the JMT stopping figure: 0 when half_width is 0, +infinity when the
  // mean is 0 but the values are not all 0, or when there is no interval.
  double RelativeHalfWidth() const;
  // The one-sided bounds of confidence `confidence`: mean + t(confidence, n - 1) * se, and
  // mean - t(...) * se. REQUIRES: has_interval(), 0.5 <= confidence < 1
  double UpperBound(double confidence) const;
  double LowerBound(double confidence) const;
};

// REQUIRES: 0 < level < 1, every defined value finite
Statistics Describe(std::span<const std::optional<double>> values, double level);

// The paired differences b[i] - a[i], over the indices where both are defined (the others are
// counted in `undefined`). REQUIRES: a.size() == b.size()
Statistics DescribeDifferences(std::span<const std::optional<double>> a,
                               std::span<const std::optional<double>> b, double level);

// The half-width of the confidence interval for mean(b) - mean(a) had a and b been sampled
// independently (Welch: se = sqrt(sa^2 / na + sb^2 / nb), Welch-Satterthwaite degrees of
// freedom rounded down). What common random numbers are measured against. nullopt iff either
// has fewer than two values.
std::optional<double> UnpairedHalfWidth(const Statistics& a, const Statistics& b);

}  // namespace drainsim::experiments
