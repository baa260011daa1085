// DiesOfFailedCheck: runs a function in a forked child and reports whether it died the way a
// failed DRAINSIM_CHECK dies (the check's message on stderr, then SIGABRT).
//
// Catch2 v2 has no death tests; forking keeps the abort out of the test process, so the
// preconditions and limits that guard the engine can be tested like any other behavior.
// Thread-safety: call from a single-threaded test only (fork copies one thread).
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace drainsim::engine::testing {

template <typename F>
bool DiesOfFailedCheck(F&& fn) {
  std::fflush(stdout);
  std::fflush(stderr);
  int fds[2];
  if (pipe(fds) != 0) return false;
  const pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], STDERR_FILENO);
    const int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) dup2(devnull, STDOUT_FILENO);
    // Catch2 handles SIGABRT to report a crashed test; in the child the abort is the expected
    // outcome, so restore the default action and let the parent see the signal.
    signal(SIGABRT, SIG_DFL);
    fn();
    _exit(0);  // Survived: skip atexit handlers (Catch2's, the leak checker's).
  }
  close(fds[1]);
  std::string err;
  char buffer[512];
  ssize_t n = 0;
  while ((n = read(fds[0], buffer, sizeof(buffer))) > 0) err.append(buffer, buffer + n);
  close(fds[0]);
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return false;
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT &&
         err.find("drainsim: internal check failed") != std::string::npos;
}

}  // namespace drainsim::engine::testing
