// The project's random number generator: xoshiro256** seeded through splitmix64.
//
// drainsim owns its generator (and its distributions, see distributions.h) so that a seed gives
// the same numbers on every platform and standard library. Each random quantity in a model
// draws from its own stream, derived from (run seed, component, entity) by ForStream: one
// entity's numbers never shift because another stream drew more, which is what makes paired
// comparisons of two policies under the same seed meaningful (common random numbers).
//
// Invariants:
//  (1) The xoshiro256** state is never all zero (the one state the generator cannot leave).
//  (2) A generator's outputs depend only on how it was made and how many draws it has made:
//      no global state, no platform-dependent arithmetic.
//  (3) NextDouble, NextOpenDouble and NextU64 consume exactly one 64-bit output each.
//      UniformInt and Bernoulli consume one output, except on the rare rejection of Lemire's
//      method (probability below n / 2^64), when they consume another.
//
// Thread-safety: none; a generator is a value owned by one stream of one run. Distinct
// generators may be used on distinct threads.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "sim/base/check.h"

namespace drainsim::engine {

// splitmix64 (Steele, Lea, Flood 2014; Vigna's reference code): a 64-bit counter passed through
// a bijective mixer. Used to expand seeds into xoshiro state and to mix stream coordinates.
struct SplitMix64 {
  uint64_t state = 0;

  constexpr uint64_t Next() {
    state += 0x9e3779b97f4a7c15;
    return Mix(state);
  }
  // The output function alone: a bijection on uint64, so distinct inputs give distinct outputs.
  static constexpr uint64_t Mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return z ^ (z >> 31);
  }
};

// FNV-1a, 64 bits: names components as stream ids at compile time, for example
// `constexpr uint64_t kArrivals = StreamId("arrivals");`. Not a cryptographic hash; collisions
// between a handful of component names are checked by the tests that define them.
constexpr uint64_t StreamId(std::string_view name) {
  uint64_t hash = 0xcbf29ce484222325;
  for (char c : name) {
    hash ^= static_cast<uint8_t>(c);
    hash *= 0x100000001b3;
  }
  return hash;
}

class Rng {
 public:
  using State = std::array<uint64_t, 4>;

  // The generator for a whole-run seed: the state is four splitmix64 outputs from `seed`, as
  // the xoshiro authors recommend.
  static Rng FromSeed(uint64_t seed);

  // An independent stream for one entity of one component. The three coordinates are folded
  // through the splitmix64 mixer one at a time, so for a fixed seed and component, distinct
  // entities give distinct stream keys (the mixer is a bijection), and different components
  // collide only by 64-bit chance. Streams start at unrelated points of xoshiro256**'s 2^256
  // period, so they do not overlap in any run we can make.
  static Rng ForStream(uint64_t seed, uint64_t component, uint64_t entity);

  // ForStream with the (seed, component) part folded once: Family(seed, component).For(e)
  // equals ForStream(seed, component, e), for components that make a stream per message or
  // per attempt.
  class Family {
   public:
    Family(uint64_t seed, uint64_t component);
    Rng For(uint64_t entity) const;

   private:
    uint64_t key_;
  };

  // A placeholder for a member that is seeded before use (an attempt's stream, set when the
  // attempt starts): a fixed valid state, cheap to make, never to be drawn from for results.
  static constexpr Rng Unseeded() { return Rng(State{1, 0, 0, 0}); }

  // A generator in exactly this state, for known-answer tests.
  // REQUIRES: state is not all zero
  static Rng FromState(const State& state);

  // The next 64 random bits (xoshiro256**, Blackman and Vigna 2018).
  uint64_t NextU64() {
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

  // Uniform on [0, 1): the top 53 bits, scaled; every multiple of 2^-53 equally likely.
  double NextDouble() { return static_cast<double>(NextU64() >> 11) * 0x1.0p-53; }

  // Uniform on (0, 1): (k + 1/2) * 2^-52 for k uniform in [0, 2^52). Never 0 or 1, so it can
  // be passed to a logarithm or an inverse CDF; symmetric (1 - u has the same law and is exact).
  double NextOpenDouble() { return (static_cast<double>(NextU64() >> 12) + 0.5) * 0x1.0p-52; }

  // Uniform on [0, n), without bias (Lemire 2019, "Fast random integer generation in an
  // interval"): a 128-bit product, rejecting the few low words that would favor some results.
  // REQUIRES: n > 0
  uint64_t UniformInt(uint64_t n);

  // True with probability exactly numerator / denominator: UniformInt(denominator) < numerator.
  // It draws even when the answer is certain (0 or denominator), so changing a probability
  // never shifts the rest of the stream.
  // REQUIRES: denominator > 0
  // REQUIRES: numerator <= denominator
  bool Bernoulli(uint64_t numerator, uint64_t denominator);

  const State& state() const { return s_; }
  bool operator==(const Rng&) const = default;

 private:
  explicit constexpr Rng(const State& state) : s_(state) {}
  static constexpr uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  // Fills the state with four splitmix64 outputs from `seed`.
  static Rng FromSplitMix(uint64_t seed);

  State s_;
};

}  // namespace drainsim::engine
