// broker.max_poll_records and broker.offset_commit (docs/PRESETS.md, "partitions"; world_kafka.cc):
// what a Kafka consumer's crash, its leaving the group and a failed record do to the records of
// its poll under each way of committing offsets. Through the loader, under the kafka preset;
// every figure derived by hand in the comments and asserted exactly.
#include <catch2/catch.hpp>
#include <string>

#include "tests/model/recorder.h"
#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace kafka_commit_test {
namespace {

using testing::CheckConserved;
using testing::LoadOrFail;
using testing::Recorder;
using testing::RunRecorded;
using testing::Times;

int64_t Duplicates(const Results& r, DuplicateCause cause) {
  return r.duplicates_by_cause[static_cast<size_t>(cause)];
}

int64_t Lost(const Results& r, BrokerLossCause cause) {
  return r.broker_lost_by_cause[static_cast<size_t>(cause)];
}

// One partition, one consumer, 8 records of exactly 1 s (ids 0..7, in offset order; idempotency
// none, so each run's work commits and a second run is a visible duplicate). Record k runs over
// [k, k + 1) s. The consumer crashes at 5.5 s: records 0..4 are processed, 5 is in hand, 6 and 7
// are not started. It restarts 10 s later, at 15.5 s (the session timeout, 45 s, never runs out:
// no rebalance).
config::Scenario CrashMidBatch(const std::string& commit) {
  return LoadOrFail(
      R"({"format_version": 1, "name": "kafka-commit", "run": {"until_s": 100},
      "kinds": {"k": {"idempotency": "none", "handler": {"cpu_ms": {"constant": 1000}}}},
      "backlog": [{"where": "main", "kind": "k", "count": 8}],
      "broker": {"preset": "kafka", "partitions": 1, )" +
      commit + R"(},
      "workers": {"count": 1, "restart_s": 10},
      "faults": [{"type": "worker_crash", "at_s": 5.5, "count": 1}]})");
}

TEST_CASE("kafka commit record: a crash mid-batch redelivers only the record in hand",
          "[model][partitions][kafka][commit]") {
  // AckMode.RECORD: records 0..4 are committed as each ends (acked at 1..5 s). The crash returns
  // record 5, whose run had not committed its work: run again at 15.5 s, no duplicate. 6 and 7
  // follow: acked at 16.5, 17.5, 18.5 s.
  Recorder rec;
  const Results r = RunRecorded(CrashMidBatch(R"("offset_commit": "record")"), rec);
  CheckConserved(r);
  CHECK(r.acked == 8);
  CHECK(r.duplicate_executions == 0);
  CHECK(rec.StartTimes(4) == Times{4});
  CHECK(rec.StartTimes(5) == Times{5, 15.5});
  CHECK(rec.TimesTo(0, MessageState::kAcked) == Times{1});
  CHECK(rec.TimesTo(7, MessageState::kAcked) == Times{18.5});
}

TEST_CASE("kafka commit batch: a crash mid-batch redelivers the whole uncommitted batch",
          "[model][partitions][kafka][commit]") {
  // AckMode.BATCH: the poll at 0 s returns all 8 (max_poll_records 500); nothing is committed
  // before the batch ends at 8 s. The crash at 5.5 s returns all 8 from the last committed
  // offset (none): records 0..4 had committed their work, so their second runs are 5 duplicates
  // (crash_after_commit). The restarted consumer polls the 8 at 15.5 s and runs them over
  // [15.5, 23.5) s; the batch's end commits them all at 23.5 s.
  Recorder rec;
  const Results r = RunRecorded(CrashMidBatch(R"("offset_commit": "batch")"), rec);
  CheckConserved(r);
  CHECK(r.acked == 8);
  CHECK(r.duplicate_executions == 5);
  CHECK(Duplicates(r, DuplicateCause::kCrashAfterCommit) == 5);
  CHECK(r.attempts == 8 + 6);  // 6 started before the crash (0..5), 8 after
  for (uint64_t id = 0; id < 8; ++id) {
    INFO("record " << id);
    CHECK(rec.TimesTo(id, MessageState::kAcked) == Times{23.5});
  }
  CHECK(rec.StartTimes(0) == Times{0, 15.5});
  CHECK(rec.StartTimes(7) == Times{22.5});
}

