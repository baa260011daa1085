// The "why" paragraph of `drainsim explain`: how a message's life ended and what made it
// unusual (failures, dead letters, replays, parking, duplicate executions), in sentences.
#include <vector>

#include "reports/explain_report.h"
#include "reports/life_text.h"
#include "sim/config/enum_names.h"

namespace drainsim::reports {

namespace {

using model::LifeEvent;
using Type = model::LifeEvent::Type;

// What the life had been through when it was dead-lettered: attempts run and, under a Lambda
// event-source mapping, receives throttled (counted by SQS, never run).
struct SoFar {
  int64_t attempts = 0;
  int64_t throttles = 0;
};

std::string ReceiveCountText(const SoFar& so_far) {
  std::string text = "the broker had delivered it broker.receive_count_max times";
  if (so_far.throttles == 0) return text;
  // A throttled receive counts toward maxReceiveCount though nothing ran: say so, or "delivered
  // N times" reads as N failed runs.
  return text + ", " + std::to_string(so_far.throttles) + " of those receives throttled by the " +
         "Lambda event-source mapping (every execution environment busy) and " +
         std::to_string(so_far.attempts) + " run" + (so_far.attempts == 1 ? "" : "s");
}

std::string DlqReasonText(const LifeEvent& e, const ExplainScene& scene, const SoFar& so_far) {
  const std::string error(config::NameOf(e.error));
  switch (e.dlq_reason) {
    case config::DlqReason::kMaxAttempts:
      return "its attempts reached the retry policy's attempts_max (" +
             std::to_string(scene.attempts_max.at(static_cast<size_t>(e.error))) + ") for " +
             error + " errors";
    case config::DlqReason::kNotRetryable:
      return error + " errors are not retried: they go to the DLQ at once";
    case config::DlqReason::kReceiveCountMax:
      return ReceiveCountText(so_far);
    case config::DlqReason::kRetryBudget:
      return "the retry budget refused another retry";
    case config::DlqReason::kMaxLength:
      return "the main queue was over broker.max_length and dropped its oldest message";
    case config::DlqReason::kDeliveryLimit:
      return "its counted returns exceeded broker.delivery_limit (" +
             std::to_string(scene.delivery_limit) + ")";
    case config::DlqReason::kStalled:
      return "its lock ran out more than broker.stalled_count_max times (a stalled job)";
    case config::DlqReason::kWorkerLost:
      return "its worker died while running it (requeue_on_crash \"fail\")";
  }
  return "";
}

std::string_view BrokerLossText(model::BrokerLossCause cause) {
  switch (cause) {
    case model::BrokerLossCause::kDlqFull:
      return "it was dead-lettered at most once into a DLQ at broker.dlq_max_length that refuses "
             "(dlq_overflow reject_publish)";
    case model::BrokerLossCause::kNoDeadLetterTarget:
      return "it would have been dead-lettered, but the broker has no DLQ and drops such "
             "messages (without_dlq dropped)";
    case model::BrokerLossCause::kCrash:
      return "its consumer crashed while holding it, and the broker had already handed it over "
             "for good (requeue_on_crash lost)";
    case model::BrokerLossCause::kWorkerLost:
      return "its worker died while running it, and the message was acked as failed "
             "(requeue_on_crash fail)";
    case model::BrokerLossCause::kSkipped:
      return "its attempts ran out and the consumer logged it and moved past it, with no "
             "dead-letter target (without_dlq skipped)";
    case model::BrokerLossCause::kArchived:
      return "its delivery count reached the broker's limit and the broker archived it, with no "
             "dead-letter topic (without_dlq archived)";
    case model::BrokerLossCause::kCommittedUnprocessed:
      return "its consumer committed its poll's offsets before processing them (offset_commit "
             "before_processing) and crashed before it processed this record: nobody fetches it "
             "again";
  }
  return "";
}

// Why the message was in the main queue again before events[index]: the latest way back.
std::string ComebackText(const std::vector<LifeEvent>& events, size_t index) {
  for (size_t i = index; i-- > 0;) {
    const LifeEvent& e = events[i];
    if (e.type != Type::kTransition || e.to != model::MessageState::kReady) continue;
    switch (e.cause) {
      case model::TransitionCause::kVisibilityTimeout:
        return "the visibility timeout ran out; " + std::string(RedeliveryText(e.redelivery));
      case model::TransitionCause::kCrashRequeue:
        return "its worker had crashed";
      case model::TransitionCause::kBrokerRestart:
        return "the broker had restarted";
      case model::TransitionCause::kReplayed:
        return "drain " + std::to_string(e.drain) + " had replayed it";
      case model::TransitionCause::kRetryDue:
        return "a retry";
      case model::TransitionCause::kReturned:
        return "its consumer had returned it after a failure";
      default:
        return "";
    }
  }
  return "";
}

std::string Ending(const model::MessageLife& life, const model::TraceLog& log, int64_t attempts,
                   int64_t replays) {
  const LifeEvent* last = nullptr;
  for (const LifeEvent& e : life.events) {
    if (e.type == Type::kPublish || e.type == Type::kTransition) last = &e;
  }
  std::string after =
      " after " + std::to_string(attempts) + " attempt" + (attempts == 1 ? "" : "s");
  if (replays > 0) after += " in " + std::to_string(replays + 1) + " lives (replays included)";
  const std::string at = Seconds3(last->at) + " s";
  switch (last->to) {
    case model::MessageState::kAcked:
      return "It was acked at " + at + after + ".";
    case model::MessageState::kParked:
      return "It was parked at " + at + after + ": it needs a human.";
    case model::MessageState::kExpired:
      // Main-queue retention expires messages too, not only the DLQ's.
      if (last->cause == model::TransitionCause::kRetentionExpired) {
        return "It expired in the main queue (broker.retention_s) at " + at + after +
               ": its work is lost.";
      }
      return "It expired in the DLQ at " + at + after + ": its work is lost.";
    case model::MessageState::kRejected:
      return "It was refused at publish (" + at + ") by a full queue and never ran.";
    case model::MessageState::kDeadLettered:
      return "It was still in the DLQ when the run stopped at " + Seconds3(log.ended_at) + " s" +
             after + ": it needs a human.";
    case model::MessageState::kBrokerLost:
      return "The broker discarded it at " + at + after + " (broker_lost, cause " +
             std::string(model::BrokerLossCauseName(last->loss)) +
             "): " + std::string(BrokerLossText(last->loss)) + ". Nothing will run it again.";
    case model::MessageState::kDeadLetterWaiting:
      return "It was still waiting for room in the full DLQ when the run stopped at " +
             Seconds3(log.ended_at) + " s" + after +
             " (at-least-once dead-lettering keeps it in the main queue, undeliverable).";
    default:
      return "It was still " + std::string(model::MessageStateName(last->to)) +
             " when the run stopped at " + Seconds3(log.ended_at) + " s" + after + ".";
  }
}

// "Its work ran again at ...", and what the kind's idempotency made of the second run.
std::string DuplicateSentence(const LifeEvent& e, const std::string& at, const ExplainScene& scene,
                              const std::string& kind_name) {
  std::string text = "Its work ran again at " + at + " (duplicate execution, cause " +
                     std::string(model::DuplicateCauseName(e.duplicate_cause)) +
                     "): " + std::string(DuplicateCauseText(e.duplicate_cause)) + ".";
  const auto kind = scene.idempotency.find(kind_name);
  if (kind != scene.idempotency.end()) {
    if (kind->second == config::Idempotency::kNone) {
      text +=
          " Its kind has idempotency none, so the second run was visible (a second "
          "email, a counter counted twice).";
    } else if (kind->second == config::Idempotency::kConverge) {
      text += " Its kind converges: the second run changed nothing but cost its time.";
    }
  }
  return text;
}

// The sentence a transition adds to the paragraph (dead-lettered, replayed, parked, failed for
// good), "" for the others.
std::string TransitionSentence(const LifeEvent& e, const std::string& at, const ExplainScene& scene,
                               const SoFar& so_far) {
  switch (e.cause) {
    case model::TransitionCause::kDeadLettered:
      return "At " + at + " it was dead-lettered (" + std::string(config::NameOf(e.dlq_reason)) +
             "): " + DlqReasonText(e, scene, so_far) + ".";
    case model::TransitionCause::kReplayed:
      return "Drain " + std::to_string(e.drain) + " replayed it at " + at + ".";
    case model::TransitionCause::kParkedByDrain:
      return "Drain " + std::to_string(e.drain) + " parked it at " + at +
             " because its selection does not replay " + std::string(config::NameOf(e.dlq_reason)) +
             " messages: a human has to look at it.";
    case model::TransitionCause::kParkedByPolicy:
      return "The retry policy parks " + std::string(config::NameOf(e.error)) +
             " errors: a human has to look at it.";
    case model::TransitionCause::kFailed:
      return "At " + at + " it failed for good (" + std::string(config::NameOf(e.dlq_reason)) +
             "): the broker has no DLQ, so a human has to look at it.";
    default:
      return "";
  }
}

}  // namespace

std::string WhyParagraph(const model::MessageLife& life, const model::TraceLog& log,
                         const ExplainScene& scene) {
  int64_t attempts = 0;
  int64_t throttles = 0;
  int64_t replays = 0;
  int64_t commits = 0;
  bool suppressed = false;
  std::vector<std::pair<std::string, int64_t>> failures;  // text, count; in first-seen order
  std::vector<std::string> sentences;
  const std::vector<LifeEvent>& events = life.events;
  for (size_t i = 0; i < events.size(); ++i) {
    const LifeEvent& e = events[i];
    const std::string at = Seconds3(e.at) + " s";
    if (e.type == Type::kAttemptStart) ++attempts;
    if (e.type == Type::kCommit) ++commits;
    if (e.type == Type::kAttemptEnd && e.outcome == model::AttemptOutcome::kFailed) {
      const std::string text = FailureText(e.error, e.failure, e.fault, log.faults);
      auto it = failures.begin();
      while (it != failures.end() && it->first != text) ++it;
      if (it == failures.end()) {
        failures.emplace_back(text, 1);
      } else {
        ++it->second;
      }
    }
    if (e.type == Type::kAttemptEnd && e.outcome == model::AttemptOutcome::kSuppressed) {
      suppressed = true;
      const std::string comeback = ComebackText(events, i);
      sentences.push_back("At " + at + " it came back" +
                          (comeback.empty() ? "" : " (" + comeback + ")") +
                          ", found the claim row and stopped there: the work did not run twice.");
    }
    if (e.type == Type::kCommit && e.duplicate) {
      sentences.push_back(DuplicateSentence(e, at, scene, log.kinds.at(life.kind_index)));
    }
    if (e.type != Type::kTransition) continue;
    if (e.cause == model::TransitionCause::kReplayed) ++replays;
    if (e.cause == model::TransitionCause::kThrottled) ++throttles;
    if (std::string sentence = TransitionSentence(e, at, scene, {attempts, throttles});
        !sentence.empty()) {
      sentences.push_back(std::move(sentence));
    }
  }
  std::string text = Ending(life, log, attempts, replays);
  if (!failures.empty()) {
    text += " Failed attempts:";
    for (size_t i = 0; i < failures.size(); ++i) {
      text +=
          (i == 0 ? " " : ", ") + std::to_string(failures[i].second) + " x " + failures[i].first;
    }
    text += ".";
  }
  for (const std::string& s : sentences) text += " " + s;
  if (attempts > 1 && commits == 1 && !suppressed) {
    // "Why did it run twice?" often means "it was attempted twice": say whether it took effect.
    text += " It was attempted " + std::to_string(attempts) +
            " times but its work committed once: the other attempts ended before their commit, "
            "and a transaction that does not commit rolls back, so the work took effect once.";
  }
  if (sentences.empty() && failures.empty() && attempts <= 1 &&
      text.rfind("It was acked", 0) == 0) {
    text += " Nothing unusual: delivered once, ran once, acked.";
  }
  return text;
}

}  // namespace drainsim::reports
