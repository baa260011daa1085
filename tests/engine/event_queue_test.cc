#include "sim/engine/event_queue.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <set>
#include <tuple>
#include <vector>

#include "sim/engine/rng.h"
#include "tests/engine/death.h"

namespace drainsim::engine {
namespace event_queue_test {
namespace {

using testing::DiesOfFailedCheck;

// The trivially correct model: every pending event as (time, push sequence, payload) in a
// sorted set; the first element is what Pop must return.
using ModelEvent = std::tuple<int64_t, uint64_t, uint64_t>;

Instant At(int64_t us) { return Instant::Micros(us); }

TEST_CASE("EventQueue pops earliest first and ties in push order", "[event_queue]") {
  EventQueue<int> queue;
  CHECK(queue.empty());
  queue.Push(At(30), 1);
  queue.Push(At(10), 2);
  queue.Push(At(20), 3);
  queue.Push(At(10), 4);
  queue.Push(At(30), 5);
  queue.Push(At(10), 6);
  CHECK(queue.size() == 6);
  CHECK(queue.NextTime() == At(10));
  std::vector<std::pair<int64_t, int>> popped;
  while (!queue.empty()) {
    auto [at, payload] = queue.Pop();
    popped.emplace_back(at.micros(), payload);
  }
  const std::vector<std::pair<int64_t, int>> expected = {{10, 2}, {10, 4}, {10, 6},
                                                         {20, 3}, {30, 1}, {30, 5}};
  CHECK(popped == expected);
  CHECK(queue.pushed_count() == 6);
  CHECK(queue.popped_count() == 6);
  CHECK(queue.last_popped_time() == At(30));
}

// Runs `operations` random pushes and pops against the model, comparing after every step.
// Push times are last-popped + increment, with increments drawn so that ties are common: zero
// (ties with "now"), a small range (ties among pending events) or a wide range.
void RunAgainstModel(uint64_t seed, int operations) {
  Rng rng = Rng::FromSeed(seed);
  EventQueue<uint64_t> queue;
  std::set<ModelEvent> model;
  uint64_t sequence = 0;
  int64_t now = 0;
  for (int op = 0; op < operations; ++op) {
    // Phases of 2,000 operations lean to pushing, balance, or lean to popping, so the size
    // sweeps from empty to a few thousand and back.
    const uint64_t phase = static_cast<uint64_t>(op / 2000) % 3;
    const uint64_t push_percent = phase == 0 ? 70 : (phase == 1 ? 50 : 30);
    if (model.empty() || rng.Bernoulli(push_percent, 100)) {
      int64_t increment = 0;
      switch (rng.UniformInt(3)) {
        case 0:
          increment = 0;
          break;
        case 1:
          increment = static_cast<int64_t>(rng.UniformInt(4));
          break;
        default:
          increment = static_cast<int64_t>(rng.UniformInt(1'000'000));
          break;
      }
      const uint64_t payload = rng.NextU64();
      queue.Push(At(now + increment), payload);
      model.emplace(now + increment, sequence++, payload);
    } else {
      const ModelEvent expected = *model.begin();
      model.erase(model.begin());
      auto [at, payload] = queue.Pop();
      REQUIRE(at.micros() == std::get<0>(expected));
      REQUIRE(payload == std::get<2>(expected));
      now = at.micros();
    }
    REQUIRE(queue.size() == model.size());
    REQUIRE(queue.empty() == model.empty());
    if (!model.empty()) REQUIRE(queue.NextTime().micros() == std::get<0>(*model.begin()));
    if (op % 1000 == 0) queue.CheckInvariants();
  }
  REQUIRE(queue.pushed_count() == sequence);
  queue.CheckInvariants();
  // Drain what is left; it must still match.
  while (!model.empty()) {
    auto [at, payload] = queue.Pop();
    REQUIRE(at.micros() == std::get<0>(*model.begin()));
    REQUIRE(payload == std::get<2>(*model.begin()));
    model.erase(model.begin());
  }
  REQUIRE(queue.empty());
}

TEST_CASE("EventQueue matches a sorted model under random operations", "[event_queue]") {
  // 8 seeds x 25,000 operations = 200,000 operations, plus the final drains.
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    CAPTURE(seed);
    RunAgainstModel(seed, 25'000);
  }
}

TEST_CASE("EventQueue orders a million events with many ties", "[event_queue][large]") {
  constexpr uint64_t kCount = uint64_t{1} << 20;
  Rng rng = Rng::FromSeed(42);
  EventQueue<uint64_t> queue;
  queue.Reserve(kCount);
  // Times in [0, kCount / 4): each instant has about four events, so FIFO order is exercised
  // at every level of the heap. The payload is the push index.
  for (uint64_t i = 0; i < kCount; ++i) {
    queue.Push(At(static_cast<int64_t>(rng.UniformInt(kCount / 4))), i);
  }
  REQUIRE(queue.size() == kCount);
  queue.CheckInvariants();
  int64_t previous_time = -1;
  uint64_t previous_index = 0;
  uint64_t popped = 0;
  uint64_t out_of_order = 0;
  while (!queue.empty()) {
    auto [at, index] = queue.Pop();
    if (at.micros() < previous_time) out_of_order++;
    if (at.micros() == previous_time && index <= previous_index) out_of_order++;
    previous_time = at.micros();
    previous_index = index;
    popped++;
  }
  CHECK(out_of_order == 0);
  CHECK(popped == kCount);
}

TEST_CASE("EventQueue holds move-only payloads and releases them", "[event_queue]") {
  EventQueue<std::unique_ptr<int>> queue;
  auto shared = std::make_shared<int>(7);
  EventQueue<std::shared_ptr<int>> counting;
  for (int i = 0; i < 100; ++i) {
    queue.Push(At(100 - i), std::make_unique<int>(i));
    counting.Push(At(i), shared);
  }
  CHECK(shared.use_count() == 101);
  for (int i = 0; i < 100; ++i) {
    auto [at, p] = queue.Pop();
    CHECK(at == At(i + 1));
    CHECK(*p == 99 - i);
  }
  for (int i = 0; i < 50; ++i) counting.Pop();
  // Popped payloads were moved out, not copied: the pool holds no stale reference.
  CHECK(shared.use_count() == 51);
  counting.Clear();
  CHECK(shared.use_count() == 1);
}

TEST_CASE("EventQueue Clear starts over but keeps counting", "[event_queue]") {
  EventQueue<int> queue;
  queue.Push(At(50), 1);
  queue.Push(At(60), 2);
  CHECK(queue.Pop().payload == 1);
  CHECK(queue.last_popped_time() == At(50));
  queue.Clear();
  CHECK(queue.empty());
  CHECK(queue.size() == 0);
  CHECK(queue.pushed_count() == 2);
  CHECK(queue.popped_count() == 1);
  // After Clear the clock restriction is gone: time 0 is accepted again.
  queue.Push(At(0), 3);
  queue.Push(At(0), 4);
  CHECK(queue.NextTime() == At(0));
  CHECK(queue.Pop().payload == 3);
  CHECK(queue.Pop().payload == 4);
  CHECK(queue.pushed_count() == 4);
  queue.CheckInvariants();
}

TEST_CASE("EventQueue reuses pool slots in a hold model", "[event_queue]") {
  // Pop one, push one: the pending count stays at 1000 and so must the pool, which
  // CheckInvariants relates to the heap and the free list.
  EventQueue<uint64_t> queue;
  Rng rng = Rng::FromSeed(9);
  for (uint64_t i = 0; i < 1000; ++i) queue.Push(At(static_cast<int64_t>(rng.UniformInt(1000))), i);
  int64_t previous = 0;
  for (int i = 0; i < 50'000; ++i) {
    auto [at, payload] = queue.Pop();
    REQUIRE(at.micros() >= previous);
    previous = at.micros();
    queue.Push(at + Duration::Micros(static_cast<int64_t>(rng.UniformInt(1000))), payload);
    REQUIRE(queue.size() == 1000);
  }
  queue.CheckInvariants();
  CHECK(queue.pushed_count() == 51'000);
}

TEST_CASE("EventQueue accepts negative times before the first pop", "[event_queue]") {
  EventQueue<int> queue;
  queue.Push(At(-5), 1);
  queue.Push(At(std::numeric_limits<int64_t>::max()), 2);
  queue.Push(At(-10), 3);
  CHECK(queue.Pop().at == At(-10));
  CHECK(queue.Pop().at == At(-5));
  CHECK(queue.Pop().at == Instant::Never());
}

TEST_CASE("EventQueue refuses what would break its invariants", "[event_queue][death]") {
  CHECK(DiesOfFailedCheck([] {
    EventQueue<int> queue;
    queue.Push(At(10), 1);
    queue.Pop();
    queue.Push(At(9), 2);  // earlier than the last popped time: time would run backwards
  }));
  CHECK(DiesOfFailedCheck([] {
    EventQueue<int> queue;
    queue.Pop();
  }));
  CHECK(DiesOfFailedCheck([] {
    EventQueue<int> queue;
    (void)queue.NextTime();
  }));
  CHECK(DiesOfFailedCheck([] {
    EventQueue<int> queue;
    queue.Reserve(EventQueue<int>::kPendingMax + 1);
  }));
  // The boundary itself is fine: pushing at exactly the last popped time is allowed.
  CHECK_FALSE(DiesOfFailedCheck([] {
    EventQueue<int> queue;
    queue.Push(At(10), 1);
    queue.Pop();
    queue.Push(At(10), 2);
  }));
}

}  // namespace
}  // namespace event_queue_test
}  // namespace drainsim::engine
