// `drainsim tune`'s result as reports read it (reports/tune_report.h renders it; experiments/
// tune.h computes it and says what the search does): the spec searched, every evaluation made
// and the answer.
//
// Contract: plain data. (1) TuneSpec::metrics[i] resolves constraints[i]. (2) TuneResult:
// found iff some evaluated value held; then `best` held, and when it is not the range's end,
// `first_failing` is the next grid value toward that end and failed, and
// `first_failing_evaluation` indexes its evaluation.
#pragma once

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/results/metric.h"
#include "experiments/results/statistics.h"

namespace drainsim::experiments {

struct Constraint {
  enum class Op : uint8_t { kAtMost, kAtLeast, kEquals };
  std::string metric;  // as written; the spec resolves it
  Op op = Op::kAtMost;
  double bound = 0;
};

struct TuneSpec {
  std::string pointer;  // the field varied
  double low = 0;
  double high = 0;
  double resolution = 1;
  bool integer = false;  // values written as JSON integers
  bool maximize = true;
  int64_t replications = 10;
  double confidence = 0.95;
  uint64_t base_seed = 0;
  std::vector<Constraint> constraints;
  std::vector<MetricSpec> metrics;  // metrics[i] resolves constraints[i]
};

struct ConstraintResult {
  Statistics stats;
  double bound_at_confidence = 0;  // the one-sided bound compared (or the mean: experiments/tune.h)
  bool held = false;
  std::string why;  // "upper bound 251.3 > 250", "undefined in 2 of 10 runs"
};

struct Evaluation {
  std::string phase;  // "scan" or "bisect"
  double value = 0;
  std::vector<ConstraintResult> constraints;
  bool held = false;
};

struct TuneResult {
  std::vector<Evaluation> evaluations;  // in the order made
  bool found = false;
  double best = 0;
  std::optional<double> first_failing;  // the grid value beyond `best` that failed
  std::optional<size_t> first_failing_evaluation;
};

// Where the search ran, for the reports' headers.
struct TuneContext {
  std::string scenario_name;
  std::string scenario_path;
  std::string scenario_hash;
  std::string drainsim_version;
};

// The value as JSON: an integer when spec.integer.
inline nlohmann::json ValueJson(const TuneSpec& spec, double value) {
  if (spec.integer) return nlohmann::json(static_cast<int64_t>(std::llround(value)));
  return nlohmann::json(value);
}

}  // namespace drainsim::experiments
