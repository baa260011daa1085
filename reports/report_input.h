// What every report writer reads: the run's Results, where it came from, and the verdicts of
// the scenario's expectations.
//
// Contract:
//  (1) A writer is a pure function of a ReportInput: the same input gives the same bytes. No
//      writer reads the clock, the environment or the file system.
//  (2) Nothing here reaches into the simulation; Results is all a report knows of the run,
//      with, for the trace, the log a model::TraceRecorder filled while it ran.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reports/expectations.h"
#include "reports/scenario_marks.h"
#include "sim/model/results.h"
#include "sim/model/trace_log.h"

namespace drainsim::reports {

struct ReportContext {
  std::string scenario_path;
  std::string scenario_hash;     // hex digest of the scenario's canonical form
  std::string drainsim_version;  // "0.1.0 (commit abc)"
  // The age alert and the fault windows, for charts; default: none at hand (see the header).
  ScenarioMarks marks{};
};

struct ReportInput {
  const model::Results& results;
  const ReportContext& context;
  const std::vector<Verdict>& verdicts;  // one per expectation, in the scenario's order
  std::string reproduce;                 // ReproduceCommand(context.scenario_path, seed)
  // What a TraceRecorder saw, for the formats that need it (Format::needs_trace_log); null
  // when the run was not recorded.
  const model::TraceLog* trace = nullptr;
};

// The command that replays this run: `drainsim run PATH --seed N`. The path is quoted for a
// POSIX shell when it holds anything but [A-Za-z0-9_./:=,+@%-]. Only the seed changes results
// among the run's flags (--audit checks, --out and --format only choose files).
std::string ReproduceCommand(const std::string& scenario_path, uint64_t seed);

}  // namespace drainsim::reports
