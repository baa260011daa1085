// An autoscaled worker pool (workers.autoscale; docs/MODEL.md, "Autoscaled workers"): World's
// glue around Autoscaler (autoscaler.h), which decides; this file carries the decisions out on
// the workers (WorkerPool) and the messages.
//
// The pool starts with workers.count workers and grows when a scale-up finds no worker without
// a pod (draining workers still have theirs); workers without a pod are retired in the pool
// (down, stopped). Every interval a kAutoscaleTick reads the metric and decides. A scale-up
// starts the lowest-numbered workers without a pod (kStarting); each receives from
// kAutoscaleStart, lag later. A scale-down removes the highest-numbered provisioned workers: a
// starting one is cancelled, a receiving one drains: it stops receiving at once, its prefetched
// (and ETA-held) copies go back to the queue as a closed channel returns them, its attempts go
// on, and kAutoscaleKill, grace later, kills what still runs as a crash (CrashWorker) and
// retires it.
//
// Invariants (checked as they are used, beside AutoscaledPool's):
//  (1) Worker 0 is always provisioned: removals take the highest-numbered first and the
//      scaler never goes below min >= 1, so the pool always has a worker that does not wait
//      for an autoscale event (these events are not essential).
//  (2) A worker in kOff or kStarting is retired in the pool; one in kOn is not stopped.
//  (3) Determinism: workers are scanned in index order; nothing is iterated unordered.
#include <cmath>

#include "sim/model/world.h"

namespace drainsim::model {

void World::ScheduleAutoscale() {
  if (!autoscale_) return;
  At(engine::Instant::Zero(), Event{EventType::kAutoscaleTick});
}

void World::CountWorkerSeconds() {
  AutoscaledPool& a = *autoscale_;
  metrics_.results().autoscale_worker_s +=
      static_cast<double>(a.provisioned) * (now_ - a.counted_until).seconds();
  a.counted_until = now_;
}

void World::AutoscaleTick() {
  AutoscaledPool& a = *autoscale_;
  const config::Autoscale& spec = *scenario_.workers.autoscale;
  const double metric = spec.metric == config::AutoscaleMetric::kDepth
                            ? static_cast<double>(ledger_.count(MessageState::kReady) +
                                                  ledger_.count(MessageState::kInFlight))
                            : broker_.OldestAgeSeconds(now_);
  const int64_t before = a.scaler.current();
  const int64_t wanted = a.scaler.Decide(now_, metric);
  CountWorkerSeconds();
  Results& results = metrics_.results();
  if (wanted > before) {
    ++results.autoscale_scale_ups;
    int64_t more = wanted - before;
    for (uint32_t w = 0; more > 0; ++w) {
      if (w == a.workers.size()) {
        const uint32_t added = pool_.AddRetired();  // not inside the check: it changes the pool
        DRAINSIM_CHECK(added == w);
        a.workers.push_back(ScaledWorker::kOff);
        a.epoch.push_back(0);
      }
      if (a.workers[w] != ScaledWorker::kOff) continue;
      a.workers[w] = ScaledWorker::kStarting;
      ++a.epoch[w];
      ++a.provisioned;
      --more;
      At(now_ + spec.lag, Event{EventType::kAutoscaleStart, w, a.epoch[w]});
    }
  } else if (wanted < before) {
    ++results.autoscale_scale_downs;
    int64_t fewer = before - wanted;
    for (uint32_t w = static_cast<uint32_t>(a.workers.size()); w-- > 0 && fewer > 0;) {
      if (a.workers[w] == ScaledWorker::kStarting) {
        a.workers[w] = ScaledWorker::kOff;  // its start event is stale now
        ++a.epoch[w];
        --a.provisioned;
        --fewer;
      } else if (a.workers[w] == ScaledWorker::kOn) {
        DRAINSIM_CHECK(w != 0);  // (1)
        DrainWorker(w);
        --fewer;
      }
    }
    DRAINSIM_CHECK(fewer == 0);
  }
  results.autoscale_workers_end = a.scaler.current();
  results.autoscale_workers_max = std::max(results.autoscale_workers_max, a.provisioned);
  At(now_ + spec.interval, Event{EventType::kAutoscaleTick});
}

void World::AutoscaleStart(const Event& event) {
  AutoscaledPool& a = *autoscale_;
  const uint32_t w = event.a;
  if (a.workers[w] != ScaledWorker::kStarting || a.epoch[w] != event.b) return;  // cancelled
  a.workers[w] = ScaledWorker::kOn;
  ++a.receiving;
  pool_.Start(w);
  Dispatch();
}

void World::DrainWorker(uint32_t w) {
  AutoscaledPool& a = *autoscale_;
  a.workers[w] = ScaledWorker::kDraining;
  ++a.epoch[w];
  --a.receiving;
  std::vector<Delivery> held;
  pool_.Stop(w, held);
  metrics_.results().autoscale_returned += static_cast<int64_t>(held.size());
  for (const Delivery& d : held) {
    Message& m = messages_.Get(d.message);
    --m.copies_on_workers;
    if (IsCurrent(d)) {
      // As a closed channel returns what its consumer held and had not started.
      ReturnToQueue(d.message, m, config::ReturnKind::kCrash, RedeliveryCause::kOther,
                    TransitionCause::kReturned);
    }
    ReleaseIfDone(d.message);
  }
  At(now_ + scenario_.workers.autoscale->grace, Event{EventType::kAutoscaleKill, w, a.epoch[w]});
  Dispatch();  // the returned copies to the workers still receiving
}

void World::AutoscaleKill(const Event& event) {
  AutoscaledPool& a = *autoscale_;
  const uint32_t w = event.a;
  if (a.workers[w] != ScaledWorker::kDraining || a.epoch[w] != event.b) return;
  CountWorkerSeconds();
  const Worker& worker = pool_.worker(w);
  if (worker.alive && (worker.running > 0 || worker.unacked > 0)) {
    // Past its grace period: what still runs is killed, with the broker's crash rules.
    metrics_.results().autoscale_kills += worker.running;
    CrashWorker(w, /*after_commit=*/false);
  }
  pool_.Retire(w);  // a restart CrashWorker scheduled is stale from here
  a.workers[w] = ScaledWorker::kOff;
  --a.provisioned;
}

}  // namespace drainsim::model
