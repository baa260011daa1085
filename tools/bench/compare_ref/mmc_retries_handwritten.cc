// mmc_retries_handwritten: the reference model of tools/bench/compare as a tight hand-written
// C++ event loop — what a careful engineer writes for this one model, with nothing general.
// It is the yardstick drainsim is compared with: the least the same work can cost.
//
// The reference model (the same text heads mmc_retries_simpy.py and tools/bench/RESULTS.md):
//  - Poisson arrivals at rate lambda over [0, T): the first at an exponential gap from 0,
//    each next one an exponential gap later, none at or after T. The count is what happened.
//  - c identical servers and one FIFO queue; a server takes one job at a time.
//  - Each attempt takes an exponential service time of mean 1/mu; at its end the attempt
//    fails with probability p_fail, independently.
//  - A job whose attempt number n (attempts made so far, this one included) is below
//    attempts_max waits base * 2^(n-1) seconds after a failure (no jitter, no cap), then
//    rejoins the TAIL of the queue; after its attempts_max-th failure it is dead-lettered.
//  - Sojourn = arrival to successful completion, successful jobs only.
// tools/bench/compare passes every parameter (lambda, mu, c, T, p_fail, attempts_max, base,
// seed); this program has no defaults of its own beyond the batch count.
//
// How it is made fast (issue 16: the comparison is against the fastest honest loop):
//  - Three event sources, each in the cheapest structure its order allows: the next arrival
//    is one number (arrivals are generated one ahead); service ends are a std::priority_queue
//    of 24-byte entries (end time, the job's arrival time, attempts), at most c of them; the
//    backoffs of attempt n all last base * 2^(n-1), so they end in the order they started: one
//    FIFO ring per attempt number, and the earliest front cached. The loop takes the earliest
//    of the three. (In the heap, the backoffs would about double it: at rho 0.8 about as many
//    jobs wait out a backoff as are in service.)
//  - The waiting jobs are a power-of-two ring, not a std::deque.
//  - xoshiro256** (one 64-bit draw per uniform); the failure test compares 53 random bits
//    with an integer threshold; exponentials by the 256-layer ziggurat (Marsaglia & Tsang
//    2000, in the 53-bit form numpy uses), exact by rejection, ~99% of draws one random word,
//    one multiply and one compare, and no log. `--check-sampler N` tests it (see there).
//  - No per-job records: a job travels in its entries (arrival time, attempts); statistics
//    are counters plus per-batch sums for the batch means.
//
// Output: one JSON line — jobs, completed, dead_lettered, attempts, mean_sojourn_s,
// sojourn_se_s (batch means: 30 batches by arrival time, so the correlation between
// neighbours in the queue is inside a batch), events (arrivals + service ends + backoff
// ends), wall_s (the loop only).
//
// Invariants, checked at the end: (1) time never decreases; (2) every arrived job ends
// exactly once, completed or dead-lettered; (3) the heap, the queue and the backoffs end empty.
//
// Differences from drainsim, all harmless for the figures compared: time is a double in
// seconds (drainsim: int64 µs, every drawn duration rounded to the µs); one generator for
// everything (drainsim: a stream per producer and per attempt); the failure is drawn at the
// end of service (drainsim decides it when the attempt starts; the outcome is independent of
// the duration either way); events at one instant (probability zero here: every event time
// is an exponential draw or one plus a constant) run arrival, then service end, then backoff
// end, then by the heap's order.
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <queue>
#include <vector>

#include "tools/bench/compare_ref/fast_draws.h"
#include "tools/bench/compare_ref/mmc_args.h"

namespace {

using mmc::Exponential;
using mmc::Params;
using mmc::Xoshiro256;

// A FIFO in a power-of-two ring that doubles when full: a push and a pop are an index mask
// away, where std::deque walks its block map.
template <typename T>
class Ring {
 public:
  bool Empty() const { return head_ == tail_; }
  const T& Front() const { return slots_[head_ & mask_]; }
  void PushBack(const T& value) {
    if (tail_ - head_ == slots_.size()) Grow();
    slots_[tail_++ & mask_] = value;
  }
  T PopFront() { return slots_[head_++ & mask_]; }

