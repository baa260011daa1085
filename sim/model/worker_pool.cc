#include "sim/model/worker_pool.h"

namespace drainsim::model {

namespace {

bool Same(const Delivery& x, const Delivery& y) {
  return x.message == y.message && x.delivery_generation == y.delivery_generation;
}

}  // namespace

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

std::string WorkerPool::Describe(uint32_t workers_max) const {
  std::string text;
  for (uint32_t w = 0; w < size() && w < workers_max; ++w) {
    const Worker& worker = workers_[w];
    text += " " + std::to_string(worker.unacked) + "/" + std::to_string(worker.withheld.size()) +
            "/" + (worker.in_ring ? "y" : "n");
  }
  return text;
}

bool WorkerPool::ReleaseDue(uint32_t w, uint32_t generation, engine::Instant now) {
  Worker& worker = workers_[w];
  if (!worker.alive || worker.generation != generation) return false;
  size_t kept = 0;
  for (const EtaHold& hold : worker.eta_held) {
    if (hold.eta <= now) {
      Buffer(w, hold.delivery);
    } else {
      worker.eta_held[kept++] = hold;
    }
  }
  worker.eta_held.resize(kept);
  return true;
}

bool WorkerPool::Holds(uint32_t w, const Delivery& delivery) const {
  const Worker& worker = workers_[w];
  if (!worker.alive) return false;
  for (const Delivery& d : worker.buffer) {
    if (Same(d, delivery)) return true;
  }
  for (const EtaHold& hold : worker.eta_held) {
    if (Same(hold.delivery, delivery)) return true;
  }
  for (const Delivery& d : worker.withheld) {
    if (Same(d, delivery)) return true;
  }
  for (const Attempt& a : attempts_) {
    if (a.live && a.worker == w && !a.off_channel && Same(a.delivery, delivery)) return true;
  }
  return false;
}

void WorkerPool::TakeOffChannel(uint32_t w, std::vector<Delivery>& out) {
  Worker& worker = workers_[w];
  for (Attempt& a : attempts_) {
    if (!a.live || a.worker != w || a.off_channel) continue;
    a.off_channel = true;
    --worker.unacked;
    out.push_back(a.delivery);
  }
}

WorkerPool::HeldRanges WorkerPool::TakeHeld(uint32_t w, std::vector<Delivery>& out) {
  Worker& worker = workers_[w];
  HeldRanges ranges;
  out.insert(out.end(), worker.buffer.begin(), worker.buffer.end());
  ranges.withheld_from = out.size();
  out.insert(out.end(), worker.withheld.begin(), worker.withheld.end());
  ranges.eta_from = out.size();
  for (const EtaHold& hold : worker.eta_held) out.push_back(hold.delivery);
  worker.unacked -= static_cast<int64_t>(worker.buffer.size() + worker.withheld.size());
  worker.buffer.clear();
  worker.withheld.clear();
  worker.eta_held.clear();
  DRAINSIM_CHECK(worker.unacked == 0);  // invariant (4)
  return ranges;
}

void WorkerPool::Stop(uint32_t w, std::vector<Delivery>& out) {
  Worker& worker = workers_[w];
  worker.stopped = true;
  out.insert(out.end(), worker.buffer.begin(), worker.buffer.end());
  worker.unacked -= static_cast<int64_t>(worker.buffer.size());
  worker.buffer.clear();
  for (const EtaHold& hold : worker.eta_held) out.push_back(hold.delivery);
  worker.eta_held.clear();
  DRAINSIM_CHECK(worker.unacked >= 0);
}

void WorkerPool::Retire(uint32_t w) {
  Worker& worker = workers_[w];
  DRAINSIM_CHECK(worker.running == 0);
  DRAINSIM_CHECK(worker.unacked == 0);
  DRAINSIM_CHECK(worker.buffer.empty());
  DRAINSIM_CHECK(worker.eta_held.empty());
  worker.alive = false;
  worker.stopped = true;
  worker.crash_after_commit_armed = 0;
  ++worker.generation;
}

void WorkerPool::Start(uint32_t w) {
  Worker& worker = workers_[w];
  DRAINSIM_CHECK(!worker.alive);
  DRAINSIM_CHECK(worker.stopped);
  worker.alive = true;
  worker.stopped = false;
  worker.crash_after_commit_armed = 0;  // a crash fault that picked it without a pod: no-op
  ++worker.generation;
  AddToRing(w);
}

bool WorkerPool::Restart(uint32_t w, uint32_t generation) {
  Worker& worker = workers_[w];
  if (worker.alive || worker.generation != generation) return false;
  worker.alive = true;
  AddToRing(w);
  return true;
}

}  // namespace drainsim::model
