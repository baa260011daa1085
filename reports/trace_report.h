// trace.json: the run as a Chrome trace (Trace Event Format, JSON object form), for
// ui.perfetto.dev ("Open trace file") and chrome://tracing ("Load"). Time is simulated time:
// one trace microsecond is one simulated microsecond.
//
// Layout:
//   pid 1 "workers": a track (tid) per worker slot in use ("worker 3", or "worker 3 slot 1" when
//     workers.concurrency > 1); a complete event ("X") per attempt, named "<class>: <kind>" and
//     in categories "attempt,<class>" (reports/trace_outcomes.h's AttemptClass: acked, ack-lost,
//     ack-ignored, suppressed, failed, crashed, duplicate, unfinished), so that Perfetto, which
//     ignores cname, shows the outcome; coloured by outcome for chrome://tracing (cname: good
//     acked, yellow ack lost, grey ack ignored, olive claim row found, bad failed, terrible
//     duplicate execution, black crashed, white unfinished); args message, attempt, outcome;
//     backoff sleeps holding a slot; worker crashes and restarts as thread instants.
//   pid 2 "queues": counters ("C") from the sampled series (depth, delayed, dlq, parked,
//     in_flight, oldest_age, workers_busy); global instants ("i", "s": "g") for fault edges and
//     drain starts and ends; a track per fault and one for drains with their windows as spans.
//   pid 3 "messages": a track per sampled message (TraceLog::lives): a span per state (ready,
//     delayed, in flight on worker W, dead-lettered with its reason), instants for attempt
//     outcomes, commits and terminal states.
//   pid 4 "outcomes": a track per outcome class (acked, retried, redelivered, dead-lettered,
//     replayed, parked, expired, rejected, duplicate) with a zero-length slice each time a
//     sampled message reached it (reports/trace_outcomes.h).
//   Flows: one per message (bind_id = message id + 1) through its attempt spans and outcome
//     slices in time order (reports/trace_flows.h).
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
