// What broker.message_group_kind adds to the message groups of message_groups.h (docs/PRESETS.md,
// `message_group_kind`).
//
//  - fifo_group (SQS FIFO) and session (Azure Service Bus sessions) share message_groups.h's
//    rules: one message of a group in flight at a time, a returned one back at its group's front.
//    A session differs only by the broker's retries the azure-service-bus preset supplies.
//  - ordering_key (Google Pub/Sub ordering keys): OrderingKeys below. A key free to deliver goes
//    to one worker with as many of its ready messages as the worker has room for (a batch); a
//    message of the key nacked or past its ack deadline comes back in the place it had, and
//    every message of the key delivered after it while the key was out is delivered again, even
//    if its run succeeded ("Redelivery of a message triggers redelivery of all subsequent
//    messages for that key, even acknowledged ones": cloud.google.com/pubsub/docs/ordering).
//
// Invariants (ordering_key):
//  (1) Every delivery of a message gets a sequence number larger than all earlier ones.
//  (2) A key's threshold is the smallest sequence number of a delivery of the key that came back
//      since the key last had nothing out (in flight or delayed); "never" when none did. A
//      message whose delivery's number is above its key's threshold is delivered again instead
//      of acked.
//  (3) A message has an entry iff it was delivered and has not been dead-lettered or settled
//      since: such a message goes back in its place, not at its key's back.
//  (4) A message holds its key iff it went in flight and has not left flight and delay since;
//      a key's in-flight count (MessageGroups) is its number of holders. A message of the
//      backlog that starts delayed holds nothing.
//
// Thread-safety: one run's state; not shared.
#pragma once

#include <cstdint>
#include <limits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "sim/base/check.h"

namespace drainsim::model {

class OrderingKeys {
 public:
  // REQUIRES: keys >= 1.
  explicit OrderingKeys(int64_t keys) : threshold_(static_cast<size_t>(keys), kNever) {
    DRAINSIM_CHECK(keys >= 1);
  }

  // Message `id` was delivered (invariant (1)).
  void Delivered(uint64_t id) { sequence_[id] = ++last_sequence_; }
  // Message `id` of `key` came back from a delivery (nack, ack deadline): invariant (2).
  // REQUIRES: it was delivered.
  void CameBack(uint64_t id, uint32_t key) {
    const auto it = sequence_.find(id);
    DRAINSIM_CHECK(it != sequence_.end());
    if (it->second < threshold_[key]) threshold_[key] = it->second;
  }
  // True iff message `id` of `key`, whose run just succeeded, is to be delivered again instead
  // of acked (invariant (2)).
  bool RedeliverInsteadOfAck(uint64_t id, uint32_t key) const {
    const auto it = sequence_.find(id);
    return it != sequence_.end() && it->second > threshold_[key];
  }
  // The key has nothing out any more: later deliveries start afresh.
  void KeyIdle(uint32_t key) { threshold_[key] = kNever; }
  // Invariant (3).
  bool HasPlace(uint64_t id) const { return sequence_.contains(id); }
  void Forget(uint64_t id) { sequence_.erase(id); }
  // Invariant (4): Hold and Release return true iff the message's holding changed.
  bool Hold(uint64_t id) { return holders_.insert(id).second; }
  bool Release(uint64_t id) { return holders_.erase(id) == 1; }

 private:
  static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
  std::unordered_map<uint64_t, uint64_t> sequence_;  // by message id: its latest delivery's
  std::vector<uint64_t> threshold_;                  // by key
  std::unordered_set<uint64_t> holders_;             // message ids, invariant (4)
  uint64_t last_sequence_ = 0;
};

}  // namespace drainsim::model
