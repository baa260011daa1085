#include "sim/model/retry_guards.h"

#include <algorithm>

namespace drainsim::model {

bool RetryBudget::Allow(engine::Instant now) {
  if (!spec_) return true;
  const engine::Instant horizon = now - spec_->window;
  while (!retries_.empty() && retries_.front() < horizon) retries_.pop_front();
  while (!successes_.empty() && successes_.front() < horizon) successes_.pop_front();
  // Each success deposits `ratio` of a retry, `burst` come free.
  const double allowed =
      spec_->ratio * static_cast<double>(successes_.size()) + static_cast<double>(spec_->burst);
  if (static_cast<double>(retries_.size()) + 1.0 > allowed) return false;
  retries_.push_back(now);
  return true;
}

CircuitBreaker::Change CircuitBreaker::RecordOutcome(engine::Instant now, bool success) {
  if (!spec_) return Change::kNone;
  if (state_ == State::kHalfOpen) {
    if (!success) {
      state_ = State::kOpen;
      probes_.clear();
      return Change::kReopened;
    }
    if (++probe_successes_ < spec_->half_open_probes) return Change::kNone;
    state_ = State::kClosed;
    probes_.clear();
    outcomes_.clear();
    failures_ = 0;
    return Change::kClosed;
  }
  if (state_ == State::kOpen) return Change::kNone;  // invariant (5)
  outcomes_.push_back(Outcome{now, success});
  if (!success) ++failures_;
  const engine::Instant horizon = now - spec_->window;
  while (!outcomes_.empty() && outcomes_.front().at < horizon) {
    if (!outcomes_.front().success) --failures_;
    outcomes_.pop_front();
  }
  const auto total = static_cast<int64_t>(outcomes_.size());
  if (total < spec_->attempts_min ||
      static_cast<double>(failures_) < spec_->error_rate_open * static_cast<double>(total)) {
    return Change::kNone;
  }
  state_ = State::kOpen;
  outcomes_.clear();
  failures_ = 0;
  return Change::kOpened;
}

bool CircuitBreaker::HalfOpen() {
  if (state_ != State::kOpen) return false;
  state_ = State::kHalfOpen;
  probes_left_ = spec_->half_open_probes;
  probe_successes_ = 0;
  probes_.clear();
  return true;
}

bool CircuitBreaker::AllowsDelivery() const {
  switch (state_) {
    case State::kClosed:
      return true;
    case State::kOpen:
      return false;
    case State::kHalfOpen:
      return probes_left_ > 0;
  }
  return true;
}

void CircuitBreaker::NoteDelivery(const Delivery& delivery) {
  if (state_ != State::kHalfOpen) return;
  --probes_left_;
  probes_.push_back(delivery);
}

bool CircuitBreaker::ProbeVanished(const Delivery& delivery) {
  // Only probes of the current half-open period: the list is cleared when it ends. A probe
  // whose copy became stale (redelivered elsewhere) still runs and records its outcome, so
  // only a copy that disappears takes its permit back.
  if (state_ != State::kHalfOpen) return false;
  const auto it = std::find(probes_.begin(), probes_.end(), delivery);
  if (it == probes_.end()) return false;
  probes_.erase(it);
  ++probes_left_;
  return true;
}

}  // namespace drainsim::model
