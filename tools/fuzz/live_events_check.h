// The property of `drainsim fit`'s live-events.jsonl reader (sim/telemetry/live_events_read.h),
// for the fuzz_live_events target and the replay of its corpus (tests/fuzz/live_events_corpus):
//  (1) nothing crashes, throws or asks for unbounded memory, whatever the bytes;
//  (2) the reader reads the file or gives one problem that starts with "FILE: ", and then leaves
//      a set that already held spans exactly as it was;
//  (3) every span read ends no earlier than it starts, and names a kind, a class (if failed) and
//      a message the set holds;
//  (4) reading the same bytes twice gives the same spans (determinism).
//
// Thread-safety: reentrant.
#pragma once

#include <string>
#include <string_view>

namespace drainsim::fuzz {

// "" when the property holds, else what broke.
std::string CheckLiveEventsBytes(std::string_view bytes);

}  // namespace drainsim::fuzz
