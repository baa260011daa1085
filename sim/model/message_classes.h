// Which messages make up a class report.json counts — duplicates, human needed, DLQ, parked,
// lost by the broker —
// for `drainsim explain --list`. Two RunObservers: a ClassRecorder notes the ids of the class
// as the run goes, and a KeyReader, on a second run of the same scenario and seed, reads the
// keys of just those ids (the first run cannot know at publish, when a key is rendered, which
// messages will end in the class, and keeping every key would cost memory per message).
//
// The classes are report.json's (docs/METRICS.md), counted under the same conditions:
//   duplicates  every duplicate execution (a commit for a key that had already committed,
//               World::Commit), under the message whose attempt committed: as many as
//               duplicate_executions, by cause as duplicates_by_cause.
//   dlq         the messages in the DLQ when the run ended: dlq_end, by reason as
//               human_needed_by_reason's dlq:<reason>.
//   parked      the parked messages (parked): by the retry policy (parked:<error>), a drain
//               (parked:drain), or failed on a broker without a DLQ (failed:<reason>).
//   human       dlq and parked together: human_needed, by human_needed_by_reason.
//   lost        the messages the broker (or its consumer) discarded by design: broker_lost, by
//               broker_lost_by_cause (a Kafka consumer's skipped records, a full DLQ's refusals).
//
// Contract:
//  (1) Bounded memory: a ClassRecorder holds the DLQ (its largest), the parked or lost messages
//      and the duplicate executions, as ids and a few bytes each, never a record per published
//      message; a KeyReader holds the keys of the ids it was given.
//  (2) Deterministic: members come out by id; a duplicate's causes in the order they happened.
//  (3) They only listen: see sim/model/observer.h (1).
//
// Thread-safety: one observer per run, used by the thread running it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sim/config/enums.h"
#include "sim/model/observer.h"

namespace drainsim::model {

enum class MessageClass : uint8_t { kDuplicates, kHuman, kDlq, kParked, kLost };
inline constexpr MessageClass kMessageClasses[] = {MessageClass::kDuplicates, MessageClass::kHuman,
                                                   MessageClass::kDlq, MessageClass::kParked,
                                                   MessageClass::kLost};

// "duplicates", "human", "dlq", "parked", "lost": the words `explain --list` takes.
std::string_view MessageClassName(MessageClass message_class);
// The class named `name`, or nullopt iff it names none.
std::optional<MessageClass> MessageClassFromName(std::string_view name);

// One message of a class, and why it is there.
struct ClassMember {
  uint64_t id = 0;
  // dlq, parked, human: where it ended (kDeadLettered or kParked) and how it got there:
  // kDeadLettered with dlq_reason; kParkedByPolicy with error; kParkedByDrain; kFailed with
  // dlq_reason (the reason it would have been dead-lettered for). lost: kBrokerLost with loss.
  MessageState state = MessageState::kDeadLettered;
  TransitionCause cause = TransitionCause::kDeadLettered;
  config::DlqReason dlq_reason = config::DlqReason::kMaxAttempts;
  config::ErrorClass error = config::ErrorClass::kUnknown;
  BrokerLossCause loss = BrokerLossCause::kDlqFull;  // lost
  std::vector<DuplicateCause> duplicates;  // duplicates: one per duplicate execution
  std::string key;                         // filled from a KeyReader
};

class ClassRecorder final : public RunObserver {
 public:
  explicit ClassRecorder(MessageClass message_class) : class_(message_class) {}

  void OnPublish(const PublishInfo& info) override;
  void OnTransition(const TransitionInfo& info) override;
  void OnCommit(const CommitInfo& info) override;

  // The class's members by id. REQUIRES: called once, after the run.
  std::vector<ClassMember> Finish();

 private:
  bool Wants(MessageState state) const;
  void EnterDlq(uint64_t id, config::DlqReason reason);

  const MessageClass class_;
  std::unordered_map<uint64_t, config::DlqReason> dlq_;  // in the DLQ now, by id
  std::vector<ClassMember> parked_;  // parked or lost: terminal, so members to the end
  std::map<uint64_t, std::vector<DuplicateCause>> duplicates_;
};

class KeyReader final : public RunObserver {
 public:
  // REQUIRES: `ids` sorted, without repeats.
  explicit KeyReader(std::vector<uint64_t> ids);

  bool WantsKeys() const override { return true; }
  void OnPublish(const PublishInfo& info) override;

  // The key of ids[i] as keys[i]; empty for an id the run never published.
  std::vector<std::string> Keys() && { return std::move(keys_); }

 private:
  const std::vector<uint64_t> ids_;
  std::vector<std::string> keys_;
};

}  // namespace drainsim::model
