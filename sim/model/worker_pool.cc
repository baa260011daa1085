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

uint32_t WorkerPool::StartAttempt(uint32_t w) {
  uint32_t slot;
  if (!free_attempts_.empty()) {
    slot = free_attempts_.back();
    free_attempts_.pop_back();
  } else {
    slot = static_cast<uint32_t>(attempts_.size());
    attempts_.emplace_back();
  }
  Attempt& a = attempts_[slot];
  const uint32_t generation = a.generation;
  a = Attempt{};
  a.generation = generation;
  a.live = true;
  a.worker = w;
  ++workers_[w].running;
  return slot;
}

void WorkerPool::EndAttempt(uint32_t slot) {
  Attempt& a = attempts_[slot];
  DRAINSIM_CHECK(a.live);
  Worker& worker = workers_[a.worker];
  --worker.running;
  DRAINSIM_CHECK(worker.running >= 0);
  a.live = false;
  ++a.generation;
  free_attempts_.push_back(slot);
}

}  // namespace drainsim::model
