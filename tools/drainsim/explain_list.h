// `drainsim explain SCENARIO --list CLASS [--seed N]`: every message of one class report.json
// counts (duplicates, human, dlq, parked; sim/model/message_classes.h), one a line by id, with
// its key and why it is there (reports/explain_list.h).
//
// It runs the scenario twice with the same seed: the first run notes the class's ids
// (model::ClassRecorder), the second reads just their keys (model::KeyReader), so that memory
// stays proportional to the class, not to the messages published. Both are the run `drainsim
// run` makes: observers never change results (sim/model/observer.h (1)), and the two runs'
// fingerprints are checked to agree.
#pragma once

#include <cstdint>
#include <string>

#include "sim/config/config.h"
#include "sim/model/message_classes.h"

namespace drainsim::cli {

// Prints the list on stdout and returns the exit code: kExitOk, or kExitModelError (with the
// reproduce line on stderr) for a run that broke a model invariant. `path` is the scenario's
// file, for the reproduce line; `progress`: the progress line on a terminal (false: --quiet).
int ListClass(const config::Scenario& scenario, const std::string& path, uint64_t seed,
              model::MessageClass message_class, bool progress);

}  // namespace drainsim::cli
