// MessageGroups' two operations only ordering keys use (group_kinds.h), kept apart from the
// rules every group kind shares (message_groups.cc).
#include "sim/model/group_kinds.h"

#include "sim/model/message_groups.h"

namespace drainsim::model {

void MessageGroups::PushInPlace(MessageRef ref, uint32_t group) {
  DRAINSIM_CHECK(ref.slot < links_.size());
  Group& g = groups_[group];
  Link& link = links_[ref.slot];
  // The slot's link still holds the place the message was delivered from (TakeFront does not
  // clear it): the message goes back between the places before and after it (invariant (2)).
  DRAINSIM_CHECK(link.ref.slot == ref.slot && link.ref.generation == ref.generation);
  const uint64_t place = link.place;
  if (g.front == kNone || place < links_[g.front].place) {
    link.next = g.front;
    g.front = ref.slot;
    if (g.back == kNone) g.back = ref.slot;
  } else {
    uint32_t before = g.front;
    while (links_[before].next != kNone && links_[links_[before].next].place <= place) {
      before = links_[before].next;
    }
    link.next = links_[before].next;
    links_[before].next = ref.slot;
    if (g.back == before) g.back = ref.slot;
  }
  ++ready_count_;
  if (g.front == ref.slot) NoteIfFree(group);
}

bool MessageGroups::PopFrontOf(uint32_t group, MessageRef* ref) {
  const Group& g = groups_[group];
  DRAINSIM_CHECK(g.in_flight > 0);
  if (g.front == kNone) return false;
  *ref = TakeFront(group);
  return true;
}

}  // namespace drainsim::model
