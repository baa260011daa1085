// Where the live run's time went, read back from live-events.jsonl, for the side-by-side's
// closing note: what the simulation leaves out when the live time to empty is later than the
// simulated one. Two delays the model does not have:
//   - publish lag: how late the producer published against the plan's instants (the
//     simulation's); a producer that cannot keep up with the plan moves everything later;
//   - enqueue latency: publish -> the message's first delivery to a worker. The model makes a
//     message deliverable the instant it is published; a RabbitMQ quorum queue first appends it
//     to its Raft log (a write and fsync), and delivers it after that (the publisher's confirm
//     arrives then too).
//
// Contract:
//  (1) Quantiles are nearest-rank over the messages that have both instants; counts say how
//      many. Unreadable lines are skipped and counted; an unreadable file gives ok = false.
//  (2) Wall-clock figures only: never passed to the simulator.
//
// Thread-safety: pure (reads the file).
#pragma once

#include <cstdint>
#include <string>

#include "live/plan.h"

namespace drainsim::live {

struct WhereTimeWent {
  bool ok = false;
  int64_t published = 0;          // publish events matched with the plan
  double last_publish_lag_s = 0;  // the last planned message: live publish - planned instant
  double publish_lag_max_s = 0;   // the largest lag of any message
  int64_t delivered = 0;          // messages with a publish and a first delivery
  double enqueue_p50_ms = 0;      // publish -> first delivery
  double enqueue_p99_ms = 0;
  double enqueue_max_ms = 0;
  int64_t bad_lines = 0;
};

WhereTimeWent ReadWhereTimeWent(const std::string& events_path, const Plan& plan);

// One sentence for the closing note ("the last publish was 0.141 s behind its planned instant
// (at most 0.2 s); publish -> first delivery p50 86.7 ms, p99 251 ms, max 257 ms"), "" when
// !ok.
std::string WhereTimeWentText(const WhereTimeWent& w);

}  // namespace drainsim::live
