#include "sim/model/message_classes.h"

#include <algorithm>
#include <functional>
#include <utility>

#include "sim/base/check.h"

namespace drainsim::model {

std::string_view MessageClassName(MessageClass message_class) {
  switch (message_class) {
    case MessageClass::kDuplicates:
      return "duplicates";
    case MessageClass::kHuman:
      return "human";
    case MessageClass::kDlq:
      return "dlq";
    case MessageClass::kParked:
      return "parked";
    case MessageClass::kLost:
      return "lost";
  }
  return "";
}

std::optional<MessageClass> MessageClassFromName(std::string_view name) {
  for (const MessageClass c : kMessageClasses) {
    if (MessageClassName(c) == name) return c;
  }
  return std::nullopt;
}

bool ClassRecorder::Wants(MessageState state) const {
  switch (class_) {
    case MessageClass::kHuman:
      return state == MessageState::kDeadLettered || state == MessageState::kParked;
    case MessageClass::kDlq:
      return state == MessageState::kDeadLettered;
    case MessageClass::kParked:
      return state == MessageState::kParked;
    case MessageClass::kLost:
      return state == MessageState::kBrokerLost;
    case MessageClass::kDuplicates:
      break;
  }
  return false;
}

void ClassRecorder::EnterDlq(uint64_t id, config::DlqReason reason) {
  const bool added = dlq_.emplace(id, reason).second;
  DRAINSIM_CHECK(added);  // a message in the DLQ leaves it before it enters it again
}

void ClassRecorder::OnPublish(const PublishInfo& info) {
  if (info.state == MessageState::kDeadLettered && Wants(info.state)) {
    EnterDlq(info.message_id, info.dlq_reason);
  }
}

void ClassRecorder::OnTransition(const TransitionInfo& info) {
  if (info.from == MessageState::kDeadLettered && Wants(info.from)) {
    const size_t erased = dlq_.erase(info.message_id);
    DRAINSIM_CHECK(erased == 1);
  }
  if (!Wants(info.to)) return;
  if (info.to == MessageState::kDeadLettered) {
    EnterDlq(info.message_id, info.dlq_reason);
    return;
  }
  // Parked or lost: terminal, so it stays in the class to the end.
  ClassMember member;
  member.id = info.message_id;
  member.state = info.to;
  member.cause = info.cause;
  member.dlq_reason = info.dlq_reason;
  member.error = info.last_error;
  member.loss = info.loss;
  parked_.push_back(std::move(member));
}

void ClassRecorder::OnCommit(const CommitInfo& info) {
  if (class_ != MessageClass::kDuplicates || !info.duplicate) return;
  duplicates_[info.message_id].push_back(info.duplicate_cause);
}

std::vector<ClassMember> ClassRecorder::Finish() {
  std::vector<ClassMember> members = std::move(parked_);
  members.reserve(members.size() + dlq_.size() + duplicates_.size());
  for (const auto& [id, reason] : dlq_) {
    ClassMember member;
    member.id = id;
    member.dlq_reason = reason;
    members.push_back(std::move(member));
  }
  for (auto& [id, causes] : duplicates_) {
    ClassMember member;
    member.id = id;
    member.duplicates = std::move(causes);
    members.push_back(std::move(member));
  }
  std::sort(members.begin(), members.end(),
            [](const ClassMember& a, const ClassMember& b) { return a.id < b.id; });
  dlq_.clear();
  duplicates_.clear();
  return members;
}

KeyReader::KeyReader(std::vector<uint64_t> ids) : ids_(std::move(ids)), keys_(ids_.size()) {
  DRAINSIM_CHECK(std::adjacent_find(ids_.begin(), ids_.end(), std::greater_equal<>()) ==
                 ids_.end());
}

void KeyReader::OnPublish(const PublishInfo& info) {
  const auto it = std::lower_bound(ids_.begin(), ids_.end(), info.message_id);
  if (it == ids_.end() || *it != info.message_id) return;
  keys_[static_cast<size_t>(it - ids_.begin())] = std::string(info.key);
}

}  // namespace drainsim::model
