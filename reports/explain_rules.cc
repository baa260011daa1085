#include "reports/explain_rules.h"

#include "sim/config/enum_names.h"

namespace drainsim::reports {

namespace {

using model::LifeEvent;
using Cause = model::TransitionCause;

std::string ClassPointer(config::ErrorClass error) {
  return "/retry/classes/" + std::string(config::NameOf(error));
}

// A dead-letter's reason names the limit that was reached.
std::vector<std::string> DeadLetterPointers(const LifeEvent& e) {
  switch (e.dlq_reason) {
    case config::DlqReason::kMaxAttempts:
    case config::DlqReason::kNotRetryable:
      return {ClassPointer(e.error)};
    case config::DlqReason::kReceiveCountMax:
      return {"/broker/receive_count_max"};
    case config::DlqReason::kDeliveryLimit:
      return {"/broker/delivery_limit", "/broker/delivery_counted"};
    case config::DlqReason::kMaxLength:
      return {"/broker/max_length", "/broker/overflow"};
    case config::DlqReason::kStalled:
      return {"/broker/stalled_count_max"};
    case config::DlqReason::kWorkerLost:
      return {"/broker/requeue_on_crash"};
    case config::DlqReason::kRetryBudget:
      break;
  }
  return {};
}

// A loss by design names what made the broker (or the consumer) let go of the message.
std::vector<std::string> BrokerLossPointers(const LifeEvent& e) {
  switch (e.loss) {
    case model::BrokerLossCause::kNoDeadLetterTarget:
    case model::BrokerLossCause::kSkipped:
    case model::BrokerLossCause::kArchived: {
      std::vector<std::string> pointers = DeadLetterPointers(e);
      pointers.push_back("/broker/dead_letter_queue");
      pointers.push_back("/broker/without_dlq");
      return pointers;
    }
    case model::BrokerLossCause::kDlqFull:
      return {"/broker/dlq_overflow", "/broker/dead_letter_strategy"};
    case model::BrokerLossCause::kCrash:
    case model::BrokerLossCause::kWorkerLost:
      return {"/broker/requeue_on_crash"};
    case model::BrokerLossCause::kCommittedUnprocessed:
      return {"/broker/offset_commit", "/broker/max_poll_records"};
  }
  return {};
}

std::vector<std::string> TransitionPointers(const LifeEvent& e) {
  switch (e.cause) {
    case Cause::kVisibilityTimeout:
      return {"/broker/visibility_timeout_s", "/broker/on_visibility_timeout"};
    case Cause::kCrashRequeue:
      return {"/broker/requeue_on_crash"};
    case Cause::kRetryScheduled:
      return {"/retry/delivery", "/retry/backoff"};
    case Cause::kReturned:
      if (e.to == model::MessageState::kDelayed) {
        return {"/retry/delivery", "/broker/redelivery_backoff"};
      }
      return {"/retry/delivery", "/retry/requeue_with", "/broker/requeue_position"};
    case Cause::kDeadLettered:
      return DeadLetterPointers(e);
    case Cause::kExpired:
      return {"/broker/dlq_retention_s", "/broker/dlq_retention_from"};
    case Cause::kRetentionExpired:
      return {"/broker/retention_s"};
    case Cause::kFailed:
      return {"/broker/dead_letter_queue"};
    case Cause::kParkedByPolicy:
      return {ClassPointer(e.error)};
    case Cause::kBrokerLost:
      return BrokerLossPointers(e);
    default:
      return {};
  }
}

}  // namespace

std::vector<std::string> PointersActingOn(const LifeEvent& e) {
  switch (e.type) {
    case LifeEvent::Type::kTransition:
      return TransitionPointers(e);
    case LifeEvent::Type::kAttemptEnd:
      if (e.ack == model::AckFate::kIgnored) return {"/broker/stale_ack"};
      return {};
    default:
      return {};
  }
}

std::string RuleLines(const LifeEvent& e, const ExplainScene& scene, std::set<std::string>* named) {
  std::string out;
  if (scene.preset_rules.empty()) return out;
  for (const std::string& pointer : PointersActingOn(e)) {
    const auto rule = scene.preset_rules.find(pointer);
    if (rule == scene.preset_rules.end() || !named->insert(pointer).second) continue;
    // Under the time column: 12 characters of time, " s  ".
    out += std::string(16, ' ') + "rule " + pointer + " = " + rule->second + "\n";
  }
  return out;
}

}  // namespace drainsim::reports