 private:
  void Grow() {
    std::vector<T> bigger(slots_.size() * 2);
    for (size_t i = 0; i < slots_.size(); ++i) bigger[i] = slots_[(head_ + i) & mask_];
    tail_ = slots_.size();
    head_ = 0;
    slots_.swap(bigger);
    mask_ = slots_.size() - 1;
  }
  std::vector<T> slots_ = std::vector<T>(64);
  size_t mask_ = 63, head_ = 0, tail_ = 0;  // head_ and tail_ count; mask_ = size - 1
};

// A job between two events: when it arrived and how many attempts it has made.
struct Job {
  double arrival_s;
  uint32_t attempts;
};

// A pending service end; 24 bytes.
struct ServiceEnd {
  double at_s;
  Job job;
};
static_assert(sizeof(ServiceEnd) == 24, "the heap entry is meant to be 24 bytes");

struct Later {
  bool operator()(const ServiceEnd& a, const ServiceEnd& b) const { return a.at_s > b.at_s; }
};

// A pending backoff end; the ring of attempt n holds them in end order.
struct BackoffEnd {
  double at_s;
  Job job;
};

struct Counters {
  int64_t jobs = 0, completed = 0, dead_lettered = 0, attempts = 0, events = 0;
  double sojourn_sum_s = 0;
  std::vector<double> batch_sum_s;
  std::vector<int64_t> batch_count;
};

constexpr double kNever = std::numeric_limits<double>::infinity();

// The model's run. REQUIRES: p valid (mmc::Parse).
Counters Run(const Params& p, Xoshiro256& rng, const Exponential& exponential) {
  const double mean_service_s = 1.0 / p.mu, mean_gap_s = 1.0 / p.lambda;
  const uint64_t fail_below = mmc::ProbabilityThreshold53(p.p_fail);
  const auto retries = static_cast<uint32_t>(p.attempts_max - 1);  // backoff kinds
  std::vector<double> backoff_s(retries);
  for (uint32_t n = 0; n < retries; ++n) backoff_s[n] = std::ldexp(p.backoff_base_s, int(n));
  const double batches_per_s = static_cast<double>(p.batches) / p.until_s;
  const auto last_batch = static_cast<size_t>(p.batches - 1);

  Counters k;
  k.batch_sum_s.assign(static_cast<size_t>(p.batches), 0.0);
  k.batch_count.assign(static_cast<size_t>(p.batches), 0);
  std::vector<ServiceEnd> heap_storage;
  heap_storage.reserve(static_cast<size_t>(p.c));
  std::priority_queue<ServiceEnd, std::vector<ServiceEnd>, Later> in_service(
      Later{}, std::move(heap_storage));
  Ring<Job> waiting;
  std::vector<Ring<BackoffEnd>> backoffs(retries);
  int64_t servers_free = p.c;
  double now_s = 0, backoff_due_s = kNever;
  size_t backoff_due_kind = 0;

  auto next_backoff = [&] {  // the earliest front of the backoff rings
    backoff_due_s = kNever;
    for (size_t n = 0; n < backoffs.size(); ++n) {
      if (!backoffs[n].Empty() && backoffs[n].Front().at_s < backoff_due_s) {
        backoff_due_s = backoffs[n].Front().at_s;
        backoff_due_kind = n;
      }
    }
  };
  auto start_service = [&](Job job) {
    --servers_free;
    ++job.attempts;
    ++k.attempts;
    in_service.push(ServiceEnd{now_s + exponential.Draw(rng) * mean_service_s, job});
  };
  auto enqueue = [&](Job job) {  // the queue is empty whenever a server is free
    if (servers_free > 0) {
      start_service(job);
    } else {
      waiting.PushBack(job);
    }
  };

  double arrival_s = exponential.Draw(rng) * mean_gap_s;
  if (arrival_s >= p.until_s) arrival_s = kNever;
  for (;;) {
    const double service_s = in_service.empty() ? kNever : in_service.top().at_s;
    double at_s = arrival_s < service_s ? arrival_s : service_s;
    if (backoff_due_s < at_s) at_s = backoff_due_s;
    if (at_s == kNever) break;
    if (at_s < now_s) std::abort();  // (1)
    now_s = at_s;
    ++k.events;
    if (at_s == arrival_s) {
      ++k.jobs;
      arrival_s = now_s + exponential.Draw(rng) * mean_gap_s;
      if (arrival_s >= p.until_s) arrival_s = kNever;
      enqueue(Job{now_s, 0});
    } else if (at_s == service_s) {
      const Job job = in_service.top().job;
      in_service.pop();
      ++servers_free;
      if ((rng.Next() >> 11) < fail_below) {
        if (job.attempts <= retries) {
          const size_t kind = job.attempts - 1;
          const double end_s = now_s + backoff_s[kind];
          backoffs[kind].PushBack(BackoffEnd{end_s, job});
          if (end_s < backoff_due_s) {
            backoff_due_s = end_s;
            backoff_due_kind = kind;
          }
        } else {
          ++k.dead_lettered;
        }
      } else {
        const double sojourn_s = now_s - job.arrival_s;
        ++k.completed;
        k.sojourn_sum_s += sojourn_s;
        auto batch = static_cast<size_t>(job.arrival_s * batches_per_s);
        if (batch > last_batch) batch = last_batch;
        k.batch_sum_s[batch] += sojourn_s;
        ++k.batch_count[batch];
      }
      if (!waiting.Empty()) start_service(waiting.PopFront());
    } else {
      const Job job = backoffs[backoff_due_kind].PopFront().job;
      next_backoff();
      enqueue(job);  // to the tail of the queue
    }
  }
  if (k.completed + k.dead_lettered != k.jobs) std::abort();  // (2)
  if (!waiting.Empty() || servers_free != p.c) std::abort();  // (3)
  for (const auto& ring : backoffs)
    if (!ring.Empty()) std::abort();  // (3)
  return k;
}

// Standard error of the mean sojourn by batch means (0 with fewer than two batches).
double BatchMeansSe(const Counters& k) {
  double means_sum = 0, means_sq = 0;
  int64_t used = 0;
  for (size_t b = 0; b < k.batch_sum_s.size(); ++b) {
    if (k.batch_count[b] == 0) continue;
    const double m = k.batch_sum_s[b] / static_cast<double>(k.batch_count[b]);
    means_sum += m;
    means_sq += m * m;
    ++used;
  }
  if (used < 2) return 0;
  const double mean_of_means = means_sum / static_cast<double>(used);
  const double var = (means_sq - static_cast<double>(used) * mean_of_means * mean_of_means) /
                     static_cast<double>(used - 1);
  return std::sqrt(std::max(var, 0.0) / static_cast<double>(used));
}

}  // namespace

int main(int argc, char** argv) {
  const Params p = mmc::Parse(argc, argv);
  Xoshiro256 rng(p.seed);
  const Exponential exponential;
  if (p.check_sampler_draws > 0) return mmc::CheckSampler(exponential, rng, p.check_sampler_draws);

  const auto wall_start = std::chrono::steady_clock::now();
  const Counters k = Run(p, rng, exponential);
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  const double mean_s = k.completed > 0 ? k.sojourn_sum_s / static_cast<double>(k.completed) : 0;
  std::printf("{\"impl\": \"hand-written\", \"jobs\": %" PRId64 ", \"completed\": %" PRId64
              ", \"dead_lettered\": %" PRId64 ", \"attempts\": %" PRId64
              ", \"mean_sojourn_s\": %.9f, \"sojourn_se_s\": %.9f, \"events\": %" PRId64
              ", \"wall_s\": %.6f}\n",
              k.jobs, k.completed, k.dead_lettered, k.attempts, mean_s, BatchMeansSe(k), k.events,
              wall_s);
  return 0;
}
