// mmc_retries_handwritten: the reference model of tools/bench/compare as the smallest honest
// C++ event loop — a binary heap of events, a FIFO of waiting jobs, its own generator. It is
// the yardstick drainsim is compared with: what the same work costs without a general model.
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
// Output: one JSON line — jobs, completed, dead_lettered, attempts, mean_sojourn_s,
// sojourn_se_s (batch means: 30 batches by arrival time, so the correlation between
// neighbours in the queue is inside a batch), events (heap pops), wall_s (the loop only).
//
// Invariants, checked at the end: (1) time never decreases; (2) every arrived job ends
// exactly once, completed or dead-lettered; (3) the heap and the queue end empty.
//
// Differences from drainsim, all harmless for the figures compared: time is a double in
// seconds (drainsim: int64 µs, every drawn duration rounded to the µs); one generator for
// everything (drainsim: a stream per producer and per attempt); the failure is drawn at the
// end of service (drainsim decides it when the attempt starts; the outcome is independent of
// the duration either way); ties between events at one instant run in insertion order, as in
// drainsim.
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <queue>
#include <string>
#include <vector>

namespace {

// xoshiro256** (Blackman & Vigna), seeded through splitmix64: small, fast and good enough
// for a benchmark's reference run.
class Xoshiro256 {
 public:
  explicit Xoshiro256(uint64_t seed) {
    for (uint64_t& word : s_) word = SplitMix64(seed);
  }
  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, 1), 53 bits.
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // Exponential with the given rate: -log(1 - u) / rate, u in [0, 1), so never infinite.
  double Exponential(double rate) { return -std::log1p(-Uniform()) / rate; }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t SplitMix64(uint64_t& state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t s_[4];
};

enum class Type : uint32_t { kArrival, kServiceEnd, kBackoffEnd };

// A job travels inside its events and queue entries: no per-job table, so memory follows the
// number of jobs in the system, not the number that ever arrived.
struct Job {
  double arrival_s;
  uint32_t attempts;  // made so far
};

struct Event {
  double at_s;
  uint64_t sequence;  // insertion order: ties at one instant run first-in, first-out
  Type type;
  Job job;
};

struct Later {
  bool operator()(const Event& a, const Event& b) const {
    if (a.at_s != b.at_s) return a.at_s > b.at_s;
    return a.sequence > b.sequence;
  }
};

struct Params {
  double lambda = -1, mu = -1, until_s = -1, p_fail = -1, backoff_base_s = -1;
  int64_t c = -1, attempts_max = -1, batches = 30;
  uint64_t seed = 0;
};

[[noreturn]] void Usage(const char* why) {
  std::fprintf(stderr,
               "mmc_retries_handwritten: %s\nusage: mmc_retries_handwritten --lambda L --mu M "
               "--c C --until-s T --p-fail P --attempts-max N --backoff-base-s B --seed S "
               "[--batches K]\n",
               why);
  std::exit(2);
}

Params Parse(int argc, char** argv) {
  Params p;
  double c = -1, attempts_max = -1, batches = 30, seed = -1;
  const struct {
    const char* flag;
    double* value;
  } kFlags[] = {{"--lambda", &p.lambda},
                {"--mu", &p.mu},
                {"--until-s", &p.until_s},
                {"--p-fail", &p.p_fail},
                {"--backoff-base-s", &p.backoff_base_s},
                {"--c", &c},
                {"--attempts-max", &attempts_max},
                {"--batches", &batches},
                {"--seed", &seed}};
  for (int i = 1; i < argc; i += 2) {
    if (i + 1 >= argc) Usage("every flag takes a value");
    char* end = nullptr;
    const double value = std::strtod(argv[i + 1], &end);
    if (end == argv[i + 1] || *end != '\0' || !std::isfinite(value)) Usage("bad number");
    bool known = false;
    for (const auto& f : kFlags) {
      if (std::strcmp(argv[i], f.flag) == 0) {
        *f.value = value;
        known = true;
      }
    }
    if (!known) Usage("unknown flag");
  }
  // Integers must be whole and in range; the seed too (up to 2^53, plenty for a benchmark).
  auto whole = [](double v, double low, double high) {
    return v >= low && v <= high && v == std::floor(v);
  };
  if (!(p.lambda > 0 && p.mu > 0 && p.until_s > 0 && p.p_fail >= 0 && p.p_fail <= 1 &&
        p.backoff_base_s > 0 && whole(c, 1, 1e7) && whole(attempts_max, 1, 60) &&
        whole(batches, 2, 1e4) && whole(seed, 0, 0x1.0p53))) {
    Usage("missing or out-of-range parameter");
  }
  p.c = static_cast<int64_t>(c);
  p.attempts_max = static_cast<int64_t>(attempts_max);
  p.batches = static_cast<int64_t>(batches);
  p.seed = static_cast<uint64_t>(seed);
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  const Params p = Parse(argc, argv);
  Xoshiro256 rng(p.seed);
  std::priority_queue<Event, std::vector<Event>, Later> heap;
  std::deque<Job> waiting;
  uint64_t sequence = 0;
  auto schedule = [&](double at_s, Type type, Job job) {
    heap.push(Event{at_s, sequence++, type, job});
  };

  int64_t servers_free = p.c, jobs = 0, completed = 0, dead_lettered = 0, attempts = 0, events = 0;
  double sojourn_sum_s = 0, now_s = 0;
  std::vector<double> batch_sum_s(static_cast<size_t>(p.batches), 0.0);
  std::vector<int64_t> batch_count(static_cast<size_t>(p.batches), 0);

  auto start_service = [&](Job job) {
    --servers_free;
    ++job.attempts;
    ++attempts;
    schedule(now_s + rng.Exponential(p.mu), Type::kServiceEnd, job);
  };
  auto enqueue = [&](Job job) {
    if (servers_free > 0) {
      start_service(job);  // the queue is empty whenever a server is free
    } else {
      waiting.push_back(job);
    }
  };

  const auto wall_start = std::chrono::steady_clock::now();
  const double first_s = rng.Exponential(p.lambda);
  if (first_s < p.until_s) schedule(first_s, Type::kArrival, Job{first_s, 0});
  while (!heap.empty()) {
    const Event event = heap.top();
    heap.pop();
    ++events;
    if (event.at_s < now_s) std::abort();  // (1)
    now_s = event.at_s;
    switch (event.type) {
      case Type::kArrival: {
        ++jobs;
        const double next_s = now_s + rng.Exponential(p.lambda);
        if (next_s < p.until_s) schedule(next_s, Type::kArrival, Job{next_s, 0});
        enqueue(event.job);
        break;
      }
      case Type::kServiceEnd: {
        const Job job = event.job;
        if (rng.Uniform() < p.p_fail) {
          if (job.attempts < static_cast<uint32_t>(p.attempts_max)) {
            const int exponent = static_cast<int>(job.attempts) - 1;
            schedule(now_s + std::ldexp(p.backoff_base_s, exponent), Type::kBackoffEnd, job);
          } else {
            ++dead_lettered;
          }
        } else {
          const double sojourn_s = now_s - job.arrival_s;
          ++completed;
          sojourn_sum_s += sojourn_s;
          const double share = job.arrival_s / p.until_s;
          auto batch = static_cast<int64_t>(share * static_cast<double>(p.batches));
          if (batch >= p.batches) batch = p.batches - 1;
          batch_sum_s[static_cast<size_t>(batch)] += sojourn_s;
          ++batch_count[static_cast<size_t>(batch)];
        }
        ++servers_free;
        if (!waiting.empty()) {
          const Job next = waiting.front();
          waiting.pop_front();
          start_service(next);
        }
        break;
      }
      case Type::kBackoffEnd:
        enqueue(event.job);  // to the tail of the queue
        break;
    }
  }
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (completed + dead_lettered != jobs) std::abort();        // (2)
  if (!waiting.empty() || servers_free != p.c) std::abort();  // (3)

  // Standard error of the mean sojourn by batch means.
  double means_sum = 0, means_sq = 0;
  int64_t used = 0;
  for (size_t b = 0; b < batch_sum_s.size(); ++b) {
    if (batch_count[b] == 0) continue;
    const double m = batch_sum_s[b] / static_cast<double>(batch_count[b]);
    means_sum += m;
    means_sq += m * m;
    ++used;
  }
  double se_s = 0;
  if (used >= 2) {
    const double mean_of_means = means_sum / static_cast<double>(used);
    const double var = (means_sq - static_cast<double>(used) * mean_of_means * mean_of_means) /
                       static_cast<double>(used - 1);
    se_s = std::sqrt(std::max(var, 0.0) / static_cast<double>(used));
  }
  const double mean_s = completed > 0 ? sojourn_sum_s / static_cast<double>(completed) : 0.0;
  std::printf("{\"impl\": \"hand-written\", \"jobs\": %" PRId64 ", \"completed\": %" PRId64
              ", \"dead_lettered\": %" PRId64 ", \"attempts\": %" PRId64
              ", \"mean_sojourn_s\": %.9f, \"sojourn_se_s\": %.9f, \"events\": %" PRId64
              ", \"wall_s\": %.6f}\n",
              jobs, completed, dead_lettered, attempts, mean_s, se_s, events, wall_s);
  return 0;
}
