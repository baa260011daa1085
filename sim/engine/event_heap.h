// The ordering core of EventQueue: a 4-ary min-heap of 16-byte (time, key) entries.
//
// EventHeap knows nothing about payloads. An entry is {time_us, key}; entries are ordered by
// time_us, then by key. EventQueue packs (push sequence << kSlotBits | pool slot) into the key,
// so that ordering by key is ordering by push sequence, and equal times leave in push order.
//
// Why this shape: a 4-ary heap is half as deep as a binary one, and the four children of a node
// are 64 contiguous bytes, which the allocation below places on one cache line. Sifting moves a
// hole instead of swapping, and Pop uses Floyd's "bottom-up" descent (walk the hole to a leaf
// along the smaller children, then sift the last entry up from there), because the entry that
// fills the hole came from the bottom and almost always belongs near the bottom again.
//
// Push and PopMin are inline: every event of a run passes through them, and a call per
// operation is measurable at small heap sizes.
//
// Invariants:
//  (1) Heap order: no entry is less than its parent (checked by CheckInvariants).
//  (2) size() <= kSizeMax.
//
// Thread-safety: none. A heap belongs to one run; callers synchronize if they share it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#include "sim/base/check.h"

namespace drainsim::engine {

struct HeapEntry {
  int64_t time_us;
  uint64_t key;
};
static_assert(sizeof(HeapEntry) == 16);

// Strict (time_us, key) order, written as one 128-bit unsigned comparison so the compiler can
// emit it without branches; the sign bit of time_us is flipped so that signed order survives.
inline bool HeapEntryLess(const HeapEntry& a, const HeapEntry& b) {
  using u128 = unsigned __int128;
  constexpr uint64_t kSignBit = uint64_t{1} << 63;
  const u128 ka = (u128{static_cast<uint64_t>(a.time_us) ^ kSignBit} << 64) | a.key;
  const u128 kb = (u128{static_cast<uint64_t>(b.time_us) ^ kSignBit} << 64) | b.key;
  return ka < kb;
}

namespace internal {
// Allocates on 64-byte boundaries so that each group of four sibling entries fills exactly one
// cache line (see EventHeap::kPad).
template <typename T>
struct CacheLineAllocator {
  using value_type = T;
  static constexpr std::align_val_t kAlign{64};
  CacheLineAllocator() = default;
  template <typename U>
  CacheLineAllocator(const CacheLineAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), kAlign)); }
  void deallocate(T* p, std::size_t) { ::operator delete(p, kAlign); }
  template <typename U>
  bool operator==(const CacheLineAllocator<U>&) const {
    return true;
  }
};
}  // namespace internal

class EventHeap {
 public:
  // A bound on pending entries (TigerBeetle: a limit on everything). EventQueue keeps the same
  // bound, because a slot index must fit in kSlotBits.
  static constexpr std::size_t kSizeMax = std::size_t{1} << 24;

  EventHeap();

  bool empty() const { return entries_.size() == kPad; }
  std::size_t size() const { return entries_.size() - kPad; }

  // REQUIRES: !empty()
  const HeapEntry& Min() const {
    DRAINSIM_CHECK(!empty());
    return entries_[kPad];
  }

  // REQUIRES: size() < kSizeMax
  void Push(HeapEntry entry);

  // Removes and returns the least entry.
  // REQUIRES: !empty()
  HeapEntry PopMin();

  // REQUIRES: n <= kSizeMax
  void Reserve(std::size_t n);
  void Clear();

  // Calls f(entry) for every entry, in storage order (not sorted).
  template <typename F>
  void ForEach(F&& f) const {
    for (std::size_t p = kPad; p < entries_.size(); ++p) f(entries_[p]);
  }

  // Checks invariant (1) for every entry, O(size()). For tests and expensive-check builds.
  void CheckInvariants() const;

