#include "experiments/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "sim/base/check.h"

namespace drainsim::experiments {

void ParallelFor(size_t count, int jobs, const std::function<void(size_t index)>& work) {
  DRAINSIM_CHECK(jobs >= 1);
  DRAINSIM_CHECK(jobs <= kJobsMax);
  if (jobs == 1 || count <= 1) {
    for (size_t i = 0; i < count; ++i) work(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex failure_mutex;
  size_t failed_index = count;
  std::exception_ptr failure;
  auto loop = [&] {
    while (!stop.load(std::memory_order_relaxed)) {
      const size_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= count) return;
      try {
        work(i);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failure_mutex);
        if (i < failed_index) {
          failed_index = i;
          failure = std::current_exception();
        }
        stop.store(true, std::memory_order_relaxed);
      }
    }
  };
  const size_t threads = std::min<size_t>(static_cast<size_t>(jobs), count);
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(loop);
  loop();
  for (std::thread& thread : pool) thread.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace drainsim::experiments
