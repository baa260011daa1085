// Where a fitted value came from: the `fitted` member `drainsim fit` writes beside a value it
// estimated from telemetry (docs/TELEMETRY.md). Kept by the loader beside the configuration
// (sim/scenario/fitted_values.h) and written back by `drainsim dump`; the model never reads it
// (it changes no run), so no configuration struct holds it.
//
//   "fitted": {"from": "out/otlp-traces.json", "n": 19873, "method": "lognormal, maximum
//              likelihood", "ks": 0.0042, "interval": {"mu": [2.29, 2.31], "sigma": [0.59, 0.61]}}
//
// Invariants of a loaded Fitted (the loader checks them): from is 1..4096 bytes; n >= 0; method
// at most 200 bytes; ks in [0, 1]; each interval low <= high, finite; at most 8 named intervals,
// names 1..64 bytes; an unnamed interval ("interval": [low, high]) is the only one.
//
// An errors fault also has "fail_after_fitted", the same object, for its fail_after_ms (the mean
// of the failed attempts' durations): kept under the pointer "/faults/N/fail_after_fitted".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace drainsim::config {

struct Fitted {
  std::string from;  // the telemetry files
  int64_t n = 0;     // observations the value was fitted to
  std::string method;
  std::optional<double> ks;  // Kolmogorov-Smirnov distance, distributions only
  // 95% intervals: one unnamed ("" -> [low, high]) or per parameter ("mu", "sigma"), in name
  // order.
  std::vector<std::pair<std::string, std::pair<double, double>>> intervals;
  bool operator==(const Fitted&) const = default;
};

// The schema's words for an errors fault's `fail_after_fitted` (tools/docs/fault_schema.cc).
inline constexpr const char* kFailAfterFittedDoc =
    "Where fail_after_ms came from when drainsim fit estimated it: the telemetry, the number of "
    "failed attempts, the method and the Student t 95% interval of the mean. Needs fail_after_ms. "
    "Kept by the loader and the dump; the run never reads it. Default: absent.";

}  // namespace drainsim::config
