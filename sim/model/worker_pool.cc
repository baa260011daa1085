#include "sim/model/worker_pool.h"

namespace drainsim::model {

WorkerPool::WorkerPool(int64_t count, int64_t prefetch, int64_t concurrency)
    : prefetch_(prefetch), concurrency_(concurrency) {
  DRAINSIM_CHECK(count >= 0);
  workers_.resize(static_cast<size_t>(count));
  for (uint32_t w = 0; w < workers_.size(); ++w) AddToRing(w);
}

int64_t WorkerPool::alive_count() const {
  int64_t alive = 0;
  for (const Worker& worker : workers_) alive += worker.alive ? 1 : 0;
  return alive;
}

}  // namespace drainsim::model
