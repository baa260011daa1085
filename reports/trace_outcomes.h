// What became of the trace's messages, said where Perfetto shows it. Perfetto ignores the
// Trace Event Format's `cname` (chrome://tracing's colour), so colour alone cannot carry an
// outcome there; names and categories can (Perfetto colours a slice by its name, and searches
// and queries names and categories), and so can tracks. For trace.json
// (reports/trace_report.h) this file gives:
//   - the class of each attempt span: a word for its slice's name and category;
//   - the outcome moments of each recorded message life (acked, retried, redelivered,
//     dead-lettered, replayed, parked, expired, rejected, duplicate), each a zero-length slice on
//     a track of its own class (process "outcomes").
//
// Contract:
//  (1) Pure functions of the TraceLog: the same log gives the same classes, slices and order.
//  (2) Every outcome slice belongs to one recorded life (TraceLog::lives) and names its message.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "reports/trace_events.h"
#include "sim/model/trace_log.h"

namespace drainsim::reports {

// How an attempt span ended.
enum class AttemptClass : uint8_t {
  kAcked,
  kAckLost,     // its ack was lost (ack_loss, or sent while the broker restarted)
  kAckIgnored,  // a stale copy: the broker had handed the message out again
  kSuppressed,  // it found the claim row and returned without redoing the work
  kFailed,
  kCrashed,
  kDuplicate,   // its work committed again for a key that had committed (whatever its ack did)
  kUnfinished,  // running when the run stopped
  kSleep,       // a backoff sleep holding the slot, not an attempt
};

AttemptClass AttemptClassOf(const model::AttemptSpan& span);
// One word for the slice's name and category: "acked", "ack-lost", "ack-ignored",
// "suppressed", "failed", "crashed", "duplicate", "unfinished", "sleep".
std::string_view AttemptClassName(AttemptClass attempt_class);
// Its colour in chrome://tracing (cname): good, yellow, grey, olive, bad, black, terrible,
// white, thread_state_sleeping.
std::string_view AttemptClassColour(AttemptClass attempt_class);

// What happened to a message, one class per track of the "outcomes" process.
enum class OutcomeClass : uint8_t {
  kAcked,         // the broker took its ack: done
  kRetried,       // a failure sent it back for another attempt (retry scheduled, or returned)
  kRedelivered,   // the broker handed it out again (visibility timeout, crash, broker restart)
  kDeadLettered,  // into the DLQ (a transition, or a backlog born there)
  kReplayed,      // a drain moved it from the DLQ back to the main queue
  kParked,        // parked by the retry policy or a drain, or failed on a broker without a DLQ
  kExpired,       // retention (DLQ or main queue) ran out
  kRejected,      // a full queue refused it
  kDuplicate,     // its work committed again for a key that had committed
  kBrokerLost,    // the broker discarded it by design (broker_lost)
};
inline constexpr int kOutcomeClassCount = 10;

// The class's track name: "acked", "retried", "redelivered", "dead-lettered", "replayed",
// "parked", "expired", "rejected", "duplicate", "broker-lost".
std::string_view OutcomeClassName(OutcomeClass outcome);

// One moment a recorded message reached an outcome.
struct OutcomeSlice {
  const model::MessageLife* life = nullptr;
  const model::LifeEvent* event = nullptr;  // one of life->events
  OutcomeClass outcome = OutcomeClass::kAcked;
};

// Every outcome moment of log.lives, life by life (by id), each life's in the order they
// happened.
std::vector<OutcomeSlice> OutcomesOf(const model::TraceLog& log);

// Writes process 4 "outcomes": a track per OutcomeClass, every class's track even when empty,
// and on it a zero-length slice per outcome moment, named by its class and detail
// ("dead-lettered (max_attempts)", "parked (drain 0)", "duplicate (lost_ack)"), category
// "outcome,<class>", args message, kind, attempt, and the worker or drain when there is one.
// `flows[i]` is outcomes[i]'s place in its message's flow (reports/trace_flows.h).
// REQUIRES: flows.size() == outcomes.size().
void WriteOutcomes(const model::TraceLog& log, const std::vector<OutcomeSlice>& outcomes,
                   const std::vector<FlowRole>& flows, TraceWriter& w);

}  // namespace drainsim::reports