TEST_CASE("kafka commit before_processing: a crash mid-batch loses the unprocessed rest",
          "[model][partitions][kafka][commit]") {
  // At most once: the poll at 0 s commits the offsets of all 8 before processing them. Records
  // 0..4 are processed (acked at 1..5 s). The crash at 5.5 s loses record 5 (in hand) and 6, 7
  // (never started): 3 broker_lost, cause committed_unprocessed, at 5.5 s. Nothing runs twice.
  Recorder rec;
  const Results r = RunRecorded(CrashMidBatch(R"("offset_commit": "before_processing")"), rec);
  CheckConserved(r);
  CHECK(r.acked == 5);
  CHECK(r.broker_lost == 3);
  CHECK(Lost(r, BrokerLossCause::kCommittedUnprocessed) == 3);
  CHECK(r.duplicate_executions == 0);
  for (uint64_t id = 5; id < 8; ++id) {
    INFO("record " << id);
    CHECK(rec.TimesTo(id, MessageState::kBrokerLost) == Times{5.5});
  }
  CHECK(rec.TimesTo(4, MessageState::kAcked) == Times{5});
}

TEST_CASE("kafka commit auto: a crash redelivers what was processed since the last auto-commit",
          "[model][partitions][kafka][commit]") {
  // enable.auto.commit with auto.commit.interval 3 s and polls of 2 records: the consumer's timer
  // runs out at 3 s. Polls at 0 s (records 0, 1), 2 s (2, 3: 2 < 3, no commit), 4 s (4 >= 3:
  // commits 0..3, acked at 4 s; the timer restarts, next at 7 s; returns 4, 5). At 5.5 s the
  // crash finds 4 processed and uncommitted, 5 in hand: both go back with 6 and 7 (never
  // polled). The restarted consumer (a new one: its timer runs out at 15.5 + 3 = 18.5 s) polls 4,
  // 5 at 15.5 s, then 6, 7 at 17.5 s (17.5 < 18.5: no commit); idle after 19.5 s, it commits
  // 4..7 then. Record 4's second run is the one duplicate.
  Recorder rec;
  const Results r = RunRecorded(
      CrashMidBatch(
          R"("offset_commit": "auto", "auto_commit_interval_s": 3, "max_poll_records": 2)"),
      rec);
  CheckConserved(r);
  CHECK(r.acked == 8);
  CHECK(r.duplicate_executions == 1);
  CHECK(Duplicates(r, DuplicateCause::kCrashAfterCommit) == 1);
  for (uint64_t id = 0; id < 4; ++id) CHECK(rec.TimesTo(id, MessageState::kAcked) == Times{4});
  for (uint64_t id = 4; id < 8; ++id) CHECK(rec.TimesTo(id, MessageState::kAcked) == Times{19.5});
  CHECK(rec.StartTimes(4) == Times{4, 15.5});
  CHECK(rec.StartTimes(6) == Times{17.5});
}

// 500 records of 1 s in one poll against max.poll.interval.ms 300 s (the preset's
// visibility_timeout_s), one consumer, under AckMode.BATCH.
config::Scenario LongBatch(int max_poll_records) {
  return LoadOrFail(
      R"({"format_version": 1, "name": "kafka-long-batch", "run": {"until_s": 3000},
      "kinds": {"k": {"idempotency": "none", "handler": {"cpu_ms": {"constant": 1000}}}},
      "backlog": [{"where": "main", "kind": "k", "count": 500}],
      "broker": {"preset": "kafka", "partitions": 1, "offset_commit": "batch",
                 "max_poll_records": )" +
      std::to_string(max_poll_records) + R"(},
      "workers": {"count": 1}})");
}

