// What the swarm found for one seed, and how a forked child hands it to its parent.
//
// Verdicts are ordered by severity: a seed (and a whole swarm) is reported with the worst it
// met, crash > correctness > liveness > timeout > pass. A timeout is the least of the failures:
// it found nothing wrong, it only could not finish checking.
//
// Contract:
//  (1) DecodeSeedReport(EncodeSeedReport(r)) == r for every report whose texts hold no '\n'
//      (Fail and Note replace newlines by spaces, so reports built through them round-trip).
//  (2) Decoding never fails: a record without a verdict yields verdict kCrash (with no problem
//      line: the caller knows how the child died), since only a child that died half-way
//      writes one; a "C" record (a failed DRAINSIM_CHECK, written by the hook in isolate.cc)
//      yields kCorrectness.
//
// Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace drainsim::chaos {

enum class Verdict : uint8_t {
  kPass,
  kTimeout,      // the seed was still running at its wall-clock limit (--seed-timeout-s)
  kLiveness,     // some message had not come to rest by the end of the liveness phase
  kCorrectness,  // conservation, determinism, an invalid variant, or a failed internal check
  kCrash,        // the child died: a signal (not a failed check or the timeout), an exception
};
inline constexpr int kVerdictCount = 5;

// "pass", "timeout", "liveness", "correctness", "crash".
const char* VerdictName(Verdict verdict);

struct SeedReport {
  uint64_t seed = 0;
  Verdict verdict = Verdict::kPass;
  // One line per failed check, "conservation: ...", in the order the checks ran.
  std::vector<std::string> problems;
  // The faults drawn and the run's headline figures, for --verbose.
  std::vector<std::string> details;

  // Records a failed check; the verdict becomes the worse of the two.
  void Fail(Verdict verdict, std::string_view problem);
  void Note(std::string_view detail);
  bool operator==(const SeedReport&) const = default;
};

std::string EncodeSeedReport(const SeedReport& report);
SeedReport DecodeSeedReport(uint64_t seed, std::string_view text);

}  // namespace drainsim::chaos
