// A fixed pool of threads over a work list: `drainsim ... --jobs K`.
//
// Contract:
//  (1) work(i) is called exactly once for every i in [0, count), on one of min(jobs, count)
//      threads (the calling thread is one of them when jobs == 1: no thread is started).
//  (2) The caller stores results by index, never in completion order, so the output does not
//      depend on jobs or on scheduling. Each work item must own its state (a simulation does).
//  (3) Items are handed out in increasing index order through one atomic counter: no item
//      starts before every lower index has started.
//  (4) If work throws, the remaining items are not started, the running ones finish, and the
//      exception of the lowest index that threw is rethrown to the caller.
//
// Thread-safety: `work` is called concurrently from several threads.
#pragma once

#include <cstddef>
#include <functional>

namespace drainsim::experiments {

inline constexpr int kJobsMax = 256;

// REQUIRES: 1 <= jobs <= kJobsMax
void ParallelFor(size_t count, int jobs, const std::function<void(size_t index)>& work);

}  // namespace drainsim::experiments
