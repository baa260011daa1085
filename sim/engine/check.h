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

namespace drainsim::engine::internal {
[[noreturn]] inline void CheckFailed(const char* file, int line, const char* condition) {
  std::fprintf(stderr, "drainsim: internal check failed at %s:%d: %s\n", file, line, condition);
  std::abort();
}
}  // namespace drainsim::engine::internal

#define DRAINSIM_CHECK(condition)                                                \
  do {                                                                           \
    if (!(condition)) [[unlikely]]                                               \
      ::drainsim::engine::internal::CheckFailed(__FILE__, __LINE__, #condition); \
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
