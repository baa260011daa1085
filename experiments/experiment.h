// An experiment's parameters, independent of where and how it runs: which scenario, which
// metrics, how many replications of which grid. A replicated run (`drainsim run
// --replications`) is the grid with no varied parameter; a sweep has one axis per --vary.
//
// Runs are numbered by index = point * replications + replication, points in row-major order
// over the axes (the first --vary outermost, the last fastest). Replication r runs with
// ReplicationSeed(base_seed, r) at every point: the grid points share their seeds (common
// random numbers across the grid, so a curve is not jagged by luck).
//
// Contract:
//  (1) ToJson and FromJson round-trip: FromJson(ToJson(e)) == e. Partial files carry the JSON,
//      and `drainsim merge` renders the output from it alone, so everything the output prints
//      is a field here or a record of a run.
//  (2) A shard i/N (i in 1..N) holds the runs whose index is i - 1 modulo N (round-robin: grid
//      points differ in cost, and striding spreads them evenly over the shards).
//
// Thread-safety: values.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "experiments/metric_spec.h"
#include "sim/base/expected.h"

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
// The experiment, or why `json` is not an experiment this binary wrote.
base::Expected<Experiment> ExperimentFromJson(const nlohmann::json& json);

// --shard i/N: shard `number` of `count`, numbered from 1 as CI matrices, Slurm arrays
// (--array=1-N) and people number them. It holds the runs whose index is number - 1 modulo count.
// Invariant: 1 <= number <= count <= 1000000 for every Shard that ParseShard or ReadPartial give.
struct Shard {
  int64_t number = 1;
  int64_t count = 1;
  bool Holds(int64_t run_index) const { return run_index % count == number - 1; }
  bool operator==(const Shard&) const = default;
};

// "2/8" -> {2, 8}: the second of eight shards. Numbers start at 1; "0/8" is refused with a message
// that says so (Kubernetes' 0-based JOB_COMPLETION_INDEX needs + 1: tools/ci/). Or why not.
base::Expected<Shard> ParseShard(const std::string& text);

}  // namespace drainsim::experiments
