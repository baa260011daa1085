// What RunOptions::observer sees of the messages: the info structs of observer.h built from the
// records World hands over. Nothing here changes the run. World tests attached() before each
// call (one branch in the hot paths); the calls are out of line.
#pragma once

#include <cstdint>
#include <string_view>

#include "sim/config/enums.h"
#include "sim/engine/time.h"
#include "sim/model/message.h"
#include "sim/model/observer.h"
#include "sim/model/worker_pool.h"

namespace drainsim::model {

// Why a Transition happens, for the observer: the caller knows, the message record does not.
struct TransitionNote {
  TransitionCause cause = TransitionCause::kDelivered;
  int32_t worker = -1;                                  // kDelivered
  engine::Instant until = engine::Instant::Never();     // kRetryScheduled
  int32_t drain = -1;                                   // kReplayed, kParkedByDrain
  RedeliveryCause redelivery = RedeliveryCause::kNone;  // kVisibilityTimeout, kCrashRequeue
  BrokerLossCause loss = BrokerLossCause::kDlqFull;     // kBrokerLost
};

class MessageNotifier {
 public:
  // `observer`: RunOptions::observer, or null; the notifier is attached only if it wants the
  // per-message callbacks.
  explicit MessageNotifier(RunObserver* observer);

  bool attached() const { return observer_ != nullptr; }
  bool wants_keys() const { return wants_keys_; }

  // REQUIRES for all below: attached().
  void Publish(engine::Instant now, const Message& message, std::string_view key) const;
  void Transition(engine::Instant now, const Message& message, MessageState from,
                  const TransitionNote& note) const;
  void AttemptStart(engine::Instant now, uint32_t slot, const Attempt& attempt,
                    const Message& message) const;
  // Called after an ack has moved the message to acked, if it did.
  void AttemptEnd(engine::Instant now, uint32_t slot, const Attempt& attempt,
                  const Message& message, AttemptOutcome outcome, AckFate ack,
                  config::ErrorClass error, FailureCause failure) const;
  void Commit(engine::Instant now, uint32_t slot, const Attempt& attempt, const Message& message,
              bool duplicate, DuplicateCause cause, bool visible) const;
  // The database answered a statement of the attempt in `slot` after `latency`.
  void Statement(engine::Instant now, uint32_t slot, const Attempt& attempt, const Message& message,
                 engine::Duration latency, bool claim, FailureCause failure) const;
  void Sleep(engine::Instant now, uint32_t slot, const Attempt& attempt, const Message& message,
             engine::Instant until) const;
  void Released(engine::Instant now, const Message& message) const;

 private:
  RunObserver* const observer_;
  const bool wants_keys_;
};

}  // namespace drainsim::model
