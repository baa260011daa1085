// trace.json: the run as a Chrome trace (Trace Event Format, JSON object form), for
// ui.perfetto.dev ("Open trace file") and chrome://tracing ("Load"). Time is simulated time:
// one trace microsecond is one simulated microsecond.
//
// Layout:
//   pid 1 "workers": a track (tid) per worker slot in use ("worker 3", or "worker 3 slot 1" when
//     workers.concurrency > 1); a complete event ("X") per attempt, named by the message kind,
//     coloured by outcome (cname: good acked, yellow ack lost, grey ack ignored, olive claim row
//     found, bad failed, terrible duplicate execution, black crashed, white unfinished), args
//     message, attempt, outcome; backoff sleeps holding a slot; worker crashes and restarts as
//     thread instants.
//   pid 2 "queues": counters ("C") from the sampled series (depth, delayed, dlq, parked,
//     in_flight, oldest_age, workers_busy); global instants ("i", "s": "g") for fault edges and
//     drain starts and ends; a track per fault and one for drains with their windows as spans.
//   pid 3 "messages": a track per sampled message (TraceLog::lives): a span per state (ready,
//     delayed, in flight on worker W, dead-lettered with its reason), instants for attempt
//     outcomes, commits and terminal states.
//   "otherData": scenario, seed, fingerprint, and what was left out (spans beyond spans_max,
//     lives beyond lives_max).
//
// Contract:
//  (1) A pure function of its ReportInput (reports/report_input.h): byte-identical output for
//      the same run. Every event has ph, ts, pid and tid; X events have dur >= 0.
//  (2) Without a TraceLog (ReportInput::trace null) it still writes the counters and says in
//      otherData that spans and lives were not recorded.
#pragma once

#include <string>

#include "reports/report_input.h"

namespace drainsim::reports {

std::string TraceReport(const ReportInput& input);

}  // namespace drainsim::reports
