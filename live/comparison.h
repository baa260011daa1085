// The side-by-side's verdict for one figure: the live run's value against the same figure over N
// simulated replications of the scenario (`drainsim live --replications N`). The method is
// written down in docs/METRICS.md ("drainsim live: the side-by-side").
//
// Contract:
//  (1) The interval is the 95% PREDICTION interval for one new observation, not the confidence
//      interval of the mean: mean +- t(0.975, n - 1) * sd * sqrt(1 + 1/n) over the n
//      replications where the figure had a value (Student's t quantile from Boost.Math). The
//      live run is one more observation of the same scenario, so that is the question asked.
//  (2) A figure with the same value in every replication (sd 0, none undefined) is compared
//      exactly: inside iff the live value equals it (within the tolerance, for wall times).
//  (3) `tolerance` (>= 0, in the figure's unit) widens the interval by that much on each side;
//      the caller gives 0 for counts and the stated wall-time floor for times.
//  (4) "Never": live undefined is inside iff every replication is undefined too, else outside;
//      live defined while every replication is undefined is outside. Live defined while only
//      some replications are undefined compares with the defined ones (the note says how many
//      were not); with fewer than two defined it is not compared.
//  (5) A row that cannot be compared (no live counterpart yet) says why and never fails a run.
//  (6) Every compared figure is non-negative (counts, times, latencies): the interval's low end
//      is clamped at 0.
//  (7) A count (CompareCount) is an integer judged by a normal-theory interval: with the
//      continuity correction (the count k stands for [k - 0.5, k + 0.5]) its interval becomes the
//      integers it admits, [ceil(low - 0.5), floor(high + 0.5)]. Without it, a count the
//      replications themselves produce could fall between an interval's fractional ends.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "experiments/results/statistics.h"

namespace drainsim::live {

enum class Verdict : uint8_t { kInside, kOutside, kNotCompared };
const char* VerdictName(Verdict verdict);  // "inside", "outside", "not compared"

struct Interval {
  double low = 0;
  double high = 0;
};

// Contract (1). REQUIRES: s.count >= 2, 0 < level < 1
Interval PredictionInterval(const experiments::Statistics& s, double level);

struct Comparison {
  std::string name;  // as report.json names it: "human_needed", "main_queue_settled_s"
  std::string unit;  // "messages", "s", ...
  std::optional<double> live;
  experiments::Statistics simulated;  // over the replications (runs, undefined, mean, sd, ...)
  bool exact = false;                 // contract (2)
  std::optional<Interval> interval;   // the prediction interval, before the tolerance
  double tolerance = 0;
  Verdict verdict = Verdict::kNotCompared;
  std::string note;  // why not compared, "both never", "undefined in 3 of 30 replications"
};

// REQUIRES: tolerance >= 0, 0 < level < 1, every defined value finite
Comparison Compare(const std::string& name, const std::string& unit, std::optional<double> live,
                   std::span<const std::optional<double>> simulated, double tolerance,
                   double level = 0.95);

// Compare for a count: tolerance 0 and contract (7).
Comparison CompareCount(const std::string& name, const std::string& unit,
                        std::optional<double> live,
                        std::span<const std::optional<double>> simulated, double level = 0.95);

// A row with no live counterpart (contract (5)).
Comparison NotCompared(const std::string& name, const std::string& unit, const std::string& why);

// 1 if any row is outside, else 0 (rows not compared never count).
int ComparisonExitCode(const std::vector<Comparison>& rows);

}  // namespace drainsim::live
