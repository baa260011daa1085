// Replications of one scenario: the runs of `drainsim run --replications N`, a shard of them,
// or as many as --until-ci-width needs; and the replications at every point of a sweep's grid.
//
// Contract:
//  (1) Replication r runs with ReplicationSeed(base_seed, r) (seeds.h); its record depends on
//      nothing else, so the records are identical for every --jobs and every shard.
//  (2) RunUntilCiWidth returns the shortest prefix of replications, at least `minimum` and at
//      most `maximum` long, after which every metric's relative half-width
//      (Statistics::RelativeHalfWidth) is below `width`; or all `maximum` when none is. It runs
//      replications in batches but decides on prefixes in index order, so the answer does not
//      depend on the batch size or on --jobs; replications run beyond the answer are dropped.
//  (3) RunSweep runs run k (of experiment.RunCount(), or the shard's slice of them) at grid point
//      k / replications with ReplicationSeed(base_seed, k % replications): every point sees the
//      same seeds. Its records keep the metrics only: a sweep does not judge the points'
//      `expect` blocks (passed and measured are empty).
//
// Thread-safety: call from one thread; it starts its own (RunnerOptions::jobs).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "experiments/experiment.h"
#include "experiments/runner.h"

namespace drainsim::experiments {

// The records of replications `indices` (each in [0, 2^63)), in that order.
std::vector<RunRecord> RunReplications(const config::Scenario& scenario,
                                       const std::vector<MetricSpec>& metrics, uint64_t base_seed,
                                       const std::vector<int64_t>& indices,
                                       const RunnerOptions& options);

// 0..count-1, or those of them `shard` holds.
std::vector<int64_t> ShardIndices(int64_t count, const std::optional<Shard>& shard);

struct ShardRuns {
  std::vector<int64_t> indices;    // the run indices made, increasing
  std::vector<RunRecord> records;  // records[k] is run indices[k]
};

// Contract (3). REQUIRES: points.size() == experiment.PointCount()
ShardRuns RunSweep(const Experiment& experiment, const std::vector<config::Scenario>& points,
                   const std::vector<MetricSpec>& metrics, const std::optional<Shard>& shard,
                   const RunnerOptions& options);

struct CiStopResult {
  std::vector<RunRecord> records;  // replications 0..records.size()-1
  bool met = false;                // every metric's relative half-width went below `width`
};

// REQUIRES: width > 0, 2 <= minimum <= maximum, 0 < confidence < 1
CiStopResult RunUntilCiWidth(const config::Scenario& scenario,
                             const std::vector<MetricSpec>& metrics, uint64_t base_seed,
                             double width, int64_t minimum, int64_t maximum, double confidence,
                             const RunnerOptions& options);

}  // namespace drainsim::experiments
