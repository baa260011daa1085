// Where the live run's time went, read back from live-events.jsonl, for the side-by-side's
// closing note: what the simulation leaves out when the live time to empty is later than the
// simulated one. Two delays the model does not have:
//   - publish lag: how late the producer published against the plan's instants (the
//     simulation's); a producer that cannot keep up with the plan moves everything later;
//   - publish -> the message's first delivery to a worker. That holds the wait behind a
//     backlog, which the model has (its queue wait, ready -> delivery, set beside it:
//     SimulatedWait), and the broker's enqueue, which it has not: the model makes a message
//     deliverable the instant it is published, where a RabbitMQ quorum queue first appends it to
//     its Raft log (a write and fsync) and delivers it after that (the publisher's confirm
//     arrives then too). Live above simulated is what the model leaves out.
//
// Contract:
//  (1) Quantiles are nearest-rank over the messages that have both instants; counts say how
//      many. Unreadable lines are skipped and counted; an unreadable file gives ok = false.
//  (2) Wall-clock figures only: never passed to the simulator.
//
// Thread-safety: pure (reads the file).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "live/plan.h"

namespace drainsim::live {

// The simulation's queue wait (ready -> delivery, every delivery: a requeued or retried
// message waits from its requeue), means over the replications that delivered anything.
struct SimulatedWait {
  int64_t replications = 0;
  double p50_ms = 0;
  double p99_ms = 0;
};

struct WhereTimeWent {
  bool ok = false;
  int64_t published = 0;             // publish events matched with the plan
  double last_publish_lag_s = 0;     // the last planned message: live publish - planned instant
  double publish_lag_max_s = 0;      // the largest lag of any message
  int64_t delivered = 0;             // messages with a publish and a first delivery
  double first_delivery_p50_ms = 0;  // publish -> first delivery
  double first_delivery_p99_ms = 0;
  double first_delivery_max_ms = 0;
  int64_t bad_lines = 0;
  std::optional<SimulatedWait> simulated;  // set by the side-by-side, not read from the file
};

WhereTimeWent ReadWhereTimeWent(const std::string& events_path, const Plan& plan);

// One sentence for the closing note ("the last publish was 0.141 s behind its planned instant
// (at most 0.2 s); publish -> first delivery p50 86.7 ms, p99 251 ms, max 257 ms over 2000
// messages, against the simulation's queue wait p50 0 ms, p99 12 ms (30 replications)"), ""
// when !ok.
std::string WhereTimeWentText(const WhereTimeWent& w);

}  // namespace drainsim::live
