// Runs a list of simulations, on --jobs threads, and keeps what an experiment needs of each:
// its seed, its fingerprint, the value of every requested metric and the verdict of every
// expectation. The full Results of a run are dropped as soon as it is measured.
//
// Contract:
//  (1) records[i] depends only on tasks[i] (each run is single-threaded and owns its state), so
//      the records are identical for every `jobs`; they are stored by index.
//  (2) on_done, if set, is called once per finished run, under a lock, with the number of runs
//      finished so far (a progress line; completion order, never used for results).
//  (3) A run that broke a model invariant (Results::model_error, a drainsim bug) is never
//      averaged over: once every run has finished, RunTasks throws ModelErrorInRun for the
//      first such task (by index, so the same one whatever `jobs`).
//
// Thread-safety: RunTasks itself is called from one thread; the scenarios are shared read-only.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "experiments/metric_spec.h"
#include "experiments/results/run_record.h"
#include "sim/config/config.h"
#include "sim/model/simulation.h"

namespace drainsim::experiments {

// Thrown by RunTasks (contract (3)); what() is one line naming the run and the invariant.
class ModelErrorInRun : public std::runtime_error {
 public:
  ModelErrorInRun(const std::string& scenario_name, uint64_t seed, const model::ModelError& error);
  std::string scenario_name;
  uint64_t seed = 0;
  model::ModelError error;
};

struct Task {
  const config::Scenario* scenario = nullptr;  // not owned; outlives RunTasks
  uint64_t seed = 0;
};

struct RunnerOptions {
  int jobs = 1;
  model::RunOptions run;
  std::function<void(size_t done, size_t total)> on_done;
};

// REQUIRES: every task's scenario is set
std::vector<RunRecord> RunTasks(const std::vector<Task>& tasks,
                                const std::vector<MetricSpec>& metrics,
                                const RunnerOptions& options);

// The record of one finished run (what RunTasks keeps of it).
RunRecord Record(const model::Results& results, const config::Scenario& scenario,
                 const std::vector<MetricSpec>& metrics);

}  // namespace drainsim::experiments
