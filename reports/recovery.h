// Recovery after faults, and metastability: once the last fault window has closed, do the
// queue, the oldest message's age and the live traffic's p99 return to where they were before
// the first fault? A metastable failure (Bronson et al., "Metastable Failures in Distributed
// Systems", HotOS 2021) is a bad state that persists after its trigger is removed: retries keep
// the database saturated although the slowdown that started them is over.
//
// Definitions (docs/METRICS.md, "Recovery"), all from the sampled series:
//   baseline    the maximum of each figure over the samples in (0, first window's start];
//               work = ready + delayed + in flight; live p99 over samples with live queries.
//   tolerance   a figure is back when it is at most max(2 x baseline, baseline + slack), slack
//               10 messages, 1 s of age, 10 ms of live p99.
//   recovered   the first sample at or after the last window's end from which all three stay
//               back until the run's end; time_to_recover_s counts from that window's end.
//   metastable  true when the run went on for at least kHorizonS after the last window and was
//               still not back at its end; false when it was back (at any time before the end).
//
// Contract: pure; reads Results only (series, fault_windows, ended_at_s, has_live_traffic).
#pragma once

#include <optional>
#include <string>

#include "sim/model/results.h"

namespace drainsim::reports {

inline constexpr double kHorizonS = 300;

struct Recovery {
  // Null with `why` set when there is nothing to judge: no fault window, no sample before the
  // first one, or the last one still open at the end.
  std::optional<double> time_to_recover_s;
  std::optional<bool> metastable;
  std::string why;  // why time_to_recover_s or metastable is null, "" when both are set
  double baseline_work = 0;
  double baseline_age_s = 0;
  double baseline_live_p99_ms = 0;
  double last_window_end_s = 0;
};

Recovery RecoveryOf(const model::Results& r);

// "recovered 120 s after the last fault" / "metastable: not back 300 s after the last fault
// (work 5329, baseline 1)" / the reason it cannot be judged.
std::string RecoveryText(const Recovery& recovery, const model::Results& r);

}  // namespace drainsim::reports
