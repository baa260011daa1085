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
// With owners (AssignOwners: broker.partitions, a Kafka topic's partitions) each group belongs
// to one consumer, and only that consumer delivers from it: each owner has its own heap of free
// groups (oldest front first), and an owner whose group becomes free is listed as woken, for the
// dispatcher to offer it work again.
//
// Invariants:
//  (1) A message is in at most one line, and only while it is ready (the caller moves it).
//  (2) Within a line the places only grow from front to back (a front push takes a place no
//      later than the line's front), so a group's place in the queue is its front's place.
//  (3) A group may deliver iff its line is not empty and none of its messages is in flight;
//      every such group has an entry with its front's place in `free_` (with owners: in its
//      owner's heap, and the owner was listed woken since). Entries go stale when the group
//      delivers, blocks or gets a new front, and are skipped when they surface.
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
  // REQUIRES: deliverable(); no owners. The front of the group whose front has waited longest,
  // taken off.
  MessageRef PopNext();

  // ---- owners (a topic's partitions) ---------------------------------------------------------
  // Gives each group to one of `consumers` owners, in contiguous ranges: owner i of C takes
  // count / C groups, one more if i < count % C, after those of owners 0..i-1 (Kafka's
  // RangeAssignor for one topic). REQUIRES: consumers >= 1; called once, before any push.
  void AssignOwners(uint32_t consumers);
  // A rebalance: the groups again in ranges, over the owners whose `member` is true (in index
  // order), as AssignOwners over that many. Every member is listed woken. A group with a
  // message in flight keeps it in flight: it delivers to its new owner once that one leaves.
  // REQUIRES: owned(); member.size() == the owners' count; at least one member.
  void Reassign(const std::vector<bool>& member);
  bool IsMember(uint32_t owner) const { return member_[owner]; }
  bool owned() const { return !owned_free_.empty(); }
  uint32_t OwnerOf(uint32_t group) const { return owner_[group]; }
  // The front of the owner's free group whose front has waited longest, taken off into `ref`;
  // false (nothing taken) if none of its groups may deliver. REQUIRES: owned().
  bool PopNextOf(uint32_t owner, MessageRef* ref);
  // A Kafka poll (broker.max_poll_records): up to `max` fronts of the owner's free groups taken
  // off, in the order PopNextOf would take them one by one if each group stayed free after its
  // front left (the oldest front first, each group's line in order), appended to `out`.
  // REQUIRES: owned(); max >= 1.
  void PopBatchOf(uint32_t owner, int64_t max, std::vector<MessageRef>* out);
  // Calls visit(owner) for every owner listed woken since the last call, then clears the list.
  template <typename Visit>
  void TakeWoken(Visit&& visit) {
    while (!woken_.empty()) {
      const uint32_t owner = woken_.back();
      woken_.pop_back();
      woken_listed_[owner] = false;
      visit(owner);
    }
  }
  // One of the group's messages went into flight, or left it: the group delivers again when none
  // is left.
  void AddInFlight(uint32_t group);
  void RemoveInFlight(uint32_t group);
  uint32_t in_flight(uint32_t group) const { return groups_[group].in_flight; }

  // ---- ordering keys (group_kinds.cc) ----------------------------------------------------------
  // A message back from a delivery, in the place it was delivered from (not the front): the
  // messages of its key delivered after it come back behind it. REQUIRES: it was delivered from
  // this line and its slot was not reused since.
  void PushInPlace(MessageRef ref, uint32_t group);
  // The front of `group`, taken off into `ref` for the worker that took the group's first
  // message (a key's batch); false if the line is empty. REQUIRES: in_flight(group) > 0.
  bool PopFrontOf(uint32_t group, MessageRef* ref);

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
  using FreeHeap = std::priority_queue<FreeEntry, std::vector<FreeEntry>, std::greater<FreeEntry>>;

  Link& LinkOf(MessageRef ref);
  // The group's front, taken off its line. REQUIRES: the group's line is not empty.
  MessageRef TakeFront(uint32_t group);
  // Adds the group's entry to free_ if it may deliver (invariant (3)).
  void NoteIfFree(uint32_t group);
  bool IsCurrent(const FreeEntry& entry) const;
  // Rebuilds `heap` from the groups that may deliver and pass `mine`, when stale entries
  // outnumber `groups_count`: memory follows the groups, not the run.
  template <typename Mine>
  void CompactIfStale(FreeHeap& heap, size_t groups_count, Mine&& mine);
  // Owners in ranges over `members` (owner indices, ascending), as AssignOwners describes.
  void AssignRanges(const std::vector<uint32_t>& members);

  std::vector<Group> groups_;
  std::vector<Link> links_;  // by message slot
  FreeHeap free_;
  // With owners: each group's owner, each owner's free groups and the owners woken.
  std::vector<uint32_t> owner_;
  std::vector<FreeHeap> owned_free_;
  std::vector<uint32_t> owned_count_;  // groups per owner
  std::vector<uint32_t> woken_;
  std::vector<bool> woken_listed_;
  std::vector<bool> member_;  // owners the last assignment counted
  uint64_t next_place_ = 1;
  int64_t ready_count_ = 0;
};

}  // namespace drainsim::model
