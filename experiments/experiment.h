// An experiment's parameters, independent of where and how it runs: which scenario, which
// metrics, how many replications of which grid (the struct, Experiment, is in the results layer:
// experiments/results/experiment.h). A replicated run (`drainsim run
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
#include "experiments/results/experiment.h"
#include "sim/base/expected.h"

namespace drainsim::experiments {

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