 private:
  // Heap index i lives at entries_[kPad + i]; the root is heap index 0, the children of heap
  // index i are 4i+1 .. 4i+4. With three padding entries in front, those children sit at
  // entries_[4(i+1) .. 4(i+1)+3]: a 64-byte-aligned group.
  static constexpr std::size_t kPad = 3;
  static constexpr std::size_t kArity = 4;
  // Positions are indices into entries_ (heap index + kPad). The children of position p start
  // at 4p - 8; the parent of position q (q > kPad) is q / 4 + 2. Both follow from heap index
  // i = p - 3 having children 4i+1 .. 4i+4 and parent (i - 1) / 4.
  static std::size_t FirstChild(std::size_t position) { return 4 * position - 8; }
  static std::size_t Parent(std::size_t position) { return position / 4 + 2; }

  std::vector<HeapEntry, internal::CacheLineAllocator<HeapEntry>> entries_;
};

inline void EventHeap::Push(HeapEntry entry) {
  DRAINSIM_CHECK(size() < kSizeMax);
  entries_.push_back(entry);
  HeapEntry* e = entries_.data();
  std::size_t hole = entries_.size() - 1;
  // An entry equal in time to its parent stays below it: its key (push sequence) is larger, so
  // "not less" stops the climb and ties keep push order.
  while (hole > kPad) {
    const std::size_t parent = Parent(hole);
    if (!HeapEntryLess(entry, e[parent])) break;
    e[hole] = e[parent];
    hole = parent;
  }
  e[hole] = entry;
}

inline HeapEntry EventHeap::PopMin() {
  DRAINSIM_CHECK(!empty());
  HeapEntry* e = entries_.data();
  const HeapEntry min = e[kPad];
  const HeapEntry last = entries_.back();
  entries_.pop_back();
  const std::size_t end = entries_.size();
  if (end == kPad) return min;

  // Floyd's descent: move the hole from the root to a leaf, each step pulling up the least
  // child, without comparing against `last` on the way down.
  std::size_t hole = kPad;
  for (;;) {
    const std::size_t c = FirstChild(hole);
    if (c + kArity <= end) {
      // Start loading the sixteen grandchildren (four cache lines) now, one level ahead of
      // need: the descent is a chain of dependent loads, and in a heap larger than the cache
      // each level would otherwise wait a full memory latency. On a 1M-event heap this halves
      // the time of a Pop (tools/bench/RESULTS.md).
      const std::size_t g = FirstChild(c);
      if (g < end) {
        const char* line = reinterpret_cast<const char*>(e + g);
        __builtin_prefetch(line);
        __builtin_prefetch(line + 64);
        __builtin_prefetch(line + 128);
        __builtin_prefetch(line + 192);
      }
      // All four children exist (the common case): a tournament of three comparisons, written
      // as index arithmetic and a mask. Which child wins is a coin flip, so a branch would be
      // mispredicted half the time; g++ 12 turns a plain `?:` here into such a branch.
      const std::size_t m01 = c + static_cast<std::size_t>(HeapEntryLess(e[c + 1], e[c]));
      const std::size_t m23 = c + 2 + static_cast<std::size_t>(HeapEntryLess(e[c + 3], e[c + 2]));
      const std::size_t take23 =
          std::size_t{0} - static_cast<std::size_t>(HeapEntryLess(e[m23], e[m01]));
      const std::size_t m = m01 ^ ((m01 ^ m23) & take23);
      e[hole] = e[m];
      hole = m;
      continue;
    }
    if (c < end) {
      // The last, partial group of children: its members have no children themselves.
      std::size_t m = c;
      for (std::size_t k = c + 1; k < end; ++k) {
        if (HeapEntryLess(e[k], e[m])) m = k;
      }
      e[hole] = e[m];
      hole = m;
    }
    break;
  }

  // The hole is at a leaf; `last` climbs from there to its place.
  while (hole > kPad) {
    const std::size_t parent = Parent(hole);
    if (!HeapEntryLess(last, e[parent])) break;
    e[hole] = e[parent];
    hole = parent;
  }
  e[hole] = last;
  return min;
}

}  // namespace drainsim::engine
