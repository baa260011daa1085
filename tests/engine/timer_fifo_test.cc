#include "sim/engine/timer_fifo.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "sim/engine/event_queue.h"
#include "sim/engine/rng.h"

namespace drainsim::engine {
namespace timer_fifo_test {
namespace {

struct Timer {
  Instant at;
  uint32_t id = 0;
};

// Drives a TimerFifo the way the model does (one wake-up event in an EventQueue) next to the
// trivially correct model (one event per timer, cancelled ones ignored when they pop), with
// random sets, cancellations and timers set while a wake-up is handled. Both must fire the same
// timers at the same instants in the same order.
TEST_CASE("TimerFifo fires exactly the live timers, in order and on time", "[timer_fifo]") {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Rng rng = Rng::ForStream(seed, StreamId("timer-fifo-test"), 0);
    const Duration timeout = Duration::Micros(1 + static_cast<int64_t>(rng.UniformInt(1000)));
    TimerFifo<Timer> fifo;
    // Events: kind 0 = "set a timer now", 1 = the fifo's wake-up, 2 = "cancel id" (always
    // strictly before the timer's instant).
    struct Ev {
      int kind;
      uint32_t id;
    };
    EventQueue<Ev> events;
    std::set<uint32_t> cancelled;
    std::map<uint32_t, int64_t> set_at;  // id -> instant set
    std::set<uint32_t> will_cancel;      // ids with a cancellation before their instant
    std::vector<std::pair<int64_t, uint32_t>> fired_fifo;
    uint32_t next_id = 0;
    for (int i = 0; i < 2000; ++i) {
      events.Push(Instant::Micros(static_cast<int64_t>(rng.UniformInt(200'000))), Ev{0, 0});
    }
    int wakeups = 0;
    Instant now = Instant::Zero();
    auto set_timer = [&] {
      const uint32_t id = next_id++;
      set_at[id] = now.micros();
      if (fifo.Add(Timer{now + timeout, id})) events.Push(now + timeout, Ev{1, 0});
      if (rng.UniformInt(4) != 0) {  // most timers are cancelled before they fire
        will_cancel.insert(id);
        events.Push(now + Duration::Micros(static_cast<int64_t>(
                              rng.UniformInt(static_cast<uint64_t>(timeout.micros())))),
                    Ev{2, id});
      }
    };
    const auto stale = [&](const Timer& t) { return cancelled.count(t.id) > 0; };
    while (!events.empty()) {
      const auto [at, ev] = events.Pop();
      now = at;
      switch (ev.kind) {
        case 0:
          set_timer();
          break;
        case 1: {
          ++wakeups;
          fifo.BeginWake();
          while (const auto due = fifo.PopDue(now, stale)) {
            fired_fifo.emplace_back(now.micros(), due->id);
            cancelled.insert(due->id);  // fired once
            if (rng.UniformInt(3) == 0) set_timer();  // handling sets a new timer
          }
          if (const auto next = fifo.EndWake(stale)) {
            CHECK(*next >= now);
            events.Push(*next, Ev{1, 0});
          }
          break;
        }
        case 2:
          cancelled.insert(ev.id);
          break;
      }
    }
    // The reference: exactly the timers never cancelled fire, each at set + D.
    std::map<uint32_t, int64_t> fired_at;
    for (const auto& [t, id] : fired_fifo) {
      CHECK(fired_at.count(id) == 0);  // at most once
      fired_at[id] = t;
    }
    for (const auto& [id, t] : set_at) {
      if (will_cancel.count(id)) {
        CHECK(fired_at.count(id) == 0);
      } else {
        REQUIRE(fired_at.count(id) == 1);
        CHECK(fired_at[id] == t + timeout.micros());
      }
    }
    CHECK(fifo.size() == 0);
    CHECK(wakeups <= static_cast<int>(next_id));  // never more wake-ups than timers
    // Order: instants non-decreasing, ties in id (set) order.
    for (size_t i = 1; i < fired_fifo.size(); ++i) {
      CHECK(fired_fifo[i - 1].first <= fired_fifo[i].first);
      if (fired_fifo[i - 1].first == fired_fifo[i].first) {
        CHECK(fired_fifo[i - 1].second < fired_fifo[i].second);
      }
    }
  }
}

TEST_CASE("TimerFifo with every timer cancelled disarms and re-arms", "[timer_fifo]") {
  TimerFifo<Timer> fifo;
  std::set<uint32_t> cancelled;
  const auto stale = [&](const Timer& t) { return cancelled.count(t.id) > 0; };
  CHECK(fifo.Add(Timer{Instant::Micros(10), 1}));   // arms
  CHECK_FALSE(fifo.Add(Timer{Instant::Micros(20), 2}));
  cancelled = {1, 2};
  fifo.BeginWake();
  CHECK_FALSE(fifo.PopDue(Instant::Micros(10), stale).has_value());
  CHECK_FALSE(fifo.EndWake(stale).has_value());  // nothing live: disarmed
  CHECK(fifo.Add(Timer{Instant::Micros(30), 3}));  // so the next timer arms again
  fifo.BeginWake();
  CHECK_FALSE(fifo.PopDue(Instant::Micros(29), stale).has_value());  // not due yet
  const auto next = fifo.EndWake(stale);
  REQUIRE(next.has_value());
  CHECK(*next == Instant::Micros(30));
}

TEST_CASE("TimerFifo compaction keeps the queue O(live) and fires the live timers",
          "[timer_fifo]") {
  // A day-long timeout with almost every timer cancelled at once (acks within milliseconds):
  // without compaction the queue would hold every timer set during the day.
  TimerFifo<Timer> fifo;
  std::set<uint32_t> cancelled;
  const auto stale = [&](const Timer& t) { return cancelled.count(t.id) > 0; };
  const Duration day = Duration::Seconds(86400);
  size_t largest = 0;
  std::vector<uint32_t> kept;
  for (uint32_t id = 0; id < 100'000; ++id) {
    fifo.Add(Timer{Instant::Micros(id) + day, id});
    if (id % 1000 == 7) {
      kept.push_back(id);  // stays live until it fires
    } else {
      cancelled.insert(id);
    }
    const size_t live = id + 1 - cancelled.size();
    fifo.CompactIfSparse(live, stale);
    largest = std::max(largest, fifo.size());
    CHECK(fifo.size() <= 2 * live + 4096 + 1);
  }
  CHECK(largest < 10'000);
  fifo.BeginWake();
  std::vector<uint32_t> fired;
  while (const auto due = fifo.PopDue(Instant::Micros(100'000) + day, stale)) {
    fired.push_back(due->id);
  }
  CHECK(fired == kept);  // every live one, in order, none of the cancelled
  CHECK_FALSE(fifo.EndWake(stale).has_value());
}

}  // namespace
}  // namespace timer_fifo_test
}  // namespace drainsim::engine
