// Runs the drainsim binary as a user would, for the CLI tests: a real process, real exit code,
// stdout and stderr captured separately.
#pragma once

#include <sys/types.h>

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

// Runs `binary` (a drainsim build, e.g. the output-fault test binary) with `args`, and `env`
// ("NAME=VALUE") added to the environment.
ProcessResult RunBinary(const std::string& binary, const std::vector<std::string>& args,
                        const std::vector<std::string>& env, const std::string& working_dir = "");

// A process started without waiting: its stdout goes to /dev/null, its stderr to a pipe.
struct Spawned {
  pid_t pid = -1;
  int stderr_fd = -1;  // the read end
};
Spawned Spawn(const std::string& binary, const std::vector<std::string>& args,
              const std::vector<std::string>& env = {});
// Reads the child's stderr until `text` appears (true) or it ends or `timeout_ms` pass (false).
bool WaitForStderr(Spawned& child, const std::string& text, int timeout_ms);
// Waits for the child to end (its stderr must fit the pipe: 64 KiB); what its stderr holds
// then goes to stderr_text.
ProcessResult Wait(Spawned& child);

// Reads a whole file; "" when it cannot.
std::string ReadFile(const std::string& path);

}  // namespace drainsim::testing
