// FlushCoverage: in a coverage build (CMake option DRAINSIM_COVERAGE), writes the gcov counters
// of this process now; elsewhere it does nothing.
//
// gcov writes its counters from an atexit handler, which a process leaving by _exit or by a
// signal never runs: the chaos swarm's forked children (chaos/isolate.cc) and a failed
// DRAINSIM_CHECK (check.h) call this first, so that what they executed is counted.
#pragma once

#ifdef DRAINSIM_COVERAGE
extern "C" void __gcov_dump(void);
#endif

namespace drainsim::base {

inline void FlushCoverage() {
#ifdef DRAINSIM_COVERAGE
  __gcov_dump();
#endif
}

}  // namespace drainsim::base
