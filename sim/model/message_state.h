// The life of a message as an explicit state machine, and the ledger that proves nothing is
// lost.
//
// Invariants:
//  (1) Every published message is in exactly one MessageState at every event.
//  (2) Only the transitions in IsLegalTransition happen; anything else is a programmer error.
//  (3) Ledger::Lost() == 0: the per-state counts sum to the number published. The ledger is
//      kept incrementally; the model also recounts its message records against it (see
//      World::Audit) so that a bookkeeping bug cannot hide in both places.
//
// Thread-safety: none needed; a run is single-threaded and owns its ledger.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "sim/base/check.h"

namespace drainsim::model {

enum class MessageState : uint8_t {
  kReady,         // in the main queue, deliverable
  kDelayed,       // in the delay queue: a retry scheduled for later
  kInFlight,      // delivered to a worker (in its buffer or running), not yet acked
  kDeadLettered,  // in the DLQ
  kParked,        // in the parking lot: needs a human (terminal for the run)
  kAcked,         // done (terminal)
  kExpired,       // DLQ retention ran out: data loss, reported as such (terminal)
  kRejected,      // refused by a full queue (overflow reject_publish): never entered (terminal)
  // Discarded by the broker by design (results.h BrokerLossCause): a refused dead letter, no
  // dead-letter target, a consumer's crash under basic fetch (terminal). Not `lost`, which
  // stays the simulator's own conservation check.
  kBrokerLost,
  // Dead-lettered at least once into a DLQ that refused it: kept in the main queue,
  // undeliverable, until the DLQ has room (broker.dead_letter_strategy at_least_once).
  kDeadLetterWaiting,
};
inline constexpr int kMessageStateCount = 10;

std::string_view MessageStateName(MessageState state);

// Why the broker discarded a message (MessageState::kBrokerLost): loss real systems cause by
// design, reported as broker_lost by cause (docs/METRICS.md).
enum class BrokerLossCause : uint8_t {
  // "dlq_full": dead-lettered at most once into a DLQ at dlq_max_length that refuses
  // (dlq_overflow reject_publish).
  kDlqFull,
  // "no_dead_letter_target": would be dead-lettered, but the broker has no DLQ and drops it
  // (without_dlq dropped: RabbitMQ with no dead-letter exchange).
  kNoDeadLetterTarget,
  // "crash": held by a consumer that crashed under requeue_on_crash lost (Sidekiq OSS's
  // BRPOP fetch).
  kCrash,
  // "worker_lost": running when its consumer died under requeue_on_crash fail (Celery's
  // acks_late without task_reject_on_worker_lost: acked as failed, never run again).
  kWorkerLost,
  // "skipped": its attempts ran out under a consumer that logs and skips a failed record instead
  // of dead-lettering it (without_dlq skipped: Spring Kafka's DefaultErrorHandler without a
  // recoverer).
  kSkipped,
  // "archived": its delivery count reached the broker's limit with no dead-letter topic, and the
  // broker archived it (without_dlq archived: a Kafka share group's delivery count limit).
  kArchived,
  // "committed_unprocessed": a Kafka consumer committed its poll's offsets before processing
  // (offset_commit before_processing) and crashed before it processed the record: nobody
  // fetches it again. Reported only when not 0 (reports/json_report.cc).
  kCommittedUnprocessed,
};
inline constexpr int kBrokerLossCauseCount = 7;

std::string_view BrokerLossCauseName(BrokerLossCause cause);

// True iff the state is one a message never leaves within a run.
constexpr bool IsTerminal(MessageState state) {
  return state == MessageState::kParked || state == MessageState::kAcked ||
         state == MessageState::kExpired || state == MessageState::kRejected ||
         state == MessageState::kBrokerLost;
}

// The table of legal transitions; see message_state.cc for why each exists.
bool IsLegalTransition(MessageState from, MessageState to);

// States a message may be published into: ready (a producer), delayed (a producer's delayed
// publish or a backlog in the delay queue), dead-lettered (a backlog already in the DLQ).
constexpr bool IsLegalInitialState(MessageState state) {
  return state == MessageState::kReady || state == MessageState::kDelayed ||
         state == MessageState::kDeadLettered;
}

class Ledger {
 public:
  // REQUIRES: IsLegalInitialState(state).
  void Publish(MessageState state) {
    DRAINSIM_CHECK(IsLegalInitialState(state));
    ++published_;
    ++counts_[Index(state)];
  }

  // REQUIRES: IsLegalTransition(from, to) and a message is in `from`.
  void Move(MessageState from, MessageState to) {
    DRAINSIM_CHECK(IsLegalTransition(from, to));
    DRAINSIM_CHECK(counts_[Index(from)] > 0);
    --counts_[Index(from)];
    ++counts_[Index(to)];
  }

  int64_t count(MessageState state) const { return counts_[Index(state)]; }
  int64_t published() const { return published_; }

  // The number of published messages not accounted for by any state; 0 iff conserved.
  int64_t Lost() const {
    int64_t sum = 0;
    for (int64_t c : counts_) sum += c;
    return published_ - sum;
  }

 private:
  static constexpr size_t Index(MessageState state) { return static_cast<size_t>(state); }
  std::array<int64_t, kMessageStateCount> counts_{};
  int64_t published_ = 0;
};

}  // namespace drainsim::model
