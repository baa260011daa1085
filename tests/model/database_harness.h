// The database tests' harness: a run in miniature (a clock, an event queue, one Database) and
// the checks of completions that database_test.cc and database_cores_test.cc share.
#pragma once

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "sim/engine/event_queue.h"
#include "sim/model/database.h"

namespace drainsim::model::testing {

using engine::Duration;
using engine::Instant;

inline Instant Ms(int64_t ms) { return Instant::Zero() + Duration::Millis(ms); }
inline Duration Us(double us) { return Duration::Micros(std::llround(us)); }

struct Done {
  QueryCompletion completion;
  Instant at;
};

// A run in miniature: a clock, an event queue and one database. Database events go to
// Database::HandleEvent and their completions are collected in `done`; every other event goes
// to `on_other`, which a test uses for arrivals and faults.
class Harness final : public Scheduler {
 public:
  Harness(int64_t connections, Duration timeout, double overload_factor,
          std::optional<double> cores = std::nullopt)
      : db(*this, connections, timeout, overload_factor, cores) {}

  Instant Now() const override { return now_; }
  void At(Instant at, Event event) override {
    if (at < now_) FAIL("event scheduled in the past");
    queue_.Push(at, event);
  }

  // Handles every event due at or before `until`, then moves the clock to `until`.
  void RunUntil(Instant until) {
    while (!queue_.empty() && queue_.NextTime() <= until) Step();
    now_ = until;
  }
  void RunUntilIdle() {
    while (!queue_.empty()) Step();
  }

  std::function<void(const Event&)> on_other;
  std::function<void()> after_event;  // runs after every event, for invariant checks
  std::vector<Done> done;

 private:
  static constexpr int64_t kStepsMax = 10'000'000;  // a bound on every run

  void Step() {
    if (++steps_ > kStepsMax) FAIL("event loop exceeded its bound");
    const auto event = queue_.Pop();
    now_ = event.at;
    const EventType type = event.payload.type;
    if (type == EventType::kDbServiceEnd || type == EventType::kDbDeadline) {
      if (auto completion = db.HandleEvent(event.payload)) done.push_back({*completion, now_});
    } else {
      if (!on_other) FAIL("no handler for a non-database event");
      on_other(event.payload);
    }
    if (after_event) after_event();
  }

  // Declared before `db`, whose constructor reads the clock.
  engine::EventQueue<Event> queue_;
  Instant now_ = Instant::Zero();
  int64_t steps_ = 0;

 public:
  Database db;
};

// Checks one completion: owner, outcome, instant and latency.
inline void CheckDone(const Done& d, uint64_t owner, QueryOutcome outcome, Instant at, Duration latency) {
  INFO("owner " << d.completion.owner << " done at " << d.at.micros() << " us");
  CHECK(d.completion.owner == owner);
  CHECK(d.completion.outcome == outcome);
  CHECK(d.at == at);
  CHECK(d.completion.latency == latency);
}

// Checks that completion i is owners[i], ok, at done_ms[i], having been submitted at
// submitted_ms[i].
inline void CheckAllOk(const std::vector<Done>& done, const std::vector<uint64_t>& owners,
                const std::vector<int64_t>& done_ms, const std::vector<int64_t>& submitted_ms) {
  REQUIRE(done.size() == owners.size());
  for (size_t i = 0; i < done.size(); ++i) {
    CheckDone(done[i], owners[i], QueryOutcome::kOk, Ms(done_ms[i]),
              Ms(done_ms[i]) - Ms(submitted_ms[i]));
  }
}

}  // namespace drainsim::model::testing
