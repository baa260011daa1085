// Words for what happens to a message and its attempts, shared by the trace (span names and
// arguments, reports/trace_report.h) and `drainsim explain` (reports/explain_report.h), so that
// both say the same thing the same way.
//
// Contract: pure functions; the same arguments give the same text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/model/observer.h"
#include "sim/model/trace_log.h"

namespace drainsim::reports {

// "transient (database statement timeout)", "transient (injected by fault 0,
// synthetic_failures)", "rate_limited (downstream answered 429)".
std::string FailureText(config::ErrorClass error, model::FailureCause cause, int32_t fault,
                        const std::vector<std::string>& fault_types);

// What an attempt span came to, in a few words: "acked", "ack lost", "failed: transient
// (database statement timeout)", "found the claim row (duplicate suppressed), acked",
// "worker crashed", "still running when the run stopped"; ", duplicate execution (lost_ack)"
// is appended when its work committed again.
std::string SpanOutcomeText(const model::AttemptSpan& span,
                            const std::vector<std::string>& fault_types);

// Why a duplicate execution happened, as a clause: "its ack was lost after the work committed,
// so the broker delivered it again".
std::string_view DuplicateCauseText(model::DuplicateCause cause);

// Why the broker handed a message out again, as a clause: "its ack was lost".
std::string_view RedeliveryText(model::RedeliveryCause cause);

// A life's gap (MessageLife::events_left_out > 0) in words: "3,948 events not recorded (attempts
// 8 to 994, up to 12.480 s): a life keeps its first 16 and latest 48 events".
// REQUIRES: life.events_left_out > 0, 0 < life.gap_at < life.events.size()
std::string LifeGapText(const model::MessageLife& life, size_t life_events_max);

// Seconds with 3 decimals: "612.400".
std::string Seconds3(engine::Instant at);

}  // namespace drainsim::reports
