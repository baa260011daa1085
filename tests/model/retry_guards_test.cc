// The retry policy's guards as components (sim/model/retry_guards.h), against hand-worked
// sequences: the budget's burst, deposits and window; the breaker's opening rule, half-open
// probes, reopening, closing, and permits given back. tests/model/breaker_test.cc checks the
// same rules inside whole runs.
#include "sim/model/retry_guards.h"

#include <catch2/catch.hpp>

namespace drainsim::model {
namespace retry_guards_test {
namespace {

using engine::Duration;
using engine::Instant;
using Change = CircuitBreaker::Change;
using State = CircuitBreaker::State;

Instant At(double s) { return Instant::Zero() + Duration::Micros(static_cast<int64_t>(s * 1e6)); }

TEST_CASE("retry budget: without one, every retry is allowed", "[model][guards]") {
  RetryBudget budget(std::nullopt);
  for (int i = 0; i < 1000; ++i) CHECK(budget.Allow(At(0)));
}

TEST_CASE("retry budget: burst free, then ratio x successes, within the window",
          "[model][guards]") {
  config::RetryBudget spec;
  spec.ratio = 0.5;
  spec.burst = 2;
  spec.window = Duration::Seconds(10);
  RetryBudget budget(spec);
  CHECK(budget.Allow(At(1)));
  CHECK(budget.Allow(At(1)));
  CHECK_FALSE(budget.Allow(At(1)));  // the burst is spent; a refusal is not counted
  budget.RecordSuccess(At(2));
  budget.RecordSuccess(At(2));  // two successes deposit one retry
  CHECK(budget.Allow(At(3)));
  CHECK_FALSE(budget.Allow(At(3)));
  // At 11.5 s the retries at 1 s have left the window; the successes at 2 s are still in it.
  CHECK(budget.Allow(At(11.5)));
  CHECK(budget.Allow(At(11.5)));
  CHECK_FALSE(budget.Allow(At(11.5)));
  // At 13.5 s everything before 3.5 s is gone: 2 retries at 11.5 s, no successes, burst 2.
  CHECK_FALSE(budget.Allow(At(13.5)));
}

config::CircuitBreaker Spec() {
  config::CircuitBreaker spec;
  spec.error_rate_open = 0.5;
  spec.window = Duration::Seconds(30);
  spec.open = Duration::Seconds(60);
  spec.half_open_probes = 2;
  spec.attempts_min = 4;
  return spec;
}

TEST_CASE("circuit breaker: without one, it stays closed", "[model][guards]") {
  CircuitBreaker breaker(std::nullopt);
  for (int i = 0; i < 100; ++i) CHECK(breaker.RecordOutcome(At(i), false) == Change::kNone);
  CHECK(breaker.state() == State::kClosed);
  CHECK(breaker.AllowsDelivery());
  CHECK_FALSE(breaker.HalfOpen());
}

TEST_CASE("circuit breaker: opens at attempts_min with the failure rate reached",
          "[model][guards]") {
  CircuitBreaker breaker(Spec());
  CHECK(breaker.RecordOutcome(At(1), false) == Change::kNone);
  CHECK(breaker.RecordOutcome(At(2), false) == Change::kNone);
  CHECK(breaker.RecordOutcome(At(3), true) == Change::kNone);    // 3 < attempts_min
  CHECK(breaker.RecordOutcome(At(4), true) == Change::kOpened);  // 2 of 4 failed: 50%
  CHECK(breaker.state() == State::kOpen);
  CHECK_FALSE(breaker.AllowsDelivery());
  CHECK(breaker.RecordOutcome(At(5), true) == Change::kNone);  // stale copies: ignored
  CHECK(breaker.state() == State::kOpen);
}

TEST_CASE("circuit breaker: outcomes older than the window do not count", "[model][guards]") {
  CircuitBreaker breaker(Spec());
  breaker.RecordOutcome(At(0), false);
  breaker.RecordOutcome(At(1), false);
  breaker.RecordOutcome(At(40), true);
  // At 41 s the failures at 0 and 1 s are out of the 30 s window: 0 of 2 in it.
  CHECK(breaker.RecordOutcome(At(41), true) == Change::kNone);
  CHECK(breaker.RecordOutcome(At(42), false) == Change::kNone);  // 1 of 3
  CHECK(breaker.RecordOutcome(At(43), true) == Change::kNone);   // 1 of 4: 25%
  CHECK(breaker.state() == State::kClosed);
}

CircuitBreaker OpenBreaker() {
  CircuitBreaker breaker(Spec());
  for (int i = 0; i < 4; ++i) breaker.RecordOutcome(At(i), false);
  REQUIRE(breaker.state() == State::kOpen);
  return breaker;
}

TEST_CASE("circuit breaker: half-open lets the probes through, and they close it",
          "[model][guards]") {
  CircuitBreaker breaker = OpenBreaker();
  CHECK(breaker.HalfOpen());
  CHECK_FALSE(breaker.HalfOpen());  // only from open
  CHECK(breaker.probes_left() == 2);
  const Delivery a{MessageRef{1, 0}, 1};
  const Delivery b{MessageRef{2, 0}, 1};
  breaker.NoteDelivery(a);
  CHECK(breaker.AllowsDelivery());
  breaker.NoteDelivery(b);
  CHECK_FALSE(breaker.AllowsDelivery());
  CHECK(breaker.RecordOutcome(At(70), true) == Change::kNone);
  CHECK(breaker.RecordOutcome(At(71), true) == Change::kClosed);
  CHECK(breaker.state() == State::kClosed);
  CHECK(breaker.AllowsDelivery());
  CHECK_FALSE(breaker.ProbeVanished(a));  // the half-open period is over
}

TEST_CASE(
    "circuit breaker: a probe's failure opens it again, a vanished probe's permit comes "
    "back",
    "[model][guards]") {
  CircuitBreaker breaker = OpenBreaker();
  breaker.HalfOpen();
  const Delivery a{MessageRef{1, 0}, 1};
  breaker.NoteDelivery(a);
  breaker.NoteDelivery(Delivery{MessageRef{2, 0}, 1});
  CHECK(breaker.probes_left() == 0);
  CHECK_FALSE(breaker.ProbeVanished(Delivery{MessageRef{3, 0}, 1}));  // not a probe
  CHECK(breaker.ProbeVanished(a));
  CHECK(breaker.probes_left() == 1);
  CHECK_FALSE(breaker.ProbeVanished(a));  // once
  CHECK(breaker.RecordOutcome(At(70), false) == Change::kReopened);
  CHECK(breaker.state() == State::kOpen);
  CHECK(breaker.HalfOpen());
  CHECK(breaker.probes_left() == 2);
}

}  // namespace
}  // namespace retry_guards_test
}  // namespace drainsim::model
