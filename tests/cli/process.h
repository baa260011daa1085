// Runs the drainsim binary as a user would, for the CLI tests: a real process, real exit code,
// stdout and stderr captured separately.
#pragma once

#include <string>
#include <vector>

namespace drainsim::testing {

struct ProcessResult {
  int exit_code = -1;       // the process's exit status; -1 if it did not exit normally
  int signal = 0;           // the signal that ended it, 0 if none (a crash is a signal)
  std::string stdout_text;
  std::string stderr_text;
};

// Runs DRAINSIM_BINARY with `args` (no shell involved: arguments are passed as they are), in
// `working_dir` when not empty.
ProcessResult RunDrainsim(const std::vector<std::string>& args, const std::string& working_dir = "");

// Reads a whole file; "" when it cannot.
std::string ReadFile(const std::string& path);

}  // namespace drainsim::testing
