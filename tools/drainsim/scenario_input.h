// How every subcommand reads a scenario file: load it, print each problem, and print each
// plausibility warning once (sim/scenario/plausibility.h), all on stderr in the format
// FILE: /pointer: [warning: ]message.
#pragma once

#include <string>
#include <vector>

#include "sim/scenario/load.h"

namespace drainsim::cli {

// Loads `path` and prints its problems and warnings. The caller stops with exit 2 unless ok().
scenario::LoadResult LoadAndReport(const std::string& path);

// Prints `result`'s problems and warnings for `path`.
void ReportLoad(const std::string& path, const scenario::LoadResult& result);

// Prints each problem as "FILE: /pointer: message", one a line, on stderr.
void PrintProblems(const std::string& path, const std::vector<scenario::Problem>& problems);

// Prints each plausibility warning as "FILE: /pointer: warning: message" on stderr.
void PrintWarnings(const std::string& path, const std::vector<scenario::Problem>& warnings);

}  // namespace drainsim::cli
