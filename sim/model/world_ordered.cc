// Google Pub/Sub ordering keys (broker.message_group_kind ordering_key; group_kinds.h): a key's
// messages go out in batches to one worker, a message back from a delivery goes back in its
// place, and the later messages of its key delivered with or after it are delivered again.
#include "sim/model/world.h"

namespace drainsim::model {

namespace {

// A message out of its key's line that still holds the key: delivered, or waiting out a
// redelivery delay (Pub/Sub's retry policy delays the key, not only the message).
bool HoldsKey(MessageState state) {
  return state == MessageState::kInFlight || state == MessageState::kDelayed;
}

}  // namespace

void World::NoteKeyTransition(const Message& message, MessageState from, MessageState to) {
  MessageGroups& keys = broker_.groups();
  const uint32_t key = keys.GroupOf(message.id);
  const bool key_was_idle = keys.in_flight(key) == 0;
  // In flight to delayed keeps holding; a backlog message that starts delayed never held.
  if (to == MessageState::kInFlight && ordering_keys_->Hold(message.id)) {
    keys.AddInFlight(key);
  } else if (!HoldsKey(to) && ordering_keys_->Release(message.id)) {
    keys.RemoveInFlight(key);
  }
  if (to == MessageState::kInFlight) {
    ordering_keys_->Delivered(message.id);
    // The hold (group_tallies.h) is the batch's first message's: the one the key waits for.
    if (key_was_idle) group_tallies_->Delivered(key, message.id, now_);
  } else if (from == MessageState::kInFlight &&
             (to == MessageState::kReady || to == MessageState::kDelayed)) {
    ordering_keys_->CameBack(message.id, key);
  } else if (to != MessageState::kReady && to != MessageState::kDelayed) {
    // Settled, dead-lettered, parked, expired or lost: its hold ends, and a replay of it is a
    // new message at its key's back (a dead-letter topic republishes).
    group_tallies_->LeftHead(key, message.id, now_);
    ordering_keys_->Forget(message.id);
  }
  if (to == MessageState::kAcked) group_tallies_->Acked(key, message.id);
  if (keys.in_flight(key) == 0) ordering_keys_->KeyIdle(key);
}

void World::HandOutKeyBatch(uint32_t w, MessageRef first, uint32_t key) {
  HandOut(w, first);
  if (!messages_.IsLive(first)) return;
  const Message& m = messages_.Get(first);
  // Refused at receive (expired, dead-lettered): the key is free for whoever asks next.
  if (m.state != MessageState::kInFlight || m.holder != static_cast<int32_t>(w)) return;
  // Pub/Sub's flow control: the subscriber takes as many of the key's messages as it has room
  // for, and its client library runs them one at a time, in order (workers.concurrency 1).
  MessageGroups& keys = broker_.groups();
  MessageRef next;
  while (pool_.CanTake(w) && retry_.breaker().AllowsDelivery() && keys.in_flight(key) > 0 &&
         keys.PopFrontOf(key, &next)) {
    HandOut(w, next);
  }
}

bool World::PushKeyInPlace(MessageRef ref, const Message& message) {
  if (!ordering_keys_->HasPlace(message.id)) return false;
  MessageGroups& keys = broker_.groups();
  keys.PushInPlace(ref, keys.GroupOf(message.id));
  return true;
}

bool World::RedeliveredForKey(MessageRef ref, Message& message) {
  const uint32_t key = broker_.groups().GroupOf(message.id);
  if (!ordering_keys_->RedeliverInsteadOfAck(message.id, key)) return false;
  // Its work committed: the next run is a duplicate execution, cause ordering_key.
  Requeue(ref, message, RedeliveryCause::kOrderingKey, TransitionCause::kReturned,
          ReadyFrom::kReturned);
  return true;
}

}  // namespace drainsim::model
