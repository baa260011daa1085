// A recording RunObserver, and the plain log it fills: the data behind the `trace` report
// (reports/trace_report.h) and `drainsim explain`.
//
// TraceRecorder records three things: (a) a span per attempt on its worker's slot (and, when
// asked, its database statements), (b) the run's instants (fault edges, drains, worker crashes
// and restarts) and (c) the lives of some messages, event by event. By default (c) is a sample: the
// first `lives_first` ids and every message that was dead-lettered, parked, expired, or whose work
// ran or tried to run twice. With only_id / only_key it is exactly the messages asked for
// (explain).
//
// Contract:
//  (1) Deterministic: the same run gives the same TraceLog, field for field.
//  (2) Bounded, whatever the run does (a message that fails a million times, a crash a
//      second): at most spans_max spans (the first to start; spans_left_out counts the rest);
//      at most life_events_max events per life (the first quarter and the latest ones;
//      MessageLife::events_left_out counts those between); at most lives_alive_max lives being
//      recorded at once (a message published while that many are is not recorded at all:
//      lives_not_recorded); at most lives_max lives kept (first come first kept;
//      lives_dropped counts the rest); at most marks_max worker crashes, restarts and fault
//      strikes (marks_left_out; fault windows and drains, bounded by the scenario, are always
//      kept). So the recorder holds at most about
//      (lives_alive_max + lives_max) * life_events_max * sizeof(LifeEvent) + spans_max *
//      sizeof(AttemptSpan) + statements_max * sizeof(StatementSpan) + marks_max *
//      sizeof(RunMark) bytes, plus the keys: about 110 MB
//      with the defaults (tests/cli/memory_test.cc measures a retry storm).
//      A life is held while the model holds the message's record (until OnReleased), then kept
//      or dropped.
//  (3) It only listens: see sim/model/observer.h (1).
//
// Thread-safety: one recorder per run, used by the thread running it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/config/config.h"
#include "sim/model/observer.h"

namespace drainsim::model {

// One attempt, or one sleep_in_consumer backoff, on a worker's slot.
struct AttemptSpan {
  engine::Instant start;
  engine::Instant end;
  uint64_t message_id = 0;
  uint32_t kind_index = 0;
  uint32_t worker = 0;
  uint32_t lane = 0;    // which of the worker's `concurrency` slots: a lane's spans never overlap
  int32_t attempt = 0;  // in the message's life, from 1
  bool sleep = false;   // a backoff sleep holding the slot, not an attempt
  bool ended = true;    // false: still open when the run stopped
  AttemptOutcome outcome = AttemptOutcome::kSucceeded;
  AckFate ack = AckFate::kNone;
  config::ErrorClass error = config::ErrorClass::kUnknown;
  FailureCause failure = FailureCause::kNone;
  int32_t fault = -1;
  bool current = true;     // false: a stale copy (see AttemptEndInfo::current)
  bool committed = false;  // its transaction committed
  bool duplicate = false;  // ... for a key that had already committed
  DuplicateCause duplicate_cause = DuplicateCause::kOther;
};

// A database statement of a recorded attempt (TraceOptions::statements): what `--format otlp`
// exports as a client span under the attempt's span.
struct StatementSpan {
  engine::Instant start;  // submitted
  engine::Instant end;    // answered; >= start
  uint64_t message_id = 0;
  int32_t execution = 0;  // the attempt's, over all the message's lives (AttemptInfo::execution)
  bool claim = false;
  FailureCause failure = FailureCause::kNone;  // kDbTimeout or kDbRefused when it failed
};

// An instant of the run.
struct RunMark {
  enum class Type : uint8_t { kFault, kDrainStart, kDrainEnd, kWorkerCrash, kWorkerRestart };
  engine::Instant at;
  Type type = Type::kFault;
  uint32_t index = 0;                 // fault, drain or worker index
  FaultEdge edge = FaultEdge::kOpen;  // kFault
  bool after_commit = false;          // kWorkerCrash: it died between commit and ack
  // kFault: read from the scenario, not seen in the run (when a per-message fault such as
  // synthetic_failures, poison or bug starts to apply, and when a bug is fixed).
  bool from_scenario = false;
};

// One thing that happened to a message; which fields mean something depends on `type`.
struct LifeEvent {
  enum class Type : uint8_t { kPublish, kTransition, kAttemptStart, kAttemptEnd, kCommit, kSleep };
  Type type = Type::kPublish;
  engine::Instant at;
  MessageState from = MessageState::kReady;  // kTransition; kPublish: `to` is the first state
  MessageState to = MessageState::kReady;
  TransitionCause cause = TransitionCause::kDelivered;
  config::DlqReason dlq_reason = config::DlqReason::kMaxAttempts;
  config::ErrorClass error = config::ErrorClass::kUnknown;  // failures; transitions: last
  RedeliveryCause redelivery = RedeliveryCause::kNone;
  BrokerLossCause loss = BrokerLossCause::kDlqFull;  // kBrokerLost
  engine::Instant until = engine::Instant::Never();  // kRetryScheduled, kSleep
  int32_t drain = -1;
  int32_t worker = -1;
  int32_t attempt = 0;    // attempts: its number in the life; kTransition: attempts so far
  int32_t execution = 0;  // kAttemptStart
  AttemptOutcome outcome = AttemptOutcome::kSucceeded;  // kAttemptEnd
  AckFate ack = AckFate::kNone;
  FailureCause failure = FailureCause::kNone;
  int32_t fault = -1;
  bool current = true;
  bool during_sleep = false;  // kAttemptEnd kCrashed: the worker died while it slept
  bool duplicate = false;     // kCommit
  DuplicateCause duplicate_cause = DuplicateCause::kOther;
  bool visible = false;
};

struct MessageLife {
  uint64_t id = 0;
  uint32_t kind_index = 0;
  uint32_t source_index = 0;  // producer, or backlog entry when from_backlog
  bool from_backlog = false;
  engine::Instant published_at;
  std::string key;
  std::vector<LifeEvent> events;  // in the order they happened, with at most one gap:
  // events_left_out events were not recorded between events[gap_at - 1] and events[gap_at]
  // (TraceOptions::life_events_max). The attempts they covered are those numbered between.
  int64_t events_left_out = 0;
  size_t gap_at = 0;
};

struct TraceLog {
  std::vector<std::string> kinds;   // by kind index
  std::vector<std::string> faults;  // fault type names, by fault index
  int64_t workers = 0;
  int64_t concurrency = 0;
  int64_t drains = 0;
  engine::Instant ended_at;
  std::vector<AttemptSpan> spans;  // by (start, worker, lane)
  int64_t attempts_seen = 0;       // attempts started in the run
  size_t spans_max = 0;
  int64_t spans_left_out = 0;             // attempts and sleeps not drawn: spans_max was reached
  std::vector<StatementSpan> statements;  // in the order they ended; empty unless asked for
  int64_t statements_left_out = 0;        // of recorded attempts, over statements_max
  std::vector<RunMark> marks;             // in time order
  size_t marks_max = 0;
  int64_t marks_left_out = 0;      // crashes, restarts and strikes over marks_max
  std::vector<MessageLife> lives;  // by id
  int64_t lives_dropped = 0;       // qualified for the sample but over lives_max
  uint64_t lives_first = 0;
  size_t lives_max = 0;
  size_t lives_alive_max = 0;
  int64_t lives_not_recorded = 0;  // published while lives_alive_max lives were being recorded
  size_t life_events_max = 0;
  int64_t life_events_left_out = 0;  // over the lives kept: the sum of their events_left_out
  int64_t published = 0;
  // Explain by key when no key matched: up to 5 keys containing the one asked for.
  std::vector<std::string> similar_keys;
};

struct TraceOptions {
  bool spans = true;  // record attempt spans at all
  size_t spans_max = 200'000;
  // Record the database statements of the attempts whose spans are recorded, at most
  // statements_max (the first to end; TraceLog::statements_left_out counts the rest). Off by
  // default: only the otlp format exports them.
  bool statements = false;
  size_t statements_max = 200'000;
  uint64_t lives_first = 200;
  size_t lives_max = 2000;
  // The memory bounds of contract (2). A life of 64 events shows a message's first attempts
  // and its last dozen: what explain and the trace need to say why it ended where it did.
  size_t life_events_max = 64;
  size_t lives_alive_max = 20'000;
  size_t marks_max = 100'000;  // REQUIRES: life_events_max >= 2
  // Record only the life of the message with this id, or of every message with this key.
  std::optional<uint64_t> only_id;
  std::optional<std::string> only_key;
};

class TraceRecorder final : public RunObserver {
 public:
  TraceRecorder(const config::Scenario& scenario, TraceOptions options);

