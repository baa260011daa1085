// Hold-model benchmark of the event queue against a std::priority_queue baseline.
//
// The hold model is the classic way to time a future event list (Vaucher and Duval 1975; Jones
// 1986): keep N events pending, then repeatedly pop the earliest and push one at
// now + random increment. Each iteration is one Pop and one Push, as in a simulation step.
//
// Both queues see the same operations: the same seed, increments from the project's Rng, the
// same payloads. The baseline is what one would write first: a std::priority_queue of
// {time, sequence, payload} entries with a greater-than comparator on (time, sequence), which
// moves the whole entry on every sift. Results: tools/bench/RESULTS.md.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "sim/engine/event_queue.h"
#include "sim/engine/rng.h"

namespace drainsim::engine {
namespace {

// The payload a model event might carry: an event kind and an entity id, plus a generation.
struct Payload16 {
  uint64_t a;
  uint64_t b;
};
// A smaller payload (an index into the caller's own table), for the 24-byte baseline entry.
struct Payload8 {
  uint64_t a;
};

// Increments are uniform on [0, 1 s) in microseconds: with a million events pending, many
// share an instant, as in a real run.
constexpr uint64_t kIncrementRangeUs = 1'000'000;

template <typename P>
P MakePayload(uint64_t i) {
  if constexpr (sizeof(P) == 16) {
    return P{i, ~i};
  } else {
    return P{i};
  }
}

template <typename P>
class StdPriorityQueue {
 public:
  struct Entry {
    int64_t time_us;
    uint64_t sequence;
    P payload;
  };
  void Reserve(std::size_t n) {
    std::vector<Entry> storage;
    storage.reserve(n);
    queue_ = Queue(Later(), std::move(storage));
  }
  void Push(Instant at, P payload) { queue_.push(Entry{at.micros(), sequence_++, payload}); }
  std::pair<Instant, P> Pop() {
    const Entry top = queue_.top();
    queue_.pop();
    return {Instant::Micros(top.time_us), top.payload};
  }

 private:
  struct Later {
    bool operator()(const Entry& x, const Entry& y) const {
      if (x.time_us != y.time_us) return x.time_us > y.time_us;
      return x.sequence > y.sequence;
    }
  };
  using Queue = std::priority_queue<Entry, std::vector<Entry>, Later>;
  Queue queue_;
  uint64_t sequence_ = 0;
};

template <typename Queue, typename P>
void BM_Hold(benchmark::State& state) {
  const auto pending = static_cast<std::size_t>(state.range(0));
  Rng rng = Rng::FromSeed(1);
  Queue queue;
  queue.Reserve(pending);
  for (std::size_t i = 0; i < pending; ++i) {
    queue.Push(Instant::Micros(static_cast<int64_t>(rng.UniformInt(kIncrementRangeUs))),
               MakePayload<P>(i));
  }
  auto hold = [&]() {
    auto [at, payload] = queue.Pop();
    queue.Push(at + Duration::Micros(static_cast<int64_t>(rng.UniformInt(kIncrementRangeUs))),
               payload);
    return at;
  };
  // Untimed warm-up: the uniform initial fill is not the hold model's steady state.
  for (std::size_t i = 0; i < pending; ++i) hold();
  for (auto _ : state) benchmark::DoNotOptimize(hold());
  state.SetItemsProcessed(state.iterations());
  state.counters["entry_bytes"] =
      sizeof(typename std::conditional_t<std::is_same_v<Queue, StdPriorityQueue<P>>,
                                         typename StdPriorityQueue<P>::Entry, HeapEntry>);
}

#define DRAINSIM_HOLD_SIZES ->Arg(1'000)->Arg(100'000)->Arg(1'000'000)

BENCHMARK_TEMPLATE(BM_Hold, EventQueue<Payload16>, Payload16) DRAINSIM_HOLD_SIZES;
BENCHMARK_TEMPLATE(BM_Hold, StdPriorityQueue<Payload16>, Payload16) DRAINSIM_HOLD_SIZES;
BENCHMARK_TEMPLATE(BM_Hold, EventQueue<Payload8>, Payload8) DRAINSIM_HOLD_SIZES;
BENCHMARK_TEMPLATE(BM_Hold, StdPriorityQueue<Payload8>, Payload8) DRAINSIM_HOLD_SIZES;

}  // namespace
}  // namespace drainsim::engine
