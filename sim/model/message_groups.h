// The main queue's ready messages when they carry message group IDs (broker.message_groups: SQS
// FIFO queues' MessageGroupId): each group's ready messages wait in their own line, in group
// order, and a group delivers nothing while one of its messages is in flight. Of the groups that
// may deliver, the one whose next message has waited in the queue longest goes first, so with
// every group free the queue is the plain FIFO.
//
// A message that comes back from a delivery (returned, timed out) goes to the front of its
// group's line and keeps the place it had; everything else (a publish, a replay, the end of a
// delay) joins the back. The lines are singly linked through the message slots, so a group costs
// 24 bytes whether or not it holds messages: a queue of a million groups stays small.
//
// Invariants:
//  (1) A message is in at most one line, and only while it is ready (the caller moves it).
//  (2) Within a line the places only grow from front to back (a front push takes a place no
//      later than the line's front), so a group's place in the queue is its front's place.
//  (3) A group may deliver iff its line is not empty and none of its messages is in flight;
//      every such group has an entry with its front's place in `free_`. Entries go stale when
//      the group delivers, blocks or gets a new front, and are skipped when they surface.
//
// Thread-safety: one run's state; not shared.
#pragma once

#include <cstdint>
#include <queue>
#include <utility>
#include <vector>

#include "sim/base/check.h"
#include "sim/model/message.h"

namespace drainsim::model {

class MessageGroups {
 public:
  // REQUIRES: 1 <= count <= kGroupsMax.
  explicit MessageGroups(int64_t count);

  static constexpr int64_t kGroupsMax = 1'000'000;

  // The group, of `count`, of the message published `id`-th: a hash of the publish number, so
  // groups interleave as a keyed stream's do, and no random stream is drawn from.
  static uint32_t GroupOf(uint64_t id, uint64_t count);
  uint32_t GroupOf(uint64_t id) const { return GroupOf(id, groups_.size()); }

  void PushBack(MessageRef ref, uint32_t group);
  // A message back from a delivery: the front of its line, in the place it was delivered from.
  void PushFront(MessageRef ref, uint32_t group);
  // True iff some group may deliver (invariant (3)).
  bool deliverable();
  // REQUIRES: deliverable(). The front of the group whose front has waited longest, taken off.
  MessageRef PopNext();
  // One of the group's messages went into flight, or left it: the group delivers again when none
  // is left.
  void AddInFlight(uint32_t group);
  void RemoveInFlight(uint32_t group);

  int64_t ready_count() const { return ready_count_; }
  // Calls visit(ref) for every ready message, group by group, each line front to back.
  template <typename Visit>
  void ForEachReady(Visit&& visit) const {
    for (const Group& g : groups_) {
      for (uint32_t slot = g.front; slot != kNone; slot = links_[slot].next) {
        visit(links_[slot].ref);
      }
    }
  }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  struct Group {
    uint32_t front = kNone;  // message slots
    uint32_t back = kNone;
    uint32_t in_flight = 0;
    uint64_t last_place = 0;  // the place of the last message it delivered
  };
  struct Link {
    MessageRef ref;
    uint32_t next = kNone;
    uint64_t place = 0;  // queue order: smaller goes first
  };
  using FreeEntry = std::pair<uint64_t, uint32_t>;  // (front's place, group)

  Link& LinkOf(MessageRef ref);
  // Adds the group's entry to free_ if it may deliver (invariant (3)).
  void NoteIfFree(uint32_t group);
  bool IsCurrent(const FreeEntry& entry) const;

  std::vector<Group> groups_;
  std::vector<Link> links_;  // by message slot
  std::priority_queue<FreeEntry, std::vector<FreeEntry>, std::greater<FreeEntry>> free_;
  uint64_t next_place_ = 1;
  int64_t ready_count_ = 0;
};

}  // namespace drainsim::model
