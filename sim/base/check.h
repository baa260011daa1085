// Assertions that stay on in release builds.
//
// DRAINSIM_CHECK is for programmer errors (a broken invariant, a violated precondition): it
// prints where and aborts. Operating errors (bad scenario, unwritable file) are values, never
// checks. DRAINSIM_DCHECK is for checks too costly for every release run (for example the
// whole-state conservation check after every event); it is on in debug and test builds, where
// DRAINSIM_EXPENSIVE_CHECKS is defined.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "sim/base/coverage.h"

namespace drainsim::base {

// Called by a failed check after its message is printed and before the abort, so that a
// supervisor (the chaos swarm's forked child, chaos/isolate.cc) can tell a broken invariant
// from any other crash. The abort happens whatever the handler does, unless it never returns.
// Default: none, and then a failed check behaves exactly as it always has.
using CheckFailureHandler = void (*)(const char* file, int line, const char* condition);

namespace internal {
inline CheckFailureHandler check_failure_handler = nullptr;

[[noreturn]] inline void CheckFailed(const char* file, int line, const char* condition) {
  std::fprintf(stderr, "drainsim: internal check failed at %s:%d: %s\n", file, line, condition);
  if (check_failure_handler != nullptr) check_failure_handler(file, line, condition);
  FlushCoverage();  // the abort runs no atexit handler
  std::abort();
}
}  // namespace internal

// Installs `handler` (nullptr removes it) for the whole process. Not synchronised: install it
// before starting any work that could fail a check, from the one thread that runs it.
inline void SetCheckFailureHandler(CheckFailureHandler handler) {
  internal::check_failure_handler = handler;
}

}  // namespace drainsim::base

#define DRAINSIM_CHECK(condition)                                              \
  do {                                                                         \
    if (!(condition)) [[unlikely]]                                             \
      ::drainsim::base::internal::CheckFailed(__FILE__, __LINE__, #condition); \
  } while (false)

#if defined(DRAINSIM_EXPENSIVE_CHECKS) || !defined(NDEBUG)
#define DRAINSIM_DCHECK(condition) DRAINSIM_CHECK(condition)
#define DRAINSIM_DCHECK_IS_ON 1
#else
#define DRAINSIM_DCHECK(condition) \
  do {                             \
  } while (false && (condition))
#define DRAINSIM_DCHECK_IS_ON 0
#endif
