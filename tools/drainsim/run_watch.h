// What watches one simulation run by the CLI: a trace recorder when an output needs it (the
// trace format, explain), another observer when a command brings one (explain --list), and the
// progress line when stderr is a terminal. Bundled so that
// `run`, `explain` and the experiment commands attach the same observers the same way.
//
// Contract:
//  (1) observer() is null when nothing watches: the run then pays one branch per hook.
//  (2) Watching never changes the run (sim/model/observer.h (1)).
//
// Thread-safety: one RunWatch per run, used by the thread that runs it.
#pragma once

#include <optional>

#include "sim/config/config.h"
#include "sim/model/observer.h"
#include "sim/model/results.h"
#include "sim/model/trace_log.h"
#include "tools/drainsim/progress.h"

namespace drainsim::cli {

class RunWatch {
 public:
  // `trace`: record with these options (nullopt: no recorder). `progress`: false with --quiet.
  // `also`: one more observer (not owned; it must outlive the run), or null.
  RunWatch(const config::Scenario& scenario, std::optional<model::TraceOptions> trace,
           bool progress, model::RunObserver* also = nullptr);

  // For RunOptions::observer; null when nothing watches.
  model::RunObserver* observer() { return observer_; }

  // After the run: erases the progress line, and returns what the recorder saw (nullopt when
  // there was no recorder). REQUIRES: called once.
  std::optional<model::TraceLog> Finish(const model::Results& results);

 private:
  std::optional<model::TraceRecorder> recorder_;
  ProgressLine line_;
  RunProgress run_progress_;
  std::optional<model::ObserverTee> tee_;
  model::RunObserver* observer_ = nullptr;
};

}  // namespace drainsim::cli
