// The retry policy's guards: the retry budget and the circuit breaker.
#include <algorithm>

#include "sim/model/world.h"

namespace drainsim::model {

bool World::RetryAllowed() {
  if (!scenario_.retry.budget) return true;
  const config::RetryBudget& budget = *scenario_.retry.budget;
  const engine::Instant horizon = now_ - budget.window;
  while (!budget_retries_.empty() && budget_retries_.front() < horizon) budget_retries_.pop_front();
  while (!budget_successes_.empty() && budget_successes_.front() < horizon) {
    budget_successes_.pop_front();
  }
  // Finagle's RetryBudget: each success deposits `ratio` of a retry, `burst` come free.
  const double allowed = budget.ratio * static_cast<double>(budget_successes_.size()) +
                         static_cast<double>(budget.burst);
  if (static_cast<double>(budget_retries_.size()) + 1.0 > allowed) return false;
  budget_retries_.push_back(now_);
  return true;
}

void World::RecordOutcome(bool success) {
  if (!scenario_.retry.circuit_breaker) return;
  const config::CircuitBreaker& breaker = *scenario_.retry.circuit_breaker;
  if (breaker_ == BreakerState::kHalfOpen) {
    if (!success) {
      breaker_ = BreakerState::kOpen;
      breaker_probes_.clear();
      At(now_ + breaker.open, Event{EventType::kBreakerHalfOpen});
      return;
    }
    if (++breaker_probe_successes_ >= breaker.half_open_probes) {
      breaker_ = BreakerState::kClosed;
      breaker_probes_.clear();
      breaker_outcomes_.clear();
      breaker_failures_ = 0;
      for (uint32_t w = 0; w < workers_.size(); ++w) StartAttempts(w);
      Dispatch();
    }
    return;
  }
  if (breaker_ == BreakerState::kOpen) return;  // stale copies finishing while open
  breaker_outcomes_.push_back(Outcome{now_, success});
  if (!success) ++breaker_failures_;
  const engine::Instant horizon = now_ - breaker.window;
  while (!breaker_outcomes_.empty() && breaker_outcomes_.front().at < horizon) {
    if (!breaker_outcomes_.front().success) --breaker_failures_;
    breaker_outcomes_.pop_front();
  }
  const auto total = static_cast<int64_t>(breaker_outcomes_.size());
  if (total >= breaker.attempts_min && static_cast<double>(breaker_failures_) >=
                                           breaker.error_rate_open * static_cast<double>(total)) {
    breaker_ = BreakerState::kOpen;
    breaker_outcomes_.clear();
    breaker_failures_ = 0;
    ++results_.breaker_openings;
    At(now_ + breaker.open, Event{EventType::kBreakerHalfOpen});
  }
}

void World::BreakerHalfOpen() {
  if (breaker_ != BreakerState::kOpen) return;
  breaker_ = BreakerState::kHalfOpen;
  breaker_probes_left_ = scenario_.retry.circuit_breaker->half_open_probes;
  breaker_probe_successes_ = 0;
  breaker_probes_.clear();
  for (uint32_t w = 0; w < workers_.size(); ++w) StartAttempts(w);  // the buffers go first
  Dispatch();
}

bool World::ProbeVanished(const Delivery& delivery) {
  // Only probes of the current half-open period: the list is cleared when it ends. A probe
  // whose copy became stale (redelivered elsewhere) still runs and records its outcome, so
  // only a copy that disappears takes its permit back.
  if (breaker_ != BreakerState::kHalfOpen) return false;
  const auto it = std::find(breaker_probes_.begin(), breaker_probes_.end(), delivery);
  if (it == breaker_probes_.end()) return false;
  breaker_probes_.erase(it);
  ++breaker_probes_left_;
  return true;
}

bool World::BreakerAllowsDelivery() const {
  switch (breaker_) {
    case BreakerState::kClosed:
      return true;
    case BreakerState::kOpen:
      return false;
    case BreakerState::kHalfOpen:
      return breaker_probes_left_ > 0;
  }
  return true;
}

}  // namespace drainsim::model
