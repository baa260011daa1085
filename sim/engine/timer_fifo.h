// Many timers of one fixed duration behind a single pending event.
//
// Timers set for the same duration D at non-decreasing times expire in the order they were
// set, so they need no heap: a FIFO holds them and one event stands for the earliest. Most
// such timers are cancelled before they fire (a visibility timeout whose delivery was acked,
// a statement timeout whose query finished); cancelling is lazy — the owner's `is_stale`
// predicate says whether a timer still matters — so a cancelled timer costs a push and a pop
// and no event at all. With a heap of one event per timer, the run's event queue would carry
// every such timer for its whole duration.
//
// Protocol (the owner schedules the events; this class only says when):
//   if (fifo.Add(timer)) schedule a wake-up at timer.at;
//   on that wake-up:  fifo.BeginWake();
//                     while (auto t = fifo.PopDue(now, is_stale)) handle(*t);   // or just one
//                     if (auto at = fifo.EndWake(is_stale)) schedule a wake-up at *at;
// Timers added while a wake-up is being handled (handling may set new ones) never schedule
// their own event: EndWake covers them.
//
// Invariants: (1) at most one wake-up is pending; (2) while any live timer exists, a wake-up
// is pending at or before the earliest live timer's instant.
//
// Thread-safety: none.
#pragma once

#include <deque>
#include <optional>

#include "sim/base/check.h"
#include "sim/engine/time.h"

namespace drainsim::engine {

// Entry must have a member `Instant at`.
template <typename Entry>
class TimerFifo {
 public:
  // Returns true when the caller must schedule a wake-up at entry.at.
  // REQUIRES: entry.at is not before the latest timer added.
  bool Add(const Entry& entry) {
    DRAINSIM_CHECK(timers_.empty() || timers_.back().at <= entry.at);
    timers_.push_back(entry);
    if (armed_) return false;
    armed_ = true;
    return true;
  }

  // The pending wake-up fired. Until EndWake, Add schedules nothing.
  void BeginWake() { DRAINSIM_DCHECK(armed_); }

  // Drops stale timers at the front; removes and returns the first live one if it is due.
  template <typename IsStale>
  std::optional<Entry> PopDue(Instant now, IsStale&& is_stale) {
    DropStale(is_stale);
    if (timers_.empty() || timers_.front().at > now) return std::nullopt;
    Entry due = timers_.front();
    timers_.pop_front();
    return due;
  }

  // Ends a wake-up: the instant of the next one to schedule, if any live timer is left.
  template <typename IsStale>
  std::optional<Instant> EndWake(IsStale&& is_stale) {
    DropStale(is_stale);
    if (timers_.empty()) {
      armed_ = false;
      return std::nullopt;
    }
    return timers_.front().at;  // stays armed
  }

  // Long timers (a visibility timeout of a day) would keep every cancelled timer of that
  // day queued behind a live one at the front. When at most `live` timers can be live and
  // more than twice that (plus some slack) are queued, drop the stale ones everywhere: each
  // compaction removes at least half of the queue, so its cost is O(1) per Add amortized and
  // the queue stays O(live). Order and the armed wake-up are unaffected (the front stays or is
  // stale, and a wake-up for a stale front is harmless).
  template <typename IsStale>
  void CompactIfSparse(size_t live, IsStale&& is_stale) {
    if (timers_.size() <= 2 * live + kCompactionSlack) return;
    std::erase_if(timers_, is_stale);
  }

  size_t size() const { return timers_.size(); }  // live and stale

 private:
  template <typename IsStale>
  void DropStale(IsStale& is_stale) {
    while (!timers_.empty() && is_stale(timers_.front())) timers_.pop_front();
  }

  static constexpr size_t kCompactionSlack = 4096;

  std::deque<Entry> timers_;
  bool armed_ = false;
};

}  // namespace drainsim::engine
