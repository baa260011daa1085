// Reading `drainsim live`'s event log (live-events.jsonl) for `drainsim fit`: each handler attempt
// of the live run becomes a ProcessSpan (otlp_read.h), as an OTLP process span would, so that a
// scenario can be fitted to what the real broker and database did (docs/TELEMETRY.md, "Reading
// live-events.jsonl").
//
// What is read: one JSON object per line, {"t_s", "event", "id", "worker", "attempt", "detail"}
// (live/event_log.h). A message's kind is its "publish" line's detail. An attempt starts at its
// "attempt" line (id, worker, attempt) and ends at the first line that settles it (same id,
// worker and attempt):
//  - succeeded: "ack", "ack_failed", "ack_lost", "crash_after_commit" (the handler's work was
//    done; what happened to the ack is the broker's part);
//  - by its detail ("failed:CLASS (why)" is a failure of CLASS, anything else a success):
//    "reject_requeue", "nack_requeue", "reject_dead_letter", "nack_dead_letter", "republish",
//    "park", "settle_dropped";
//  - censored (left out of every fit): "rolled_back" (the worker died mid-attempt), and an
//    attempt still open at the end of the file (ends at the file's last time).
// A settling line earlier than its attempt line is bad input. Other lines (deliveries, commits,
// faults, drains) are read for their time only. An attempt of
// a message with no publish line (the DLQ a run seeds) has kind "unknown".
//
// Contract:
//  (1) Never throws; lines over kLiveLineBytesMax and files over kTextBytesMax are refused.
//  (2) Either the whole file is read, or the result is the first problem, "FILE: line L: reason",
//      and `set` is as before the file.
//  (3) Deterministic: spans in the order their attempts started; times in nanoseconds from the
//      run's start (t_s × 1e9, rounded), not unix time.
//  (4) Every span read ends no earlier than it starts.
//
// Thread-safety: reentrant.
#pragma once

#include <string>
#include <string_view>

#include "sim/base/expected.h"
#include "sim/telemetry/otlp_read.h"

namespace drainsim::telemetry {

inline constexpr size_t kLiveLineBytesMax = size_t{1} << 16;

// Reads one live-events.jsonl text into `set` (appending). REQUIRES: set != nullptr.
base::Status ReadLiveEvents(std::string_view text, const std::string& file, TelemetrySet* set);
// The same for the file at `path`. REQUIRES: set != nullptr.
base::Status ReadLiveEventsFile(const std::string& path, TelemetrySet* set);

}  // namespace drainsim::telemetry
