#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "experiments/runner.h"
#include "sim/model/memory_cost.h"
#include "tools/drainsim/cli.h"

namespace {

// The process's peak resident memory in kB (VmHWM in /proc/self/status), or -1. Read with
// plain system calls into a stack buffer: it runs right after an allocation failed.
long PeakResidentKb() {
  const int fd = ::open("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char text[4096];
  const ssize_t n = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  if (n <= 0) return -1;
  text[n] = '\0';
  const char* line = std::strstr(text, "VmHWM:");
  return line == nullptr ? -1 : std::strtol(line + 6, nullptr, 10);
}

// The command line that replays a run (runs are deterministic).
std::string Command(const drainsim::cli::Args& args) {
  std::string command = "drainsim";
  for (const std::string& arg : args) command += " " + drainsim::cli::ShellQuoted(arg);
  return command;
}

}  // namespace

int main(int argc, char** argv) {
  drainsim::cli::Args args(argv + 1, argv + argc);
  try {
    return drainsim::cli::Main(args);
  } catch (const std::bad_alloc&) {
    // Memory ran out: the run, its recording or its reports wanted more than the machine (or
    // the process's ulimit / cgroup) gives. The stack is unwound, so what it held is free again;
    // the message uses only fixed buffers all the same.
    const long peak_kb = PeakResidentKb();
    char peak[64] = "";
    if (peak_kb > 0) {
      std::snprintf(peak, sizeof peak, " (peak resident memory %.1f MB)", peak_kb / 1024.0);
    }
    std::fprintf(stderr,
                 "drainsim: error: out of memory%s: the run needed more memory than this "
                 "process may use (std::bad_alloc). Make the run smaller: lower run.events_max "
                 "or run.until_s, a smaller backlog or fewer producers; ask for fewer --format "
                 "outputs (trace and html hold the most); or raise the memory limit (ulimit -v, "
                 "the container's limit)\n",
                 peak);
    return drainsim::cli::kExitBadInput;
  } catch (const drainsim::experiments::ModelErrorInRun& e) {
    // An experiment met a run that broke a model invariant (experiments/runner.h): nothing was
    // written, and the same command line replays it (runs are deterministic).
    std::fprintf(stderr, "drainsim: %s\nreproduce: %s\n", e.what(), Command(args).c_str());
    return drainsim::cli::kExitModelError;
  } catch (const drainsim::model::PendingMessagesMaxExceeded& e) {
    // A run reached its cap on pending messages (sim/model/memory_cost.h): stopped before it
    // wrote anything, at a point that depends only on the scenario, the seed and the cap.
    std::fprintf(stderr,
                 "drainsim: error: %s; the run was stopped and nothing was written. Messages "
                 "pile up faster than the workers take them (or the backlog is that large): "
                 "check the producers' rates, the workers and the faults; if the machine has the "
                 "memory, raise --pending-messages-max\nreproduce: %s\n",
                 e.what(), Command(args).c_str());
    return drainsim::cli::kExitPendingMessagesMax;
  } catch (const std::exception& e) {
    // Operating errors are handled where they arise; reaching here is an input the code did
    // not anticipate. Report it as bad input rather than crash, and make it findable.
    std::fprintf(stderr, "drainsim: error: %s\n", e.what());
    return drainsim::cli::kExitBadInput;
  }
}
