// What a run's messages cost in memory, for the loader's estimate ("~N GB if all pending at
// once", sim/scenario/check_scenario.cc), which refuses scenarios that could not fit.
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

namespace drainsim::scenario {

// A message pending at once (ready, in the DLQ, delayed or in flight), created with the
// backlog: MessageStore reserves the whole backlog's records up front.
inline constexpr double kBytesPerPendingMessage = 210;
// A pending event on top of its message: a delayed message's due time (heap entry, payload).
inline constexpr double kBytesPerPendingEvent = 40;
// A message a producer publishes: the record array grows by doubling as the run goes, and
// while it copies it holds the old array and the new one, so a record costs up to twice its
// 176 bytes at the peak (measured: a burst of 1.5e6 messages costs 269 bytes each, of 1e6 or
// 2e6 209; the worst case, just past a power of two, is about 380).
inline constexpr double kBytesPerPublishedMessage = kBytesPerPendingMessage + 176;

}  // namespace drainsim::scenario
