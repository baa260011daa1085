// The decision logic of an autoscaled worker pool (config::Autoscale; docs/MODEL.md, "Autoscaled
// workers"): a Kubernetes HorizontalPodAutoscaler (HPA) with its default behaviour, fed by a
// KEDA queue scaler whose metric is an AverageValue target. Given the metric at a sync instant
// it says how many workers there should be; World carries the decision out
// (world_autoscale.cc). Pure: no events, no messages, no workers.
//
// One decision (Decide), in the HPA controller's order (pkg/controller/podautoscaler,
// horizontal.go and replica_calculator.go; sources in docs/MODEL.md):
//  1. Proposal: current if |metric / (target x current) - 1| <= 0.1 (the tolerance), else
//     ceil(metric / target).
//  2. Stabilisation: the proposal is recorded; a proposal above current is taken as is (the
//     scale-up window is 0 s); one below is raised to the largest proposal recorded in the last
//     `cooldown` (strictly after now - cooldown), and never above current.
//  3. Rate: a scale-up stops at max(2 x start, start + 4), start being current less the workers
//     added and plus those removed in the last 15 s (the default policies, 100% and 4 pods per 15
//     s, select Max). The default scale-down policy (100% per 15 s) never limits, so it is not
//     modelled.
//  4. Bounds: the result lies in [min, max].
//
// Invariants:
//  (1) min <= current() <= max at all times.
//  (2) A scale-up never takes current() above max(2 x start, start + 4) (step 3).
//  (3) The recommendations kept are those of the last `cooldown`, oldest first; the changes of
//      current() kept those of the last 15 s.
//
// Thread-safety: one run's state; not shared.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "sim/config/system.h"
#include "sim/engine/time.h"

namespace drainsim::model {

class Autoscaler {
 public:
  // The HPA's tolerance and its default scale-up policy period.
  static constexpr double kTolerance = 0.1;
  static constexpr engine::Duration kPolicyPeriod = engine::Duration::Micros(15'000'000);

  // REQUIRES: spec.min <= initial <= spec.max, spec.min >= 1, spec.target > 0.
  Autoscaler(const config::Autoscale& spec, int64_t initial);

  // The workers wanted after the decision at `now` for `metric` (>= 0): steps 1-4 above.
  // REQUIRES: `now` is not before the previous decision's; metric >= 0 and finite.
  int64_t Decide(engine::Instant now, double metric);

  int64_t current() const { return current_; }
  // Step 1 alone, for tests and traces: the proposal for `metric` at `current` workers.
  int64_t Proposal(double metric, int64_t current) const;

 private:
  struct Recommendation {
    engine::Instant at;
    int64_t workers;
  };
  // A change of current(): workers added (> 0) or removed (< 0).
  struct ScaleEvent {
    engine::Instant at;
    int64_t change;
  };

  const double target_;
  const int64_t min_;
  const int64_t max_;
  const engine::Duration cooldown_;
  int64_t current_;
  engine::Instant last_decision_;
  std::deque<Recommendation> recommendations_;  // invariant (3)
  std::deque<ScaleEvent> changes_;              // invariant (3)
};

// Where each worker of an autoscaled pool stands (World's glue, world_autoscale.cc). A worker
// is provisioned (a pod exists, counted in worker_seconds) in kStarting, kOn and kDraining.
enum class ScaledWorker : uint8_t {
  kOff,       // no pod
  kStarting,  // added by a scale-up, able to receive once the lag has passed
  kOn,        // receiving
  kDraining,  // removed by a scale-down: receives nothing, its attempts may finish until grace
};

// World's state for workers.autoscale: the decisions and what they did to the workers.
// Invariants: (1) scaler.current() == the workers kStarting or kOn; (2) receiving == the
// workers kOn; (3) epoch[w] changes whenever worker w enters kStarting or kDraining, so a
// start or kill event scheduled for an earlier life of w is stale.
struct AutoscaledPool {
  // The first `initial` workers receive from the start.
  AutoscaledPool(const config::Autoscale& spec, int64_t initial)
      : scaler(spec, initial),
        workers(static_cast<size_t>(initial), ScaledWorker::kOn),
        epoch(static_cast<size_t>(initial), 0),
        receiving(initial),
        provisioned(initial) {}
  Autoscaler scaler;
  std::vector<ScaledWorker> workers;  // by worker index, as many as the pool's
  std::vector<uint32_t> epoch;        // by worker index: invariant (3)
  int64_t receiving = 0;              // invariant (2)
  int64_t provisioned = 0;            // kStarting, kOn and kDraining
  engine::Instant counted_until;      // worker_seconds is counted up to here
};

}  // namespace drainsim::model
