#include "sim/model/message_groups.h"

#include <algorithm>

namespace drainsim::model {

MessageGroups::MessageGroups(int64_t count) {
  DRAINSIM_CHECK(count >= 1 && count <= kGroupsMax);
  groups_.resize(static_cast<size_t>(count));
}

uint32_t MessageGroups::GroupOf(uint64_t id, uint64_t count) {
  // SplitMix64's finaliser: neighbouring ids land in unrelated groups.
  uint64_t z = id + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<uint32_t>(z % count);
}

MessageGroups::Link& MessageGroups::LinkOf(MessageRef ref) {
  if (ref.slot >= links_.size()) links_.resize(std::max<size_t>(ref.slot + 1, links_.size() * 2));
  return links_[ref.slot];
}

void MessageGroups::PushBack(MessageRef ref, uint32_t group) {
  Group& g = groups_[group];
  Link& link = LinkOf(ref);
  link = Link{ref, kNone, next_place_++};
  if (g.back == kNone) {
    g.front = ref.slot;
  } else {
    links_[g.back].next = ref.slot;
  }
  g.back = ref.slot;
  ++ready_count_;
  if (g.front == ref.slot) NoteIfFree(group);
}

void MessageGroups::PushFront(MessageRef ref, uint32_t group) {
  Group& g = groups_[group];
  Link& link = LinkOf(ref);
  // Invariant (2): never behind the line's front (a message delivered, then overtaken by a
  // replay of an older one, keeps the order of the line).
  const uint64_t place = g.front == kNone ? g.last_place
                                          : std::min(g.last_place, links_[g.front].place);
  link = Link{ref, g.front, place};
  g.front = ref.slot;
  if (g.back == kNone) g.back = ref.slot;
  ++ready_count_;
  NoteIfFree(group);
}

bool MessageGroups::IsCurrent(const FreeEntry& entry) const {
  const Group& g = groups_[entry.second];
  return g.in_flight == 0 && g.front != kNone && links_[g.front].place == entry.first;
}

bool MessageGroups::deliverable() {
  while (!free_.empty() && !IsCurrent(free_.top())) free_.pop();
  return !free_.empty();
}

MessageRef MessageGroups::PopNext() {
  DRAINSIM_CHECK(!owned() && deliverable());
  const uint32_t group = free_.top().second;
  free_.pop();
  return TakeFront(group);
}

MessageRef MessageGroups::TakeFront(uint32_t group) {
  Group& g = groups_[group];
  const Link& link = links_[g.front];
  g.last_place = link.place;
  g.front = link.next;
  if (g.front == kNone) g.back = kNone;
  --ready_count_;
  NoteIfFree(group);  // the next one, if the popped one is not delivered (expired, dead-lettered)
  return link.ref;
}

void MessageGroups::AssignOwners(uint32_t consumers) {
  DRAINSIM_CHECK(consumers >= 1 && owner_.empty() && ready_count_ == 0);
  owner_.resize(groups_.size());
  owned_free_.resize(consumers);
  woken_listed_.assign(consumers, false);
  member_.assign(consumers, true);
  std::vector<uint32_t> members(consumers);
  for (uint32_t owner = 0; owner < consumers; ++owner) members[owner] = owner;
  AssignRanges(members);
}

void MessageGroups::AssignRanges(const std::vector<uint32_t>& members) {
  const auto count = static_cast<uint32_t>(groups_.size());
  const auto n = static_cast<uint32_t>(members.size());
  const uint32_t each = count / n;
  const uint32_t extra = count % n;
  owned_count_.assign(owned_free_.size(), 0);
  uint32_t group = 0;
  for (uint32_t i = 0; i < n && group < count; ++i) {
    const uint32_t take = each + (i < extra ? 1 : 0);
    for (uint32_t k = 0; k < take; ++k) owner_[group++] = members[i];
    owned_count_[members[i]] = take;
  }
}

void MessageGroups::Reassign(const std::vector<bool>& member) {
  DRAINSIM_CHECK(owned() && member.size() == owned_free_.size());
  std::vector<uint32_t> members;
  for (uint32_t owner = 0; owner < member.size(); ++owner) {
    if (member[owner]) members.push_back(owner);
  }
  DRAINSIM_CHECK(!members.empty());
  member_ = member;
  AssignRanges(members);
  for (FreeHeap& heap : owned_free_) heap = FreeHeap();
  for (uint32_t group = 0; group < groups_.size(); ++group) NoteIfFree(group);
  for (const uint32_t owner : members) {
    if (!woken_listed_[owner]) {
      woken_listed_[owner] = true;
      woken_.push_back(owner);
    }
  }
}

bool MessageGroups::PopNextOf(uint32_t owner, MessageRef* ref) {
  DRAINSIM_CHECK(owned());
  FreeHeap& heap = owned_free_[owner];
  while (!heap.empty() && !IsCurrent(heap.top())) heap.pop();
  if (heap.empty()) return false;
  const uint32_t group = heap.top().second;
  heap.pop();
  *ref = TakeFront(group);
  return true;
}

void MessageGroups::PopBatchOf(uint32_t owner, int64_t max, std::vector<MessageRef>* out) {
  DRAINSIM_CHECK(owned() && max >= 1);
  // The owner's free groups leave its heap for a merge of their lines by place; a group whose
  // front is taken offers its next one. TakeFront lists the groups it leaves free again.
  FreeHeap& heap = owned_free_[owner];
  FreeHeap merge;
  while (!heap.empty()) {
    if (IsCurrent(heap.top())) merge.push(heap.top());
    heap.pop();
  }
  int64_t taken = 0;
  while (taken < max && !merge.empty()) {
    const auto [place, group] = merge.top();
    merge.pop();
    const Group& g = groups_[group];
    if (g.front == kNone || links_[g.front].place != place) continue;  // a duplicate entry
    out->push_back(TakeFront(group));
    ++taken;
    if (g.front != kNone) merge.emplace(links_[g.front].place, group);
  }
  // Groups the poll did not reach stay free (invariant (3)).
  while (!merge.empty()) {
    if (IsCurrent(merge.top())) heap.push(merge.top());
    merge.pop();
  }
}

void MessageGroups::AddInFlight(uint32_t group) { ++groups_[group].in_flight; }

void MessageGroups::RemoveInFlight(uint32_t group) {
  Group& g = groups_[group];
  DRAINSIM_CHECK(g.in_flight > 0);
  if (--g.in_flight == 0) NoteIfFree(group);
}

void MessageGroups::NoteIfFree(uint32_t group) {
  const Group& g = groups_[group];
  if (g.in_flight != 0 || g.front == kNone) return;
  if (owned()) {
    const uint32_t owner = owner_[group];
    owned_free_[owner].emplace(links_[g.front].place, group);
    CompactIfStale(owned_free_[owner], owned_count_[owner],
                   [&](uint32_t i) { return owner_[i] == owner; });
    if (!woken_listed_[owner]) {
      woken_listed_[owner] = true;
      woken_.push_back(owner);
    }
    return;
  }
  free_.emplace(links_[g.front].place, group);
  CompactIfStale(free_, groups_.size(), [](uint32_t) { return true; });
}

// Stale entries are dropped when they surface; a heap is rebuilt when they outnumber its groups.
template <typename Mine>
void MessageGroups::CompactIfStale(FreeHeap& heap, size_t groups_count, Mine&& mine) {
  if (heap.size() <= 2 * groups_count + 4096) return;
  FreeHeap rebuilt;
  for (uint32_t i = 0; i < groups_.size(); ++i) {
    const Group& each = groups_[i];
    if (mine(i) && each.in_flight == 0 && each.front != kNone) {
      rebuilt.emplace(links_[each.front].place, i);
    }
  }
  heap = std::move(rebuilt);
}

}  // namespace drainsim::model