TEST_CASE(
    "kafka commit batch: a batch longer than max.poll.interval.ms makes its consumer leave the "
    "group for ever",
    "[model][partitions][kafka][commit]") {
  // Each cycle: a poll of all 500 at t (0, 500, 1000, ...); record k runs over [t + k, t + k + 1).
  // At t + 300 every delivery's max.poll.interval runs out; that timer was set at the poll, so it
  // fires before record 299's end at the same instant: 299 records are processed, none
  // committed. The consumer leaves the group and every record goes back to the partition; alone
  // in its group, nothing moves (a leave with nobody to take over is not counted). It goes on
  // with its 201 records left, stale (their commits would fail), until t + 500, then polls again
  // and rejoins: one rebalance. Every record runs once per cycle and is never acked. Until
  // 3,000 s: 6 cycles (polls at 0, 500, ..., 2500), 3,000 attempts; rejoins at 500, ..., 2500:
  // 5 rebalances. Duplicates: every run's work commits; the first cycle's 500 are first runs,
  // cycles 2 to 5 give 4 x 500, the sixth 499 (record 499's run ends at 3,000 s, with the run).
  // All of cause rebalance.
  Recorder rec;
  const Results r = RunRecorded(LongBatch(500), rec);
  CheckConserved(r);
  CHECK(r.acked == 0);
  CHECK(r.not_terminal_end == 500);
  CHECK(r.attempts == 3000);
  CHECK(r.rebalances == 5);
  CHECK(r.duplicate_executions == 2499);
  CHECK(Duplicates(r, DuplicateCause::kRebalance) == 2499);
  CHECK(rec.StartTimes(0) == Times{0, 500, 1000, 1500, 2000, 2500});
  CHECK(rec.StartTimes(499) == Times{499, 999, 1499, 1999, 2499, 2999});
}

TEST_CASE("kafka commit batch: polls of 200 records of 1 s stay within max.poll.interval.ms",
          "[model][partitions][kafka][commit]") {
  // The same backlog with max_poll_records 200: batches of 200, 200 and 100 records, each under
  // 300 s, committed at their ends: 200, 400 and 500 s. Nothing runs twice.
  Recorder rec;
  const Results r = RunRecorded(LongBatch(200), rec);
  CheckConserved(r);
  CHECK(r.acked == 500);
  CHECK(r.duplicate_executions == 0);
  CHECK(r.rebalances == 0);
  CHECK(rec.TimesTo(0, MessageState::kAcked) == Times{200});
  CHECK(rec.TimesTo(399, MessageState::kAcked) == Times{400});
  CHECK(rec.TimesTo(499, MessageState::kAcked) == Times{500});
}

