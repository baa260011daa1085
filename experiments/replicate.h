// Replications of one scenario: the runs of `drainsim run --replications N`, a shard of them,
// or as many as --until-ci-width needs.
//
// Contract:
//  (1) Replication r runs with ReplicationSeed(base_seed, r) (seeds.h); its record depends on
//      nothing else, so the records are identical for every --jobs and every shard.
//  (2) RunUntilCiWidth returns the shortest prefix of replications, at least `minimum` and at
//      most `maximum` long, after which every metric's relative half-width
//      (Statistics::RelativeHalfWidth) is below `width`; or all `maximum` when none is. It runs
//      replications in batches but decides on prefixes in index order, so the answer does not
//      depend on the batch size or on --jobs; replications run beyond the answer are dropped.
//
// Thread-safety: call from one thread; it starts its own (RunnerOptions::jobs).
#pragma once

#include <cstdint>
#include <vector>

#include "experiments/runner.h"

namespace drainsim::experiments {

// The records of replications `indices` (each in [0, 2^63)), in that order.
std::vector<RunRecord> RunReplications(const config::Scenario& scenario,
                                       const std::vector<MetricSpec>& metrics, uint64_t base_seed,
                                       const std::vector<int64_t>& indices,
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
