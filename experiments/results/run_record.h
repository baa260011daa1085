// What an experiment keeps of one run (experiments/runner.h makes it): its seed, its fingerprint,
// the value of every metric and the verdict of every expectation. In the results layer so that
// the reports that list an experiment's runs read it without including the runner.
//
// Contract: plain data; values, passed and measured are in the experiment's order of metrics
// and of the scenario's expectations.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace drainsim::experiments {

struct RunRecord {
  uint64_t seed = 0;
  uint64_t fingerprint = 0;
  std::vector<std::optional<double>> values;  // one per metric, in the experiment's order
  std::vector<bool> passed;                   // one per expectation of the scenario, in order
  // One per expectation: the figure compared with its bounds (reports::Verdict::measured);
  // nullopt when it had none (undefined, not measured, no samples).
  std::vector<std::optional<double>> measured;
  bool operator==(const RunRecord&) const = default;
};

}  // namespace drainsim::experiments
