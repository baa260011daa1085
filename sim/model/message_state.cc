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
      // retention; failed for a human where the broker has no DLQ.
      return to == S::kInFlight || to == S::kDeadLettered || to == S::kRejected ||
             to == S::kExpired || to == S::kParked;
    case S::kDelayed:
      // The retry delay elapsed.
      return to == S::kReady;
    case S::kInFlight:
      // Acked; requeued (visibility timeout, crash, broker restart, nack); re-published with a
      // delay; dead-lettered (retries exhausted, permanent error); parked by the retry policy.
      return to == S::kAcked || to == S::kReady || to == S::kDelayed || to == S::kDeadLettered ||
             to == S::kParked;
    case S::kDeadLettered:
      // Replayed by a drain; parked by a drain's "others: park"; expired by DLQ retention.
      return to == S::kReady || to == S::kParked || to == S::kExpired;
    case S::kParked:
    case S::kAcked:
    case S::kExpired:
    case S::kRejected:
      return false;
  }
  return false;
}

}  // namespace drainsim::model