TEST_CASE(
    "kafka commit batch: a failed record commits the ones before it and seeks the rest back "
    "(DefaultErrorHandler)",
    "[model][partitions][kafka][commit]") {
  // Records 0, 1 (orders), 2 (poison: fails 1 s in, every time), 3, 4, 5 (orders), all of 1 s,
  // one partition. The poll at 0 s returns the 6. 0 and 1 run over [0, 2) s; 2 fails at 3 s:
  // the container commits the acks it holds (0 and 1, acked at 3 s) and the error handler seeks
  // 2..5 back. The next poll, at once, returns 2..5; 2 fails again 1 s later, and so on: its
  // attempts start at 2, 3, ..., 11 s; the tenth failure, at 12 s, is the last (FixedBackOff(0,
  // 9)): the default recoverer logs and skips it (broker_lost, cause skipped), the rest sought
  // back again. The poll at 12 s returns 3, 4, 5: run over [12, 15) s, committed at 15 s.
  Recorder rec;
  const Results r = RunRecorded(
      LoadOrFail(R"({"format_version": 1, "name": "kafka-commit-poison", "run": {"until_s": 100},
      "kinds": {"order": {"idempotency": "none", "handler": {"cpu_ms": {"constant": 1000}}},
                "bad": {"idempotency": "none", "handler": {"cpu_ms": {"constant": 1000}}}},
      "backlog": [{"where": "main", "kind": "order", "count": 2},
                  {"where": "main", "kind": "bad", "count": 1},
                  {"where": "main", "kind": "order", "count": 3}],
      "broker": {"preset": "kafka", "partitions": 1, "offset_commit": "batch"},
      "workers": {"count": 1},
      "faults": [{"type": "poison", "kind": "bad", "count": 1, "error": "transient",
                  "fail_after_ms": 1000}]})"),
      rec);
  CheckConserved(r);
  CHECK(r.acked == 5);
  CHECK(Lost(r, BrokerLossCause::kSkipped) == 1);
  CHECK(r.duplicate_executions == 0);
  CHECK(rec.TimesTo(0, MessageState::kAcked) == Times{3});
  CHECK(rec.TimesTo(1, MessageState::kAcked) == Times{3});
  CHECK(rec.StartTimes(2) == Times{2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  CHECK(rec.TimesTo(2, MessageState::kBrokerLost) == Times{12});
  CHECK(rec.StartTimes(3) == Times{12});
  for (uint64_t id = 3; id < 6; ++id) CHECK(rec.TimesTo(id, MessageState::kAcked) == Times{15});
}

TEST_CASE(
    "kafka commit batch: a failed record left in flight (delivery visibility_timeout) comes back "
    "at its timeout",
    "[model][partitions][kafka][commit]") {
  // Regression (swarm, preset-kafka-batch.json seeds 5, 13, 26, 44): a failed record the retry
  // policy leaves in flight was taken for a processed one waiting for its commit, and its
  // timeout ignored: it stayed in flight for ever. Records 0 (poison, fails 1 s in), 1, 2 (1 s
  // each); max.poll.interval 10 s. The poll at 0 s returns the 3; 0 fails at 1 s, 1 and 2 are
  // sought back, 0 stays in flight and holds the partition until its timeout, 10 s after the
  // poll: it is ready again at 10 s, polled with 1 and 2, fails at 11 s, and so on: attempts at
  // 0, 10, ..., 90 s; the tenth failure, at 91 s, skips it. 1 and 2 run over [91, 93) s and are
  // committed together at 93 s.
  Recorder rec;
  const Results r = RunRecorded(
      LoadOrFail(R"({"format_version": 1, "name": "kafka-commit-lapse", "run": {"until_s": 200},
      "kinds": {"order": {"idempotency": "none", "handler": {"cpu_ms": {"constant": 1000}}},
                "bad": {"idempotency": "none", "handler": {"cpu_ms": {"constant": 1000}}}},
      "backlog": [{"where": "main", "kind": "bad", "count": 1},
                  {"where": "main", "kind": "order", "count": 2}],
      "broker": {"preset": "kafka", "partitions": 1, "offset_commit": "batch",
                 "visibility_timeout_s": 10},
      "retry": {"delivery": "visibility_timeout"},
      "workers": {"count": 1},
      "faults": [{"type": "poison", "kind": "bad", "count": 1, "error": "transient",
                  "fail_after_ms": 1000}]})"),
      rec);
  CheckConserved(r);
  CHECK(r.acked == 2);
  CHECK(Lost(r, BrokerLossCause::kSkipped) == 1);
  CHECK(rec.StartTimes(0) == Times{0, 10, 20, 30, 40, 50, 60, 70, 80, 90});
  CHECK(rec.TimesTo(0, MessageState::kBrokerLost) == Times{91});
  CHECK(rec.TimesTo(1, MessageState::kAcked) == Times{93});
  CHECK(rec.TimesTo(2, MessageState::kAcked) == Times{93});
}

