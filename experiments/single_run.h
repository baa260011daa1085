// One run of a scenario as `drainsim run` makes it: the simulation, the verdicts of its
// expectations, and what the report writers read besides the Results. Shared by the CLI and the
// Python module (python/), so that both write the same report.json, byte for byte, for the same
// scenario, path and seed.
//
// Contract:
//  (1) results is model::RunSimulation(scenario, seed, options)'s; an observer in `options`
//      never changes it (sim/model/observer.h (1)).
//  (2) verdicts: one per expectation, in the scenario's order; empty iff the scenario has none
//      or results.model_error is set (no figure of a run that broke an invariant is judged).
//  (3) context and reproduce are pure functions of (scenario, path, seed) and the binary's
//      version (reports/version.h).
//
// Thread-safety: RunSingle runs on the calling thread and shares nothing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reports/expectations.h"
#include "reports/report_input.h"
#include "sim/config/config.h"
#include "sim/model/results.h"
#include "sim/model/simulation.h"
#include "sim/model/trace_log.h"

namespace drainsim::experiments {

struct SingleRun {
  model::Results results;
  std::vector<reports::Verdict> verdicts;
  reports::ReportContext context;
  std::string reproduce;  // reports::ReproduceCommand(path, seed)

  // What every report writer reads; it refers to this run, which must outlive it. `trace`: what a
  // model::TraceRecorder saw, for the formats that need it. REQUIRES: !results.model_error
  reports::ReportInput Input(const model::TraceLog* trace = nullptr) const;
};

// The report context of `scenario` loaded from `path`: the path, the hash of its canonical dump,
// this binary's version, and the marks the charts draw.
reports::ReportContext ReportContextFor(const config::Scenario& scenario, const std::string& path);

// Simulates `scenario` (loaded from `path`) with `seed` and judges its expectations.
// REQUIRES: `scenario` came from the loader; options.observer, if any, outlives the call
SingleRun RunSingle(const config::Scenario& scenario, const std::string& path, uint64_t seed,
                    const model::RunOptions& options = {});

}  // namespace drainsim::experiments
