#include "reports/trace_outcomes.h"

#include <optional>

#include "reports/trace_flows.h"
#include "sim/base/check.h"
#include "sim/config/enum_names.h"

namespace drainsim::reports {

namespace {

constexpr int kPidOutcomes = 4;
constexpr int64_t kOutcomesSortIndex = 3;  // above the messages' many tracks

using Cause = model::TransitionCause;

std::optional<OutcomeClass> TransitionOutcome(Cause cause) {
  switch (cause) {
    case Cause::kAcked:
      return OutcomeClass::kAcked;
    case Cause::kRetryScheduled:
    case Cause::kReturned:
      return OutcomeClass::kRetried;
    case Cause::kVisibilityTimeout:
    case Cause::kCrashRequeue:
    case Cause::kBrokerRestart:
      return OutcomeClass::kRedelivered;
    case Cause::kDeadLettered:
      return OutcomeClass::kDeadLettered;
    case Cause::kReplayed:
      return OutcomeClass::kReplayed;
    case Cause::kParkedByPolicy:
    case Cause::kParkedByDrain:
    case Cause::kFailed:
      return OutcomeClass::kParked;
    case Cause::kExpired:
    case Cause::kRetentionExpired:
      return OutcomeClass::kExpired;
    case Cause::kRejected:
      return OutcomeClass::kRejected;
    case Cause::kBrokerLost:
      return OutcomeClass::kBrokerLost;
    case Cause::kDelivered:
    case Cause::kRetryDue:
    case Cause::kDeadLetterWaiting:  // not an outcome yet: it enters the DLQ later
    case Cause::kThrottled:          // received, not processed: an outcome comes later
      break;
  }
  return std::nullopt;
}

std::optional<OutcomeClass> OutcomeOf(const model::LifeEvent& e) {
  using T = model::LifeEvent::Type;
  switch (e.type) {
    case T::kPublish:
      if (e.to == model::MessageState::kDeadLettered) return OutcomeClass::kDeadLettered;
      return std::nullopt;
    case T::kTransition:
      return TransitionOutcome(e.cause);
    case T::kCommit:
      if (e.duplicate) return OutcomeClass::kDuplicate;
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

// Why, in a few words for the slice's name; its class's name comes first.
std::string Detail(const OutcomeSlice& o) {
  const model::LifeEvent& e = *o.event;
  const std::string drain = "drain " + std::to_string(e.drain);
  if (e.type == model::LifeEvent::Type::kPublish) return "backlog";
  if (e.type == model::LifeEvent::Type::kCommit) {
    return model::DuplicateCauseName(e.duplicate_cause);
  }
  switch (e.cause) {
    case Cause::kReturned:
      return "returned by the consumer";
    case Cause::kVisibilityTimeout:
      return "visibility timeout";
    case Cause::kCrashRequeue:
      return "worker crashed";
    case Cause::kBrokerRestart:
      return "broker restarted";
    case Cause::kDeadLettered:
      return std::string(config::NameOf(e.dlq_reason));
    case Cause::kReplayed:
    case Cause::kParkedByDrain:
      return drain;
    case Cause::kParkedByPolicy:
      return std::string(config::NameOf(e.error));
    case Cause::kFailed:
      return "failed: " + std::string(config::NameOf(e.dlq_reason)) + ", no DLQ";
    case Cause::kExpired:
      return "from the DLQ";
    case Cause::kRetentionExpired:
      return "from the main queue";
    case Cause::kRejected:
      return "queue full";
    case Cause::kBrokerLost:
      return std::string(model::BrokerLossCauseName(e.loss));
    default:
      return "";
  }
}

std::string_view OutcomeColour(OutcomeClass outcome) {
  switch (outcome) {
    case OutcomeClass::kAcked:
      return "good";
    case OutcomeClass::kRetried:
      return "yellow";
    case OutcomeClass::kRedelivered:
      return "olive";
    case OutcomeClass::kReplayed:
      return "rail_load";
    case OutcomeClass::kParked:
      return "bad";
    case OutcomeClass::kExpired:
    case OutcomeClass::kBrokerLost:
      return "black";
    case OutcomeClass::kRejected:
      return "grey";
    case OutcomeClass::kDeadLettered:
    case OutcomeClass::kDuplicate:
      break;
  }
  return "terrible";
}

int64_t TidOf(OutcomeClass outcome) { return static_cast<int64_t>(outcome) + 1; }

void WriteOutcome(const model::TraceLog& log, const OutcomeSlice& o, FlowRole flow,
                  TraceWriter& w) {
  const model::LifeEvent& e = *o.event;
  const std::string_view name = OutcomeClassName(o.outcome);
  const std::string detail = Detail(o);
  const std::string category = "outcome," + std::string(name);
  TraceArgs args;
  args.Int("message", static_cast<int64_t>(o.life->id));
  if (o.life->kind_index < log.kinds.size()) args.Str("kind", log.kinds[o.life->kind_index]);
  args.Int("attempt", e.attempt);
  if (e.worker >= 0) args.Int("worker", e.worker);
  if (e.drain >= 0) args.Int("drain", e.drain);
  TraceEvent event{"X",
                   kPidOutcomes,
                   TidOf(o.outcome),
                   e.at,
                   engine::Duration::Zero(),
                   detail.empty() ? std::string(name) : std::string(name) + " (" + detail + ")",
                   category,
                   OutcomeColour(o.outcome),
                   "",
                   args.Text()};
  event.flow = flow;
  event.flow_id = FlowIdOf(o.life->id);
  w.Add(event);
}

}  // namespace

AttemptClass AttemptClassOf(const model::AttemptSpan& s) {
  if (s.sleep) return AttemptClass::kSleep;
  if (!s.ended) return AttemptClass::kUnfinished;
  if (s.duplicate) return AttemptClass::kDuplicate;
  switch (s.outcome) {
    case model::AttemptOutcome::kFailed:
      return AttemptClass::kFailed;
    case model::AttemptOutcome::kCrashed:
      return AttemptClass::kCrashed;
    case model::AttemptOutcome::kSuppressed:
      return AttemptClass::kSuppressed;
    case model::AttemptOutcome::kSucceeded:
      break;
  }
  if (s.ack == model::AckFate::kAcked) return AttemptClass::kAcked;
  if (s.ack == model::AckFate::kIgnored) return AttemptClass::kAckIgnored;
  return AttemptClass::kAckLost;
}

std::string_view AttemptClassName(AttemptClass attempt_class) {
  switch (attempt_class) {
    case AttemptClass::kAcked:
      return "acked";
    case AttemptClass::kAckLost:
      return "ack-lost";
    case AttemptClass::kAckIgnored:
      return "ack-ignored";
    case AttemptClass::kSuppressed:
      return "suppressed";
    case AttemptClass::kFailed:
      return "failed";
    case AttemptClass::kCrashed:
      return "crashed";
    case AttemptClass::kDuplicate:
      return "duplicate";
    case AttemptClass::kUnfinished:
      return "unfinished";
    case AttemptClass::kSleep:
      break;
  }
  return "sleep";
}

std::string_view AttemptClassColour(AttemptClass attempt_class) {
  switch (attempt_class) {
    case AttemptClass::kAcked:
      return "good";
    case AttemptClass::kAckLost:
      return "yellow";
    case AttemptClass::kAckIgnored:
      return "grey";
    case AttemptClass::kSuppressed:
      return "olive";
    case AttemptClass::kFailed:
      return "bad";
    case AttemptClass::kCrashed:
      return "black";
    case AttemptClass::kDuplicate:
      return "terrible";
    case AttemptClass::kUnfinished:
      return "white";
    case AttemptClass::kSleep:
      break;
  }
  return "thread_state_sleeping";
}

std::string_view OutcomeClassName(OutcomeClass outcome) {
  switch (outcome) {
    case OutcomeClass::kAcked:
      return "acked";
    case OutcomeClass::kRetried:
      return "retried";
    case OutcomeClass::kRedelivered:
      return "redelivered";
    case OutcomeClass::kDeadLettered:
      return "dead-lettered";
    case OutcomeClass::kReplayed:
      return "replayed";
    case OutcomeClass::kParked:
      return "parked";
    case OutcomeClass::kExpired:
      return "expired";
    case OutcomeClass::kRejected:
      return "rejected";
    case OutcomeClass::kDuplicate:
      return "duplicate";
    case OutcomeClass::kBrokerLost:
      return "broker-lost";
  }
  return "";
}

std::vector<OutcomeSlice> OutcomesOf(const model::TraceLog& log) {
  std::vector<OutcomeSlice> out;
  for (const model::MessageLife& life : log.lives) {
    for (const model::LifeEvent& e : life.events) {
      if (const std::optional<OutcomeClass> outcome = OutcomeOf(e)) {
        out.push_back(OutcomeSlice{&life, &e, *outcome});
      }
    }
  }
  return out;
}

void WriteOutcomes(const model::TraceLog& log, const std::vector<OutcomeSlice>& outcomes,
                   const std::vector<FlowRole>& flows, TraceWriter& w) {
  DRAINSIM_CHECK(flows.size() == outcomes.size());
  w.Meta(kPidOutcomes, 0, "process", "outcomes", kOutcomesSortIndex);
  for (int c = 0; c < kOutcomeClassCount; ++c) {
    const auto outcome = static_cast<OutcomeClass>(c);
    w.Meta(kPidOutcomes, TidOf(outcome), "thread", OutcomeClassName(outcome), TidOf(outcome));
  }
  for (size_t i = 0; i < outcomes.size(); ++i) WriteOutcome(log, outcomes[i], flows[i], w);
}

}  // namespace drainsim::reports
