// One flow per message in trace.json (reports/trace_report.h): the arrows Perfetto and
// chrome://tracing draw from a message's first attempt through its retries, redeliveries,
// dead letter, replay and park to its end, across the workers' tracks and the outcome tracks.
//
// A flow links, in time order, the message's attempt spans and backoff sleeps (TraceLog::spans:
// every message, up to spans_max) and its outcome slices (reports/trace_outcomes.h: the
// recorded lives only). A message with one such slice has no flow. Written as the Trace Event
// Format's v2 flow fields on each slice ("bind_id", "flow_in", "flow_out"; see
// reports/trace_events.h).
//
// Contract:
//  (1) A flow's id is FlowIdOf(its message's id): deterministic, and unique per message.
//  (2) Every flow has exactly one kStart (its earliest slice) and one kEnd (its latest), and
//      kStep for every slice between; timestamps never decrease along it. At one instant an
//      outcome that ends an attempt's consequences (retried, redelivered, dead-lettered,
//      replayed, parked, expired, rejected) comes before an attempt that starts then, and acked
//      and duplicate come after it: the order things happen in when an attempt takes no time.
//  (3) A pure function of the log and the outcome slices.
#pragma once

#include <cstdint>
#include <vector>

#include "reports/trace_events.h"
#include "reports/trace_outcomes.h"
#include "sim/model/trace_log.h"

namespace drainsim::reports {

// The flow id (bind_id) of a message's flow: its id + 1, since 0 reads as "no id".
constexpr uint64_t FlowIdOf(uint64_t message_id) { return message_id + 1; }

struct TraceFlows {
  std::vector<FlowRole> spans;     // by index in TraceLog::spans
  std::vector<FlowRole> outcomes;  // by index in the outcome slices
};

TraceFlows FlowsOf(const model::TraceLog& log, const std::vector<OutcomeSlice>& outcomes);

}  // namespace drainsim::reports
