// The run's idempotency keys (issue 15 step 3: a component of World): each message source's key
// pattern resolved once (keys.h), and the state of keys that several messages share (patterns
// without {id}, a DLQ's duplicate delivery). A message with a key of its own keeps its state in
// its record (Message::own_key); a shared key's state lives here, looked up by hash. World
// decides what claims and commits do; this only keeps and renders.
//
// Invariants:
//  (1) State(m) is the same object for every message with the same non-zero key_hash, and m's
//      own_key iff key_hash == 0.
//  (2) Shared states are looked up, never iterated: nothing in a result depends on the map's
//      order.
//
// Thread-safety: one run's state; not shared.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/config/config.h"
#include "sim/model/keys.h"
#include "sim/model/message.h"

namespace drainsim::model {

class IdempotencyKeys {
 public:
  // Templates for every producer and backlog entry of `scenario`.
  explicit IdempotencyKeys(const config::Scenario& scenario);

  // m's key as its source's key_pattern renders it.
  std::string Text(const Message& m) const {
    return (m.from_backlog ? backlog_ : producers_)[m.source_index].Render(m.id, m.published_at);
  }
  // The state of m's key: its own, or the one it shares (invariant (1)).
  KeyState& State(Message& m) { return m.key_hash == 0 ? m.own_key : shared_[m.key_hash]; }
  // From now on the messages whose key_hash is `hash` share `state` (a DLQ duplicate and its
  // original, whose key was their own until then).
  void Share(uint64_t hash, const KeyState& state) { shared_[hash] = state; }

 private:
  std::vector<KeyTemplate> producers_;  // by producer index
  std::vector<KeyTemplate> backlog_;    // by backlog entry index
  std::unordered_map<uint64_t, KeyState> shared_;
};

}  // namespace drainsim::model