TEST_CASE("kafka commit auto: a batch that ends on a failed record still commits at the timer",
          "[model][partitions][kafka][commit]") {
  // Regression (swarm, preset-kafka-batch.json under "auto", seeds 2, 7, 68): the idle
  // consumer's commit was scheduled only when a batch's last record succeeded, so records
  // processed in a batch that ended on a failure stayed in flight for ever once nothing more
  // arrived. Records 0, 1 (1 s each) and 2 (poison, fails 1 s in); auto-commit every 30 s. The
  // poll at 0 s returns the 3: 0 and 1 are processed by 2 s, 2 fails at 3 s, 4 s, ... (attempts
  // at 2, 3, ..., 11 s, each its own poll, none at or past the timer's 30 s) and is skipped at its
  // tenth failure, 12 s. Idle from then, the consumer commits 0 and 1 at its timer, 30 s.
  Recorder rec;
  const Results r = RunRecorded(
      LoadOrFail(R"({"format_version": 1, "name": "kafka-commit-auto-fail", "run": {"until_s": 100},
      "kinds": {"order": {"idempotency": "none", "handler": {"cpu_ms": {"constant": 1000}}},
                "bad": {"idempotency": "none", "handler": {"cpu_ms": {"constant": 1000}}}},
      "backlog": [{"where": "main", "kind": "order", "count": 2},
                  {"where": "main", "kind": "bad", "count": 1}],
      "broker": {"preset": "kafka", "partitions": 1, "offset_commit": "auto",
                 "auto_commit_interval_s": 30},
      "workers": {"count": 1},
      "faults": [{"type": "poison", "kind": "bad", "count": 1, "error": "transient",
                  "fail_after_ms": 1000}]})"),
      rec);
  CheckConserved(r);
  CHECK(r.acked == 2);
  CHECK(r.not_terminal_end == 0);
  CHECK(rec.StartTimes(2) == Times{2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  CHECK(rec.TimesTo(2, MessageState::kBrokerLost) == Times{12});
  CHECK(rec.TimesTo(0, MessageState::kAcked) == Times{30});
  CHECK(rec.TimesTo(1, MessageState::kAcked) == Times{30});
}

TEST_CASE(
    "kafka commit before_processing: a record failing after its consumer left the group is lost",
    "[model][partitions][kafka][commit]") {
  // Regression (swarm, the before_processing variant of preset-kafka-batch.json, seeds 26, 44):
  // a consumer out of its group kept its committed batch with no timer left, so a record it then
  // failed and left in flight never came back. Records 0, 1 (4 s each) and 2 (poison, fails 4 s
  // in); max.poll.interval 10 s. The poll at 0 s commits all 3. 0 and 1 are acked at 4 and 8 s;
  // 2 starts at 8 s; at 10 s the batch's timeout runs out: the consumer leaves (alone, nothing
  // moves: not counted) and goes on. 2 fails at 12 s: its offset was committed and the consumer,
  // rejoining (1 rebalance), resumes past it: lost, cause committed_unprocessed.
  Recorder rec;
  const Results r = RunRecorded(
      LoadOrFail(R"({"format_version": 1, "name": "kafka-commit-left", "run": {"until_s": 100},
      "kinds": {"order": {"idempotency": "none", "handler": {"cpu_ms": {"constant": 4000}}},
                "bad": {"idempotency": "none", "handler": {"cpu_ms": {"constant": 4000}}}},
      "backlog": [{"where": "main", "kind": "order", "count": 2},
                  {"where": "main", "kind": "bad", "count": 1}],
      "broker": {"preset": "kafka", "partitions": 1, "offset_commit": "before_processing",
                 "visibility_timeout_s": 10},
      "retry": {"delivery": "visibility_timeout"},
      "workers": {"count": 1},
      "faults": [{"type": "poison", "kind": "bad", "count": 1, "error": "transient",
                  "fail_after_ms": 4000}]})"),
      rec);
  CheckConserved(r);
  CHECK(r.acked == 2);
  CHECK(r.not_terminal_end == 0);
  CHECK(Lost(r, BrokerLossCause::kCommittedUnprocessed) == 1);
  CHECK(r.rebalances == 1);
  CHECK(rec.TimesTo(1, MessageState::kAcked) == Times{8});
  CHECK(rec.StartTimes(2) == Times{8});
  CHECK(rec.TimesTo(2, MessageState::kBrokerLost) == Times{12});
}

}  // namespace
}  // namespace kafka_commit_test
}  // namespace drainsim::model
