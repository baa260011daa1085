#include "sim/model/database.h"

#include <algorithm>
#include <cmath>

#include "sim/base/check.h"

namespace drainsim::model {

namespace {
// kDbServiceEnd's b: the query's generation, and under processor sharing the epoch of the
// schedule that predicted the end (0 without cores).
uint64_t Pack(uint32_t generation, uint32_t epoch = 0) {
  return (static_cast<uint64_t>(epoch) << 32) | generation;
}
}  // namespace

Database::Database(Scheduler& scheduler, int64_t connections, Duration timeout,
                   double overload_factor, std::optional<double> cores)
    : scheduler_(scheduler),
      capacity_(connections),
      timeout_(timeout),
      overload_factor_(overload_factor),
      cores_(cores),
      shared_at_(scheduler.Now()),
      accounted_until_(scheduler.Now()) {
  DRAINSIM_CHECK(connections >= 1);
  DRAINSIM_CHECK(timeout > Duration::Zero());
  DRAINSIM_CHECK(overload_factor >= 0);
  DRAINSIM_CHECK(!cores || *cores > 0);
}

uint32_t Database::NewQuery() {
  if (!free_.empty()) {
    const uint32_t slot = free_.back();
    free_.pop_back();
    return slot;
  }
  queries_.emplace_back();
  return static_cast<uint32_t>(queries_.size() - 1);
}

void Database::FreeQuery(uint32_t slot) {
  Query& q = queries_[slot];
  q.queued = false;
  q.running = false;
  ++q.generation;
  free_.push_back(slot);
}

void Database::Account() {
  const Instant now = scheduler_.Now();
  const double elapsed_us = static_cast<double>((now - accounted_until_).micros());
  busy_us_ += elapsed_us * static_cast<double>(busy_);
  capacity_us_ += elapsed_us * static_cast<double>(capacity_);
  accounted_until_ = now;
}

double Database::busy_connection_seconds() const {
  const double pending_us = static_cast<double>((scheduler_.Now() - accounted_until_).micros());
  return (busy_us_ + pending_us * static_cast<double>(busy_)) / 1e6;
}

double Database::capacity_connection_seconds() const {
  const double pending_us = static_cast<double>((scheduler_.Now() - accounted_until_).micros());
  return (capacity_us_ + pending_us * static_cast<double>(capacity_)) / 1e6;
}

void Database::Submit(uint64_t owner, Duration service_base) {
  DRAINSIM_CHECK(service_base >= Duration::Zero());
  const Instant now = scheduler_.Now();
  const uint32_t slot = NewQuery();
  Query& q = queries_[slot];
  q.owner = owner;
  q.service_base = service_base;
  q.submitted_at = now;
  if (outage_) {
    // Connection refused: the caller hears at once. Delivered as an event so that callers see
    // completions only from HandleEvent, never re-entrantly from Submit.
    ++refusals_;
    scheduler_.At(now, Event{EventType::kDbServiceEnd, slot, Pack(q.generation)});
    return;
  }
  q.queued = true;
  queue_.push_back(Waiting{slot, q.generation});
  ++waiting_;
  if (deadlines_.Add(Deadline{now + timeout_, slot, q.generation})) {
    scheduler_.At(now + timeout_, Event{EventType::kDbDeadline});
  }
  deadlines_.CompactIfSparse(static_cast<size_t>(busy_ + waiting_), [this](const Deadline& d) {
    return queries_[d.slot].generation != d.generation;
  });
  if (StartWaiting() && cores_) RescheduleShared();
}

bool Database::StartWaiting() {
  if (queue_.empty() || busy_ >= capacity_) return false;  // busy_ stays as it is
  Account();
  if (cores_) AdvanceShared();
  const Instant now = scheduler_.Now();
  bool started = false;
  while (busy_ < capacity_ && !queue_.empty()) {
    const Waiting next = queue_.front();
    queue_.pop_front();
    const uint32_t slot = next.slot;
    Query& q = queries_[slot];
    if (q.generation != next.generation || !q.queued) continue;  // left at its deadline
    // A query whose deadline is now gets no connection: its deadline event (same instant)
    // reports the timeout while it is still counted as waiting.
    if (q.submitted_at + timeout_ <= now) continue;
    q.queued = false;
    q.running = true;
    --waiting_;
    ++busy_;
    started = true;
    const double load =
        1.0 + overload_factor_ * static_cast<double>(waiting_) / static_cast<double>(capacity_);
    ScheduleEnd(slot, std::nearbyint(static_cast<double>(q.service_base.micros()) * slowdown_ *
                                     load));
  }
  return started;
}

void Database::ScheduleEnd(uint32_t slot, double work_us) {
  const Query& q = queries_[slot];
  if (cores_) {
    shared_tags_.push(SharedTag{shared_us_ + work_us, shared_starts_++, slot, q.generation});
    return;  // RescheduleShared, once every query of this instant has started
  }
  const Instant now = scheduler_.Now();
  const Instant deadline = q.submitted_at + timeout_;
  // Cap at the deadline before converting: a degraded service time may exceed int64 µs.
  const double until_deadline_us = static_cast<double>((deadline - now).micros());
  if (work_us < until_deadline_us) {
    scheduler_.At(now + Duration::Micros(static_cast<int64_t>(work_us)),
                  Event{EventType::kDbServiceEnd, slot, Pack(q.generation)});
  }
  // Otherwise the deadline event, already scheduled, ends the query and frees the connection.
}

void Database::AdvanceShared() {
  const Instant now = scheduler_.Now();
  if (busy_ > 0) {
    const double rate = std::min(1.0, *cores_ / static_cast<double>(busy_));
    shared_us_ += static_cast<double>((now - shared_at_).micros()) * rate;
  }
  shared_at_ = now;
}

void Database::RescheduleShared() {
  ++shared_epoch_;  // whatever end event is pending now stands for an outdated prediction
  while (!shared_tags_.empty()) {
    const SharedTag& t = shared_tags_.top();
    const Query& q = queries_[t.slot];
    if (q.generation == t.generation && q.running) break;
    shared_tags_.pop();  // it timed out while running
  }
  if (shared_tags_.empty()) return;
  const SharedTag& least = shared_tags_.top();
  const Query& q = queries_[least.slot];
  const Instant now = scheduler_.Now();
  const double rate = std::min(1.0, *cores_ / static_cast<double>(busy_));
  // Rounded up, so that shared_us_ has reached the tag when the event comes.
  const double end_in_us = std::ceil(std::max(0.0, least.finish_us - shared_us_) / rate);
  const double until_deadline_us = static_cast<double>((q.submitted_at + timeout_ - now).micros());
  if (end_in_us >= until_deadline_us) return;  // its deadline comes first and ends it
  scheduler_.At(now + Duration::Micros(static_cast<int64_t>(end_in_us)),
                Event{EventType::kDbServiceEnd, least.slot, Pack(least.generation, shared_epoch_)});
}

std::optional<uint32_t> Database::DeadlineWake() {
  const auto stale = [this](const Deadline& d) { return queries_[d.slot].generation != d.generation; };
  deadlines_.BeginWake();
  // One timeout per event, so that each completion comes from an event of its own; a second
  // query due at the same instant gets the next wake-up, at this same instant.
  const std::optional<Deadline> due = deadlines_.PopDue(scheduler_.Now(), stale);
  if (const auto next = deadlines_.EndWake(stale)) {
    scheduler_.At(*next, Event{EventType::kDbDeadline});
  }
  if (!due) return std::nullopt;
  return due->slot;
}

std::optional<QueryCompletion> Database::HandleEvent(const Event& event) {
  DRAINSIM_CHECK(event.type == EventType::kDbServiceEnd || event.type == EventType::kDbDeadline);
  uint32_t slot = event.a;
  if (event.type == EventType::kDbDeadline) {
    const std::optional<uint32_t> due = DeadlineWake();
    if (!due) return std::nullopt;  // every query it stood for completed in time
    slot = *due;
  } else if (slot >= queries_.size() ||
             queries_[slot].generation != static_cast<uint32_t>(event.b)) {
    return std::nullopt;  // the query already completed
  } else if (cores_ && queries_[slot].running &&
             static_cast<uint32_t>(event.b >> 32) != shared_epoch_) {
    return std::nullopt;  // a start or end since then moved this query's end
  }
  Query& q = queries_[slot];
  const Instant now = scheduler_.Now();
  QueryCompletion done{q.owner, QueryOutcome::kOk, now - q.submitted_at};
  if (event.type == EventType::kDbServiceEnd) {
    if (q.running) {
      Account();
      if (cores_) FinishShared(slot);
      --busy_;
    } else {
      DRAINSIM_CHECK(!q.queued);  // a refusal: never queued, never ran
      done.outcome = QueryOutcome::kRefused;
    }
  } else {
    done.outcome = QueryOutcome::kTimeout;
    ++timeouts_;
    if (q.running) {
      Account();
      if (cores_) AdvanceShared();  // its tag goes stale and is skipped when it surfaces
      --busy_;
    } else {
      DRAINSIM_CHECK(q.queued);
      --waiting_;  // its queue entry is skipped lazily
    }
  }
  const bool was_running = q.running;
  FreeQuery(slot);
  const bool started = StartWaiting();
  if (cores_ && (was_running || started)) RescheduleShared();
  return done;
}

void Database::FinishShared(uint32_t slot) {
  AdvanceShared();
  DRAINSIM_CHECK(!shared_tags_.empty() && shared_tags_.top().slot == slot);
  // The event was rounded up to the µs: the shared time has reached the tag, give or take
  // the rounding, and is set to it exactly.
  shared_us_ = std::max(shared_us_, shared_tags_.top().finish_us);
  shared_tags_.pop();
}

void Database::SetCapacity(int64_t connections) {
  DRAINSIM_CHECK(connections >= 1);
  Account();
  capacity_ = connections;
  if (StartWaiting() && cores_) RescheduleShared();
}

}  // namespace drainsim::model
