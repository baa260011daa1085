#include "reports/life_text.h"

#include <cstdio>

#include "sim/base/check.h"
#include "sim/config/enum_names.h"

namespace drainsim::reports {

std::string FailureText(config::ErrorClass error, model::FailureCause cause, int32_t fault,
                        const std::vector<std::string>& fault_types) {
  std::string text(config::NameOf(error));
  switch (cause) {
    case model::FailureCause::kNone:
      return text;
    case model::FailureCause::kInjected:
      text += " (injected by fault " + std::to_string(fault);
      if (fault >= 0 && static_cast<size_t>(fault) < fault_types.size()) {
        text += ", " + fault_types[static_cast<size_t>(fault)];
      }
      return text + ")";
    case model::FailureCause::kDbTimeout:
      return text + " (database statement timeout)";
    case model::FailureCause::kDbRefused:
      return text + " (database refused the connection: outage)";
    case model::FailureCause::kDownstreamOutage:
      return text + " (downstream answered 503)";
    case model::FailureCause::kRateLimited:
      return text + " (downstream answered 429)";
  }
  return text;
}

std::string SpanOutcomeText(const model::AttemptSpan& span,
                            const std::vector<std::string>& fault_types) {
  if (span.sleep) return span.ended ? "slept through its backoff" : "still sleeping at the end";
  if (!span.ended) return "still running when the run stopped";
  std::string text;
  switch (span.outcome) {
    case model::AttemptOutcome::kFailed:
      text = "failed: " + FailureText(span.error, span.failure, span.fault, fault_types);
      if (!span.current) text += " (a stale copy)";
      return text;
    case model::AttemptOutcome::kCrashed:
      text = span.committed ? "worker crashed between commit and ack" : "worker crashed";
      break;
    case model::AttemptOutcome::kSuppressed:
      text = "found the claim row (duplicate suppressed), ";
      [[fallthrough]];
    case model::AttemptOutcome::kSucceeded:
      switch (span.ack) {
        case model::AckFate::kAcked:
          text += "acked";
          break;
        case model::AckFate::kLost:
          text += "ack lost";
          break;
        case model::AckFate::kBrokerDown:
          text += "ack lost (broker down)";
          break;
        case model::AckFate::kIgnored:
        case model::AckFate::kNone:
          text += "ack ignored (the message had moved on)";
          break;
      }
      break;
  }
  if (span.duplicate) {
    text += ", duplicate execution (" +
            std::string(model::DuplicateCauseName(span.duplicate_cause)) + ")";
  }
  return text;
}

std::string_view DuplicateCauseText(model::DuplicateCause cause) {
  switch (cause) {
    case model::DuplicateCause::kLostAck:
      return "its ack was lost after the work had committed, so the broker delivered it again "
             "when the visibility timeout ran out";
    case model::DuplicateCause::kCrashAfterCommit:
      return "its worker died between commit and ack, so the broker delivered the committed "
             "work again";
    case model::DuplicateCause::kVisibilityTimeout:
      return "its visibility timeout ran out while a worker was still on it, so the broker "
             "handed it to another worker and both ran it";
    case model::DuplicateCause::kRedrive:
      return "a drain replayed it from the DLQ although its work had already committed";
    case model::DuplicateCause::kOther:
      return "it came back for another reason (a crash before the ack, a broker restart, or "
             "another message with the same key)";
    case model::DuplicateCause::kRebalance:
      return "its Kafka consumer spent longer on it than max.poll.interval.ms and left the "
             "group, so the partition's next owner ran it again from the last committed offset";
    case model::DuplicateCause::kOrderingKey:
      return "an earlier message of its Pub/Sub ordering key was nacked or ran past its ack "
             "deadline, so Pub/Sub delivered it again with the rest of the key";
  }
  return "";
}

std::string_view RedeliveryText(model::RedeliveryCause cause) {
  switch (cause) {
    case model::RedeliveryCause::kLostAck:
      return "its ack was lost";
    case model::RedeliveryCause::kCrashAfterCommit:
      return "its worker died between commit and ack";
    case model::RedeliveryCause::kVisibilityTimeout:
      return "no ack came in time: a worker was still on it";
    case model::RedeliveryCause::kRedrive:
      return "a drain replayed it";
    case model::RedeliveryCause::kNotDeleted:
      return "its attempt had failed and the consumer left it for the timeout (no delete)";
    case model::RedeliveryCause::kRebalance:
      return "its consumer overran max.poll.interval.ms and left the group: a rebalance";
    case model::RedeliveryCause::kOrderingKey:
      return "an earlier message of its ordering key came back, and the key's later ones with it";
    case model::RedeliveryCause::kNone:
    case model::RedeliveryCause::kOther:
      return "its worker crashed before the ack";
  }
  return "";
}

std::string Seconds3(engine::Instant at) {
  char buffer[40];
  std::snprintf(buffer, sizeof(buffer), "%.3f", at.seconds());
  return buffer;
}

std::string LifeGapText(const model::MessageLife& life, size_t life_events_max) {
  DRAINSIM_CHECK(life.events_left_out > 0 && life.gap_at > 0 && life.gap_at < life.events.size());
  const model::LifeEvent& before = life.events[life.gap_at - 1];
  const model::LifeEvent& after = life.events[life.gap_at];
  const size_t head = life.gap_at;
  return std::to_string(life.events_left_out) + " events not recorded (attempts " +
         std::to_string(before.attempt) + " to " + std::to_string(after.attempt) + ", up to " +
         Seconds3(after.at) + " s): a life keeps its first " + std::to_string(head) +
         " and latest " + std::to_string(life_events_max - head) + " events";
}

}  // namespace drainsim::reports
