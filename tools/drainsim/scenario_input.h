// How every subcommand reads a scenario file: load it, print each problem, and print each
// plausibility warning once (sim/scenario/plausibility.h), all on stderr in the format
// FILE: /pointer: [warning: ]message. The one place that prints a load's outcome: LoadAndReport
// for the commands that run the scenario as loaded, LoadForExperiment (experiment_cli.h) for
// those that also edit its JSON, and `live`, whose own problems replace the warnings.
#pragma once

#include <string>
#include <vector>

#include "sim/scenario/load.h"

namespace drainsim::cli {

// Loads `path` and prints its problems and warnings. The caller stops with exit 2 unless ok().
scenario::LoadResult LoadAndReport(const std::string& path);

// Prints each warning as "FILE: /pointer: warning: message", then each problem as "FILE:
// /pointer: message", one a line, on stderr. The loader gives one kind or the other; an
// experiment's load can give both (the loader's warnings, then the problem that the text cannot
// be edited as JSON: experiments/loaded_scenario.h (2)).
void ReportLoad(const std::string& path, const std::vector<scenario::Problem>& problems,
                const std::vector<scenario::Problem>& warnings);

}  // namespace drainsim::cli
