// A structure-aware generator of valid scenarios, for whole-pipeline fuzzing: a deterministic
// decoder from bytes to a scenario JSON the loader accepts, so that the fuzzer (bytes from
// libFuzzer) and the seeded CI test (bytes from the project's RNG) explore the model and the
// report writers behind the loader instead of the loader's error paths.
//
// Every choice the decoder makes reads the next bytes; past the end of the input every read
// is 0, and 0 always picks the first (smallest, plainest) option, so a short input decodes to
// a minimal scenario and libFuzzer's mutations change one decision at a time.
//
// Invariants:
//  (1) GenerateScenarioJson is a pure function of its bytes: same bytes, same text.
//  (2) The text is a scenario the loader accepts (a refusal is a generator bug; the tests
//      count refusals and require none).
//  (3) Scenarios are small: at most a few hundred messages, run.until_s <= 600 and a bounded
//      run.events_max, so a case runs in milliseconds even with the audit on.
//  (4) Every kind of the vocabulary can appear: idempotency kinds, distribution families (the
//      lognormal by median/p99 and by mu/sigma), producer schedules, broker presets, retry
//      deliveries, classes, budget, circuit breaker, database, downstream, every fault type,
//      every drain strategy, backlog entries, alerts and expectations (array and object form).
//
// Thread-safety: reentrant; no global state.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace drainsim::fuzz {

// Bytes as a stream of choices. Past the end every read gives 0.
class Choices {
 public:
  explicit Choices(std::string_view bytes) : bytes_(bytes) {}

  // A value in [0, n). REQUIRES: n >= 1.
  uint64_t Below(uint64_t n);
  // True with about `percent` percent chance; false once the bytes are used up.
  bool Chance(int percent) { return Below(100) >= static_cast<uint64_t>(100 - percent); }
  // An integer in [low, high]. REQUIRES: low <= high.
  int64_t IntIn(int64_t low, int64_t high);
  // A number in [low, high] with three decimals (readable repros). REQUIRES: low <= high.
  double RealIn(double low, double high);
  // One of `options`.
  template <typename T, size_t N>
  const T& Pick(const T (&options)[N]) {
    return options[Below(N)];
  }

 private:
  uint8_t Byte() {
    return position_ < bytes_.size() ? static_cast<uint8_t>(bytes_[position_++]) : 0;
  }

  std::string_view bytes_;
  size_t position_ = 0;
};

// The scenario the bytes decode to, as JSON text (invariants (1)-(4)).
std::string GenerateScenarioJson(std::string_view bytes);

// The bytes the seeded test decodes for `seed`: a fixed-length stream of the project's RNG
// (sim/engine/rng.h), so a seed names one scenario on every platform.
std::string BytesForSeed(uint64_t seed);

}  // namespace drainsim::fuzz
