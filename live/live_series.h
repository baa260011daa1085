// The live run's main queue over time, rebuilt from live-events.jsonl for the side-by-side's
// chart (the live series over the simulated band): messages published and not yet settled,
// i.e. ready + in flight, the figure the simulation samples as depth + delayed + in_flight.
//
// Contract:
//  (1) +1 at a publish; -1 at an ack, a park, or a reject / nack without requeue; and -1 at the
//      last return (reject_requeue / nack_requeue) of a message found in the DLQ at the end
//      without a logged dead-lettering reject: the broker dead-lettered it there, by its
//      delivery limit. Other events do not move it.
//  (2) value[k] counts the events with t_s <= k * dt_s; there are at least `samples_min`
//      samples, and enough to pass the last event read.
//  (3) nullopt when the file cannot be opened; unreadable lines are skipped.
//  (4) Wall-clock figures only: never passed to the simulator.
//
// Thread-safety: pure (reads the file).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace drainsim::live {

struct LiveSeries {
  std::vector<double> main_queue;  // at k * dt_s
  double last_event_s = 0;         // the latest t_s read
};

// REQUIRES: dt_s > 0
std::optional<LiveSeries> LiveMainQueue(const std::string& events_path, double dt_s,
                                        size_t samples_min);

}  // namespace drainsim::live
