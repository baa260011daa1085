// The test seam of output_set.cc: makes its n-th file-system step fail, or raises a signal or
// pauses there, so the tests can prove contract (1), (2) and (4) of output_set.h for every step.
//
// Only the test binary `drainsim_output_faults` (tools/drainsim/CMakeLists.txt) is compiled
// with DRAINSIM_OUTPUT_FAULTS; in `drainsim` itself OutputStep is a constant 0 that the
// compiler removes, so normal runs pay nothing and no environment variable can reach it.
//
// Steps, counted from 1 in the order output_set.cc makes them: creating the staging
// directory, each open, each write (at most 1 MiB each), each fsync, each close, creating the
// backup directory, each link or rename, and the final fsync of the directory. Removing the
// staging directory is not a step (its failure cannot lose a file).
//
// In the test binary, read once from the environment:
//   DRAINSIM_TEST_FAIL_STEP=N:ERRNO   step N fails with ERRNO (ENOSPC, EIO or EISDIR)
//   DRAINSIM_TEST_SIGNAL_STEP=N:SIG   step N first raises SIG (INT or TERM) to the process
//   DRAINSIM_TEST_PAUSE_STEP=N        step N prints "paused at step N" on stderr, sleeps 1 s
#pragma once

#ifdef DRAINSIM_OUTPUT_FAULTS
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#endif

namespace drainsim::cli::output_faults {

#ifdef DRAINSIM_OUTPUT_FAULTS

// "N:WORD" -> N and WORD; N = 0 when unset or malformed.
inline long StepOf(const char* name, std::string* word) {
  const char* text = std::getenv(name);
  if (text == nullptr) return 0;
  char* end = nullptr;
  const long step = std::strtol(text, &end, 10);
  if (word != nullptr && *end == ':') *word = end + 1;
  return step;
}

inline int ErrnoNamed(const std::string& name) {
  if (name == "ENOSPC") return ENOSPC;
  if (name == "EIO") return EIO;
  if (name == "EISDIR") return EISDIR;
  return EIO;
}

// Returns the errno the step must fail with, or 0 to let it run.
inline int OutputStep() {
  static long count = 0;
  static std::string fail_errno, signal_name;
  static const long fail_step = StepOf("DRAINSIM_TEST_FAIL_STEP", &fail_errno);
  static const long signal_step = StepOf("DRAINSIM_TEST_SIGNAL_STEP", &signal_name);
  static const long pause_step = StepOf("DRAINSIM_TEST_PAUSE_STEP", nullptr);
  ++count;
  if (count == signal_step) std::raise(signal_name == "INT" ? SIGINT : SIGTERM);
  if (count == pause_step) {
    std::fprintf(stderr, "paused at step %ld\n", count);
    std::fflush(stderr);
    sleep(1);
  }
  return count == fail_step ? ErrnoNamed(fail_errno) : 0;
}

#else

constexpr int OutputStep() { return 0; }

#endif

}  // namespace drainsim::cli::output_faults
