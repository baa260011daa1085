#include "sim/model/message_state.h"

namespace drainsim::model {

std::string_view MessageStateName(MessageState state) {
  switch (state) {
    case MessageState::kReady:
      return "ready";
    case MessageState::kDelayed:
      return "delayed";
    case MessageState::kInFlight:
      return "in_flight";
    case MessageState::kDeadLettered:
      return "dead_lettered";
    case MessageState::kParked:
      return "parked";
    case MessageState::kAcked:
      return "acked";
    case MessageState::kExpired:
      return "expired";
    case MessageState::kRejected:
      return "rejected";
    case MessageState::kBrokerLost:
      return "broker_lost";
    case MessageState::kDeadLetterWaiting:
      return "dead_letter_waiting";
  }
  DRAINSIM_CHECK(false);
  return "";
}

std::string_view BrokerLossCauseName(BrokerLossCause cause) {
  switch (cause) {
    case BrokerLossCause::kDlqFull:
      return "dlq_full";
    case BrokerLossCause::kNoDeadLetterTarget:
      return "no_dead_letter_target";
    case BrokerLossCause::kCrash:
      return "crash";
    case BrokerLossCause::kWorkerLost:
      return "worker_lost";
    case BrokerLossCause::kSkipped:
      return "skipped";
    case BrokerLossCause::kArchived:
      return "archived";
    case BrokerLossCause::kCommittedUnprocessed:
      return "committed_unprocessed";
  }
  DRAINSIM_CHECK(false);
  return "";
}

bool IsLegalTransition(MessageState from, MessageState to) {
  using S = MessageState;
  switch (from) {
    case S::kReady:
      // Delivered; dead-lettered by the broker when a delivery would exceed its max receive
      // count (SQS moves the message instead of delivering it) or when a full queue drops its
      // head; refused at publish by a full queue (reject_publish); deleted by main-queue
      // retention; failed for a human where the broker has no DLQ. Those dead-letters may instead
      // be discarded (no dead-letter target, a full DLQ at most once) or wait for DLQ room.
      return to == S::kInFlight || to == S::kDeadLettered || to == S::kRejected ||
             to == S::kExpired || to == S::kParked || to == S::kBrokerLost ||
             to == S::kDeadLetterWaiting;
    case S::kDelayed:
      // The retry delay elapsed.
      return to == S::kReady;
    case S::kInFlight:
      // Acked; requeued (visibility timeout, crash, broker restart, nack); re-published with a
      // delay; dead-lettered (retries exhausted, permanent error); parked by the retry policy.
      // Lost with its consumer (requeue_on_crash lost or fail), or a dead-letter discarded or
      // waiting as from ready.
      return to == S::kAcked || to == S::kReady || to == S::kDelayed || to == S::kDeadLettered ||
             to == S::kParked || to == S::kBrokerLost || to == S::kDeadLetterWaiting;
    case S::kDeadLettered:
      // Replayed by a drain; parked by a drain's "others: park"; expired by DLQ retention.
      return to == S::kReady || to == S::kParked || to == S::kExpired;
    case S::kDeadLetterWaiting:
      // The DLQ had room at last.
      return to == S::kDeadLettered;
    case S::kParked:
    case S::kAcked:
    case S::kExpired:
    case S::kRejected:
    case S::kBrokerLost:
      return false;
  }
  return false;
}

}  // namespace drainsim::model
