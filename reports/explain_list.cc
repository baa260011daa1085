#include "reports/explain_list.h"

#include "reports/metrics.h"
#include "sim/config/enum_names.h"

namespace drainsim::reports {

namespace {

std::string Count(size_t count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

std::string Header(model::MessageClass message_class,
                   const std::vector<model::ClassMember>& members) {
  using model::MessageClass;
  switch (message_class) {
    case MessageClass::kDuplicates: {
      size_t executions = 0;
      for (const model::ClassMember& m : members) executions += m.duplicates.size();
      return Count(executions, "duplicate execution", "duplicate executions") +
             " (duplicate_executions) in " + Count(members.size(), "message", "messages");
    }
    case MessageClass::kHuman: {
      size_t in_dlq = 0;
      for (const model::ClassMember& m : members) {
        if (m.state == model::MessageState::kDeadLettered) ++in_dlq;
      }
      return Count(members.size(), "message needs", "messages need") +
             " a human (human_needed): " + std::to_string(in_dlq) + " in the DLQ, " +
             std::to_string(members.size() - in_dlq) + " parked";
    }
    case MessageClass::kDlq:
      return Count(members.size(), "message", "messages") + " in the DLQ at the end (dlq_end)";
    case MessageClass::kParked:
      return Count(members.size(), "message", "messages") + " parked (parked)";
    case MessageClass::kLost:
      return Count(members.size(), "message", "messages") +
             " discarded by the broker or its consumer by design (broker_lost)";
  }
  return "";
}

std::string Why(model::MessageClass message_class, const model::ClassMember& member) {
  if (message_class == model::MessageClass::kLost) {
    return "broker_lost:" + std::string(model::BrokerLossCauseName(member.loss));
  }
  if (message_class != model::MessageClass::kDuplicates) return HumanNeededReason(member);
  std::string causes;
  for (const model::DuplicateCause cause : member.duplicates) {
    if (!causes.empty()) causes += ',';
    causes += model::DuplicateCauseName(cause);
  }
  return causes;
}

}  // namespace

std::string HumanNeededReason(const model::ClassMember& member) {
  if (member.state == model::MessageState::kDeadLettered) {
    return "dlq:" + std::string(config::NameOf(member.dlq_reason));
  }
  switch (member.cause) {
    case model::TransitionCause::kParkedByDrain:
      return "parked:drain";
    case model::TransitionCause::kFailed:
      return "failed:" + std::string(config::NameOf(member.dlq_reason));
    default:
      return "parked:" + std::string(config::NameOf(member.error));
  }
}

std::string ExplainList(model::MessageClass message_class,
                        const std::vector<model::ClassMember>& members, const ListedRun& run) {
  std::string out = Header(message_class, members) + ": scenario " + run.scenario + ", seed " +
                    std::to_string(run.seed) + ", fingerprint " + Hex16(run.fingerprint) + "\n";
  for (const model::ClassMember& m : members) {
    out += std::to_string(m.id) + '\t' + (m.key.empty() ? "-" : m.key) + '\t' +
           Why(message_class, m) + '\n';
  }
  return out;
}

}  // namespace drainsim::reports
