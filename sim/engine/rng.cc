#include "sim/engine/rng.h"

namespace drainsim::engine {

namespace {
// Lemire's method rejects a draw with probability below 1/2 (for any n), so this many
// rejections in a row (probability below 2^-128) means the generator is broken, not unlucky.
constexpr int kRejectionsMax = 128;

bool AllZero(const Rng::State& state) {
  return state[0] == 0 && state[1] == 0 && state[2] == 0 && state[3] == 0;
}
}  // namespace

// Inlined into its callers in this file: Family::For runs it twice per attempt (a stream for
// the attempt's durations, one per fault), and the call cost ~10 of its ~70 instructions.
[[gnu::always_inline]] inline Rng Rng::FromSplitMix(uint64_t seed) {
  SplitMix64 sm{seed};
  State state;
  for (uint64_t& word : state) word = sm.Next();
  // Four consecutive outputs of a bijection of distinct counters cannot all be zero; checked
  // anyway because an all-zero state would silently emit zeros forever.
  DRAINSIM_CHECK(!AllZero(state));
  return Rng(state);
}

Rng Rng::FromSeed(uint64_t seed) { return FromSplitMix(seed); }

Rng Rng::ForStream(uint64_t seed, uint64_t component, uint64_t entity) {
  // Each step is a bijection of the previous key xor the next coordinate, so no coordinate is
  // lost and entity 1 and entity 2 of one component always get different keys.
  uint64_t key = SplitMix64{seed}.Next();
  key = SplitMix64{key ^ component}.Next();
  key = SplitMix64{key ^ entity}.Next();
  return FromSplitMix(key);
}

Rng::Family::Family(uint64_t seed, uint64_t component)
    : key_(SplitMix64{SplitMix64{seed}.Next() ^ component}.Next()) {}

Rng Rng::Family::For(uint64_t entity) const {
  return FromSplitMix(SplitMix64{key_ ^ entity}.Next());
}

Rng Rng::FromState(const State& state) {
  DRAINSIM_CHECK(!AllZero(state));
  return Rng(state);
}

uint64_t Rng::UniformInt(uint64_t n) {
  DRAINSIM_CHECK(n > 0);
  using u128 = unsigned __int128;
  u128 product = u128{NextU64()} * n;
  uint64_t low = static_cast<uint64_t>(product);
  // The high word is the answer. It is biased only when the low word falls below 2^64 mod n,
  // which requires low < n; test that cheap condition first so the division is rare.
  if (low < n) {
    const uint64_t threshold = (0 - n) % n;  // 2^64 mod n
    int rejections = 0;
    while (low < threshold) {
      rejections++;
      DRAINSIM_CHECK(rejections < kRejectionsMax);
      product = u128{NextU64()} * n;
      low = static_cast<uint64_t>(product);
    }
  }
  return static_cast<uint64_t>(product >> 64);
}

bool Rng::Bernoulli(uint64_t numerator, uint64_t denominator) {
  DRAINSIM_CHECK(denominator > 0);
  DRAINSIM_CHECK(numerator <= denominator);
  return UniformInt(denominator) < numerator;
}

}  // namespace drainsim::engine
