// libFuzzer target for `drainsim fit`'s live-events.jsonl reader (built by tools/fuzz with
// clang): bytes read as a live run's event log (live_events_check.h).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tools/fuzz/live_events_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string failure =
      drainsim::fuzz::CheckLiveEventsBytes({reinterpret_cast<const char*>(data), size});
  if (!failure.empty()) {
    std::fprintf(stderr, "drainsim fuzz_live_events: property violated: %s\n", failure.c_str());
    std::abort();
  }
  return 0;
}
