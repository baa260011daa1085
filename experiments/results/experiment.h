// An experiment's parameters as its results carry them (experiments/experiment.h says what they
// mean and how runs are numbered; experiments/results/run_record.h holds a run's record): which
// scenario, which metrics, how many replications of which grid. In the results layer so that the
// reports that render an experiment (reports/replications_report.h, reports/sweep_report.h)
// read it without including the experiments that run it.
//
// Contract: plain data; ToJson is what part files and replications.json / sweep.json carry
// (experiments/experiment.h: ExperimentFromJson reads it back, FromJson(ToJson(e)) == e).
//
// Thread-safety: values.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/results/metric.h"

namespace drainsim::experiments {

struct Axis {
  std::string pointer;                 // "/drains/0/rate_per_s"
  std::vector<nlohmann::json> values;  // in grid order
  bool operator==(const Axis&) const = default;
};

struct MetricColumn {
  std::string name;  // canonical NAME[:KIND][@WINDOW]
  Better better = Better::kNone;
  bool operator==(const MetricColumn&) const = default;
};

// --until-ci-width: replications were added until every metric's relative CI half-width was
// below `width`, or `replications_max` were made.
struct CiStop {
  double width = 0;
  int64_t replications_max = 0;
  bool met = false;  // the widths were reached (else the maximum was)
  bool operator==(const CiStop&) const = default;
};

// What the replications' JUnit says of an expectation beside its text: its bound ("<= 1800",
// reports::BoundsText) and the unit of its figure ("s", reports::UnitOf).
struct ExpectationColumn {
  std::string bound;
  std::string unit;
  bool operator==(const ExpectationColumn&) const = default;
};

// The limits of every front end (`run --replications`, `sweep`, `compare`, the Python module)
// and of a part file: at most this many replications, and a confidence level in [0.5, 1).
inline constexpr int64_t kReplicationsMax = 1'000'000;
inline bool ConfidenceInRange(double confidence) { return confidence >= 0.5 && confidence < 1; }

struct Experiment {
  std::string command;  // "run" (replications) or "sweep"
  std::string scenario_name;
  std::string scenario_path;     // as given on the command line
  std::string scenario_hash;     // of the base scenario's canonical dump
  std::string drainsim_version;  // "0.1.0 (commit abc)": shards of one binary merge, others not
  uint64_t base_seed = 0;
  int64_t replications = 1;
  double confidence = 0.95;
  std::vector<MetricColumn> metrics;
  std::vector<std::string> expectations;  // `run`: the texts of the scenario's expectations
  // One per expectation: what the replications' JUnit says beside the text.
  std::vector<ExpectationColumn> expectation_columns;
  std::vector<Axis> axes;      // `sweep`: the grid
  std::optional<CiStop> stop;  // `run --until-ci-width` (never sharded)
  bool operator==(const Experiment&) const = default;

  int64_t PointCount() const;  // the product of the axes' sizes (1 without axes)
  int64_t RunCount() const { return PointCount() * replications; }
  // The value of every axis at `point`. REQUIRES: 0 <= point < PointCount()
  std::vector<nlohmann::json> PointValues(int64_t point) const;
};

nlohmann::json ToJson(const Experiment& experiment);

}  // namespace drainsim::experiments
