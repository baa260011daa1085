// The value of a run metric (config::RunMetric) in a finished run, for `metric` expectations:
// which figure of Results it is, per kind and within a window (during drains or faults) where
// Results can say, and why not where it cannot.
//
// Contract:
//  (1) Definitions are report.json's (reports/metrics.h): the same figure, the same rounding.
//  (2) A value is kValue only when Results holds it or it follows from Results exactly, or from
//      the sampled series as `note` states. Otherwise it is kUndefined (the figure exists but
//      has no value in this run: a queue that never emptied has no time_to_empty_s) or
//      kNotMeasured (Results does not keep that figure for that kind or window). Expectations
//      fail on both, saying why; nothing is guessed.
//  (3) Windows come from the series (see InWindow): a state at a sample's instant belongs to
//      "drains" iff drain_active is set there ("faults": fault_active); a figure over the
//      interval between two samples (a count, a utilisation) iff the flag is set at both ends,
//      so no interval from before a drain's start is counted as during it. Live latency during
//      drains is exact (Results keeps its histogram).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/expect.h"
#include "sim/model/results.h"

namespace drainsim::reports {

struct Measurement {
  enum class Status : uint8_t { kValue, kUndefined, kNotMeasured };
  Status status = Status::kNotMeasured;
  double value = 0;  // rounded by Fixed(); meaningful iff status == kValue
  // kValue: how the value was derived, "" when Results holds it as it is. Otherwise: why there
  // is no value, as a phrase ("the DLQ never emptied").
  std::string note;
};

// The value of `e.metric` for `e.kind` (all kinds if unset) during `e.during`. The bounds of
// `e` are not looked at.
Measurement Measure(const model::Results& results, const config::MetricExpectation& e);

// True iff sample `i` of `series` belongs to the window `during`. "run": every sample, except
// that a figure over an interval needs one (i > 0). "drains" / "faults": the sample's flag is
// set, and for a figure over an interval (`over_interval`) the previous sample's flag too.
// REQUIRES: i < series.size()
bool InWindow(const std::vector<model::Sample>& series, size_t i, config::During during,
              bool over_interval);

}  // namespace drainsim::reports
