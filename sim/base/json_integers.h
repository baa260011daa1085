// Unsigned 64-bit integers (seeds) in JSON that every reader reads exactly.
//
// JavaScript, jq and most JSON tools hold numbers as doubles, exact only up to 2^53: they read
// the seed 10903086657810375724 as 10903086657810377000, and a reproduction with it runs another
// seed. So every output writes an integer above 2^53 as a decimal string, and every input
// accepts both forms (sim/scenario's ReadUint64, experiments' part reader). In the base layer:
// the scenario's dump, the reports and live all write seeds.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace drainsim::base {

inline constexpr uint64_t kJsonExactIntegerMax = uint64_t{1} << 53;

// A number up to 2^53, a string of its decimal digits above.
inline nlohmann::json Uint64Json(uint64_t value) {
  if (value <= kJsonExactIntegerMax) return value;
  return std::to_string(value);
}

}  // namespace drainsim::base
