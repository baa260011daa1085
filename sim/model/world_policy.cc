// Acting on what the circuit breaker decides (retry_guards.h): scheduling its half-open period,
// counting its openings, and resuming consumption when it half-opens or closes.
#include "sim/model/world.h"

namespace drainsim::model {

void World::RecordOutcome(bool success) {
  switch (retry_.breaker().RecordOutcome(now_, success)) {
    case CircuitBreaker::Change::kNone:
      return;
    case CircuitBreaker::Change::kOpened:
      ++metrics_.results().breaker_openings;
      [[fallthrough]];
    case CircuitBreaker::Change::kReopened:
      At(now_ + scenario_.retry.circuit_breaker->open, Event{EventType::kBreakerHalfOpen});
      return;
    case CircuitBreaker::Change::kClosed:
      for (uint32_t w = 0; w < pool_.size(); ++w) StartAttempts(w);
      Dispatch();
      return;
  }
}

void World::BreakerHalfOpen() {
  if (!retry_.breaker().HalfOpen()) return;
  for (uint32_t w = 0; w < pool_.size(); ++w) StartAttempts(w);  // the buffers go first
  Dispatch();
}

}  // namespace drainsim::model