  bool WantsKeys() const override { return true; }
  void OnPublish(const PublishInfo& info) override;
  void OnTransition(const TransitionInfo& info) override;
  void OnAttemptStart(const AttemptInfo& info) override;
  void OnAttemptEnd(const AttemptEndInfo& info) override;
  void OnCommit(const CommitInfo& info) override;
  void OnStatement(const StatementInfo& info) override;
  void OnSleep(const SleepInfo& info) override;
  void OnReleased(uint64_t message_id, engine::Instant at) override;
  void OnFaultEdge(uint32_t fault, FaultEdge edge, engine::Instant at) override;
  void OnWorkerCrash(uint32_t worker, bool after_commit, engine::Instant at) override;
  void OnWorkerRestart(uint32_t worker, engine::Instant at) override;
  void OnDrainStart(uint32_t drain, engine::Instant at) override;
  void OnDrainEnd(uint32_t drain, engine::Instant at) override;

  // Closes what is still open at `end` (the run's end) and hands the log over.
  // REQUIRES: called once, after the run.
  TraceLog Finish(engine::Instant end);

 private:
  // What runs in an attempt slot: the attempt's number, and its span when one is recorded.
  struct Slot {
    bool busy = false;
    uint64_t message_id = 0;
    int32_t attempt = 0;
    int32_t execution = 0;
    bool sleeping = false;
    bool has_span = false;
    AttemptSpan span;
  };
  Slot& SlotAt(uint32_t slot);
  void OpenSpan(Slot& slot, const AttemptSpan& span);
  void CloseSpan(Slot& slot, engine::Instant end);
  // A life being recorded: its events (see MessageLife::gap_at) and what the sample needs to
  // know of those left out.
  struct Recording {
    MessageLife life;
    size_t tail_next = 0;  // once full: where the next event overwrites the oldest of the tail
    int commits = 0;
    bool interesting = false;  // see MakesInteresting() in trace_log.cc
  };
  Recording* LifeOf(uint64_t message_id);
  void Record(Recording& r, const LifeEvent& e);
  void AddMark(const RunMark& mark);
  void Keep(Recording&& r);
  bool Sampling() const { return !options_.only_id && !options_.only_key; }

  const TraceOptions options_;
  TraceLog log_;
  std::vector<Slot> slots_;
  std::vector<std::vector<bool>> lanes_busy_;  // [worker][lane]
  size_t spans_opened_ = 0;
  std::unordered_map<uint64_t, Recording> alive_;  // lives being recorded, by id
};

}  // namespace drainsim::model
