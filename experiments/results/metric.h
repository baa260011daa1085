// A metric an experiment reports, as its results name it (experiments/metric_spec.h resolves
// and measures it): the canonical name, the expectation it stands for, which way is better.
// In the results layer so that reports can render experiment results that carry metrics.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/config/expect.h"

namespace drainsim::experiments {

enum class Better : uint8_t { kLower, kHigher, kNone };

// "lower", "higher", "none": how reports and part files name it.
inline std::string_view BetterName(Better better) {
  switch (better) {
    case Better::kLower:
      return "lower";
    case Better::kHigher:
      return "higher";
    case Better::kNone:
      return "none";
  }
  return "none";
}

struct MetricSpec {
  std::string name;                // canonical: NAME[:KIND][@WINDOW], "@run" dropped
  config::MetricExpectation what;  // metric, kind and during; the bounds are unused
  Better better = Better::kNone;
};

}  // namespace drainsim::experiments
