#include "sim/engine/event_heap.h"

namespace drainsim::engine {

EventHeap::EventHeap() : entries_(kPad, HeapEntry{0, 0}) {}

void EventHeap::Reserve(std::size_t n) {
  DRAINSIM_CHECK(n <= kSizeMax);
  entries_.reserve(n + kPad);
}

void EventHeap::Clear() { entries_.resize(kPad); }

void EventHeap::CheckInvariants() const {
  DRAINSIM_CHECK(entries_.size() >= kPad);
  DRAINSIM_CHECK(size() <= kSizeMax);
  for (std::size_t q = kPad + 1; q < entries_.size(); ++q) {
    DRAINSIM_CHECK(!HeapEntryLess(entries_[q], entries_[Parent(q)]));
  }
}

}  // namespace drainsim::engine
