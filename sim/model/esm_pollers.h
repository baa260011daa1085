// The pollers of an AWS Lambda event-source mapping for SQS during one run (config::LambdaEsm;
// docs/PRESETS.md, "lambda_esm"): how many there are, and whether a scale-up is due. World
// decides what a poller's receive does (world_esm.cc); this class only counts pollers.
//
// Invariants:
//  (1) 1 <= pollers() <= cap(), and pollers() never decreases (scaling down is not modelled).
//  (2) pollers() == min(cap(), initial + floor(added_per_min * seconds_scaled / 60)), where
//      seconds_scaled counts the scale-up ticks that found messages waiting.
//  (3) At most one tick is pending (tick_pending()).
//
// Thread-safety: one run's state; not shared.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "sim/base/check.h"
#include "sim/config/system.h"

namespace drainsim::model {

class EsmPollers {
 public:
  explicit EsmPollers(const config::LambdaEsm& esm)
      : initial_(esm.pollers_initial),
        added_per_min_(esm.pollers_added_per_min),
        cap_(std::min(config::kLambdaEsmPollersMax,
                      esm.maximum_concurrency.value_or(config::kLambdaEsmPollersMax))),
        pollers_(std::min(initial_, cap_)) {
    DRAINSIM_CHECK(initial_ >= 1);
    DRAINSIM_CHECK(cap_ >= 1);
  }

  int64_t pollers() const { return pollers_; }
  int64_t cap() const { return cap_; }
  bool tick_pending() const { return tick_pending_; }
  // Whether a scale-up tick should be scheduled now that messages wait: below the cap, and
  // none pending (invariant (3)).
  bool WantsTick() const { return !tick_pending_ && pollers_ < cap_; }
  void TickScheduled() {
    DRAINSIM_CHECK(!tick_pending_);
    tick_pending_ = true;
  }
  // The pending tick is due. With messages waiting, one more second of scaling: "If messages
  // are still available, Lambda increases the number of processes that are reading batches"
  // (services-sqs-scaling.html). Returns whether another tick should follow (messages wait
  // and the cap is not reached).
  bool Tick(bool messages_waiting) {
    DRAINSIM_CHECK(tick_pending_);
    tick_pending_ = false;
    if (!messages_waiting) return false;
    ++seconds_scaled_;
    const int64_t grown = initial_ + added_per_min_ * seconds_scaled_ / 60;
    DRAINSIM_CHECK(grown >= pollers_);  // (1): never fewer
    pollers_ = std::min(cap_, grown);
    return pollers_ < cap_;
  }

 private:
  const int64_t initial_;
  const int64_t added_per_min_;
  const int64_t cap_;
  int64_t pollers_;
  int64_t seconds_scaled_ = 0;  // bounded: ticks stop at the cap, within 1000 * 60 seconds
  bool tick_pending_ = false;
};

}  // namespace drainsim::model
