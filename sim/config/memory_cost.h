// What a run's messages cost in memory, and the cap on messages pending at once that follows.
// Constants in the configuration layer, so that the loader (sim/scenario/) and the model
// (sim/model/memory_cost.h, which throws at the cap) read the same figures.
//
// Decision (issue 16 step 4): memory is capped where it is spent, as the run goes, not by a
// worst case at load. A healthy run keeps few messages pending (monthly rehearsal x1160: 1e8
// published, a few thousand pending at once), so refusing every scenario whose messages *could*
// all be pending at once refused normal runs. Instead:
//  (1) RunOptions::pending_messages_max (sim/model/simulation.h, default
//      kPendingMessagesMaxDefault) caps the live message records. MessageStore::Create compares
//      its live count against it (one compare per message created) and throws
//      PendingMessagesMaxExceeded instead of creating one more. The run is abandoned: no Results,
//      so no report (the CLI exits kExitPendingMessagesMax, 7, and writes nothing).
//  (2) The cap counts records, so where it stops depends only on the scenario and the seed:
//      deterministic, and the same for every --jobs.
//  (3) The loader (sim/scenario/check_scenario.cc) refuses only what is certainly over the
//      default cap: messages pending together before any worker could take one (the backlog,
//      created at t = 0; one unspaced fanout or burst firing, published in one event).
//
// The figures are measured, not derived: peak resident memory (ru_maxrss, /usr/bin/time -v) of
// `drainsim run` on a scenario whose backlog of N messages barely runs, minus that of an empty
// run, over N (plain Release build, 2026-12-01):
//   main    2e5..4e6: 206..209 bytes a message
//   dlq     2e5..4e6: 187..188
//   delayed 2e5..4e6: 246..249 (each also has a pending event)
// A message is a model::MessageStore record (sizeof 176: model::Message and its slot's
// generation) plus its place in a queue and the ledger. Re-measure when model::Message grows:
// sim/model/message.h asserts the record's size so that the two cannot drift apart silently;
// tests/cli/memory_test.cc checks the estimate against three measured backlogs.
#pragma once

#include <cstdint>

namespace drainsim::config {

// A message pending at once (ready, in the DLQ, delayed or in flight), created with the
// backlog.
inline constexpr double kBytesPerPendingMessage = 210;
// A pending event on top of its message: a delayed message's due time (heap entry, payload).
inline constexpr double kBytesPerPendingEvent = 40;
// A message a producer publishes, for the loader's "if all pending at once" figure: measured
// 2026-12-01 on bursts (1.5e6 messages cost 269 bytes each, 1e6 or 2e6 209; the queues' arrays
// grow by doubling, up to about 380 just past a power of two). An upper bound, not a typical cost.
inline constexpr double kBytesPerPublishedMessage = kBytesPerPendingMessage + 176;

// The memory the default cap allows the pending messages: 16 GiB, the old static limit, which
// leaves room for the rest of a run on a machine of 23 GiB. Why not the machine's own memory:
// the same scenario and seed must stop at the same message on every machine.
inline constexpr double kPendingBytesDefault = 16.0 * (1ull << 30);
// The default of RunOptions::pending_messages_max: 16 GiB at 210 bytes a message, 81,808,900
// messages (about 8.2e7).
inline constexpr int64_t kPendingMessagesMaxDefault =
    static_cast<int64_t>(kPendingBytesDefault / kBytesPerPendingMessage);
// The cap may be set from 1 to this (MessageStore's slots are 32-bit).
inline constexpr int64_t kPendingMessagesMaxLimit = int64_t{0xffffffff} - 1;

}  // namespace drainsim::config
