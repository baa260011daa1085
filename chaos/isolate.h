// Crash isolation for the swarm: each seed runs in a forked child process, so a seed that
// crashes (a signal, an abort, a sanitizer report, a hang) is reported as that seed's crash
// while the swarm goes on.
//
// The child runs `work(seed)` and writes its SeedReport to a pipe (seed_report.h's encoding),
// then leaves with _exit (no atexit handlers, no flush of buffers it inherited). A failed
// DRAINSIM_CHECK in the child first writes a "C" record through the hook of
// sim/base/check.h, so the parent reports a broken invariant as a correctness failure, not
// as a crash, although the child still dies of the abort.
//
// Contract:
//  (1) on_report is called once per seed, in increasing seed order, whatever `jobs` is and
//      whatever order the children finish in: the output of a swarm does not depend on jobs.
//  (2) A child that dies of a signal without a "C" record, exits nonzero, or ends without a
//      verdict is a crash; with timeout_s > 0 a child still running after that many seconds
//      of wall clock is killed (SIGALRM) and gets the verdict kTimeout, which says so.
//  (4) No child outlives the swarm: SIGINT, SIGTERM or SIGHUP to the parent while RunIsolated
//      runs kills (SIGKILL) and reaps every running child, then the parent dies of that
//      signal as it would have; a parent killed outright (SIGKILL) takes its children along
//      (Linux: PR_SET_PDEATHSIG). The parent's handlers are restored when RunIsolated returns.
//  (3) An operating error (pipe or fork fails) stops the start of new children; the running
//      ones are waited for and reported, and the error is returned. "" otherwise.
//
// Thread-safety: call from a single-threaded process (fork copies only the calling thread).
// POSIX only.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "chaos/seed_report.h"

namespace drainsim::chaos {

inline constexpr int kIsolationJobsMax = 256;

struct IsolationOptions {
  int jobs = 1;            // children running at once, 1..kIsolationJobsMax
  double timeout_s = 600;  // wall-clock seconds per seed; 0: no limit
};

// REQUIRES: count >= 1 and first_seed + count - 1 does not overflow.
std::string RunIsolated(uint64_t first_seed, uint64_t count, const IsolationOptions& options,
                        const std::function<SeedReport(uint64_t)>& work,
                        const std::function<void(const SeedReport&)>& on_report);

}  // namespace drainsim::chaos
