// A Kafka consumer group's polls and offset commits (broker.max_poll_records,
// broker.offset_commit other than "record"; docs/PRESETS.md, "partitions"): the state each
// consumer keeps between its polls. World (world_kafka.cc) acts on it; this class decides
// nothing and schedules nothing.
//
// A consumer's poll takes up to max_poll_records ready records of its partitions at once (they
// are in flight, held in its buffer) and it processes them one at a time, in order. A processed
// record whose offset is not committed yet stays in flight, listed here (`uncommitted`), until
// its consumer commits: at the end of the batch ("batch"), at a poll once the auto-commit
// interval has passed ("auto"), or never needed ("before_processing" committed at the poll).
//
// Invariants:
//  (1) A delivery is listed in uncommitted(w) only after consumer w processed it (its attempt
//      succeeded); the list is in processing order, so in offset order within each partition.
//  (2) A listed record is marked pending (by publish number) until its next transition out of
//      flight (TakePending). Under "auto" it no longer counts as in flight for its partition
//      (MessageGroups::RemoveInFlight when it is listed): the consumer polls past it, and the
//      transition out of flight must not take the partition's count down a second time.
//  (3) Under "batch" uncommitted(w) is empty whenever w holds no record of a batch: the batch's
//      last record (or a failed one) commits the processed ones.
//
// Thread-safety: one run's state; not shared.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/base/check.h"
#include "sim/config/enums.h"
#include "sim/engine/time.h"
#include "sim/model/message.h"

namespace drainsim::model {

class KafkaCommits {
 public:
  // REQUIRES: mode is not kRecord (record commits keep the one-record-at-a-time path);
  // max_poll_records >= 1; auto_interval > 0.
  KafkaCommits(config::OffsetCommit mode, int64_t max_poll_records, engine::Duration auto_interval,
               uint32_t consumers)
      : mode_(mode),
        max_poll_records_(max_poll_records),
        auto_interval_(auto_interval),
        uncommitted_(consumers),
        next_auto_commit_at_(consumers, engine::Instant::Zero() + auto_interval) {
    DRAINSIM_CHECK(mode != config::OffsetCommit::kRecord);
    DRAINSIM_CHECK(max_poll_records >= 1);
    DRAINSIM_CHECK(auto_interval > engine::Duration::Zero());
  }

  config::OffsetCommit mode() const { return mode_; }
  int64_t max_poll_records() const { return max_poll_records_; }
  engine::Duration auto_interval() const { return auto_interval_; }

  // Processed records of consumer w whose offsets are not committed: invariant (1).
  std::vector<Delivery>& uncommitted(uint32_t w) { return uncommitted_[w]; }

  // "auto": when consumer w's next poll commits (Kafka's auto-commit timer).
  engine::Instant next_auto_commit_at(uint32_t w) const { return next_auto_commit_at_[w]; }
  void set_next_auto_commit_at(uint32_t w, engine::Instant at) { next_auto_commit_at_[w] = at; }

  // Invariant (2): the record published `id`-th was processed and waits for its commit.
  void MarkPending(uint64_t id) {
    if (id >= pending_.size()) pending_.resize(std::max<size_t>(id + 1, 2 * pending_.size()));
    DRAINSIM_CHECK(!pending_[id]);
    pending_[id] = true;
  }
  bool IsPending(uint64_t id) const { return id < pending_.size() && pending_[id]; }
  // True iff the record published `id`-th was pending; the mark is cleared.
  bool TakePending(uint64_t id) {
    if (!IsPending(id)) return false;
    pending_[id] = false;
    return true;
  }

 private:
  const config::OffsetCommit mode_;
  const int64_t max_poll_records_;
  const engine::Duration auto_interval_;
  std::vector<std::vector<Delivery>> uncommitted_;    // by consumer
  std::vector<engine::Instant> next_auto_commit_at_;  // by consumer
  std::vector<bool> pending_;                         // by publish number
};

}  // namespace drainsim::model
