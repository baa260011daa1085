// The kafka-share preset (docs/PRESETS.md, "kafka-share"): a Kafka share group's broker counts
// every acquisition of a record (group.share.delivery.count.limit, 5) and archives the record at
// the limit, or writes it to the group's dead-letter topic (Kafka 4.4, KIP-1191); a failed record
// is RELEASEd and acquired again before new records; a record whose 30 s acquisition lock runs
// out is acquired again too, and the late acknowledgement is refused. Through the loader; every
// run audited at every event; times exact, derived in comments.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tests/model/recorder.h"
#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace kafka_share_test {
namespace {

using testing::CheckConserved;
using testing::LoadOrFail;
using testing::Recorder;
using testing::Times;

config::Scenario Load(const std::string& broker, const std::string& body, double until_s) {
  return LoadOrFail(R"({"format_version": 1, "name": "kafka-share", "run": {"until_s": )" +
                    std::to_string(until_s) + R"(}, "broker": {"preset": "kafka-share")" +
                    broker + "}, " + body + "}");
}

Results RunAudited(const config::Scenario& s, Recorder& rec) {
  RunOptions options;
  options.audit_every_event = true;
  options.observer = &rec;
  return RunSimulation(s, 1, options);
}

int64_t Archived(const Results& r) {
  return r.broker_lost_by_cause[static_cast<size_t>(BrokerLossCause::kArchived)];
}

// The poison record is the backlog's first (id 0), 20 orders of 100 ms follow; two consumers
// taking one record at a time. Each poison attempt fails 1 s in and the consumer RELEASEs it:
// it is the first AVAILABLE offset, so the next acquisition takes it before the orders behind
// it, at once (acquisitions at 0, 1, 2, 3, 4 s). The fifth release, at 5 s, finds its delivery
// count at the limit (5): archived, or written to the dead-letter topic.
config::Scenario PoisonRecord(const std::string& broker) {
  return Load(broker, R"("kinds": {"bad": {"handler": {"cpu_ms": {"constant": 5000}}},
                 "order": {"handler": {"cpu_ms": {"constant": 100}}}},
      "backlog": [{"where": "main", "kind": "bad", "count": 1},
                  {"where": "main", "kind": "order", "count": 20}],
      "workers": {"count": 2, "prefetch": 1, "concurrency": 1},
      "faults": [{"type": "poison", "kind": "bad", "count": 1, "fail_after_ms": 1000}])",
              100);
}

TEST_CASE("kafka-share: a poison record is delivered exactly 5 times, then archived",
          "[model][kafka-share]") {
  Recorder rec;
  const Results r = RunAudited(PoisonRecord(""), rec);
  CheckConserved(r);
  CHECK(rec.StartTimes(0) == Times{0, 1, 2, 3, 4});
  CHECK(rec.TimesTo(0, MessageState::kBrokerLost) == Times{5});
  CHECK(r.attempts == 25);  // 5 executions of the poison record, one of each order
  CHECK(r.acked == 20);
  CHECK(r.broker_lost == 1);
  CHECK(Archived(r) == 1);
  CHECK(r.dlq_end == 0);
  CHECK(r.human_needed == 0);  // lost to the application: nobody is told
}

TEST_CASE("kafka-share: with the group's dead-letter topic (4.4) the record is dead-lettered "
          "after exactly 5 deliveries",
          "[model][kafka-share]") {
  Recorder rec;
  const Results r =
      RunAudited(PoisonRecord(R"(, "version": "4.4", "dead_letter_queue": true)"), rec);
  CheckConserved(r);
  CHECK(rec.StartTimes(0) == Times{0, 1, 2, 3, 4});
  CHECK(rec.TimesTo(0, MessageState::kDeadLettered) == Times{5});
  CHECK(r.attempts == 25);
  CHECK(r.broker_lost == 0);
  CHECK(Archived(r) == 0);
  CHECK(r.dlq_end == 1);
}

TEST_CASE("kafka-share: a handler that outlives the 30 s lock once runs twice, the late ack "
          "refused",
          "[model][kafka-share]") {
  // One job of one database operation of 1 s; the database is 100x slower until 10 s, so the
  // first acquisition's operation takes 100 s. Its lock runs out at 30 s: the record is
  // AVAILABLE again and the idle consumer acquires it (delivery 2), done at 31 s. The first
  // consumer's acknowledgement at 100 s is refused: a duplicate execution, not a second ack.
  // A tick every 10 s until 200 s keeps the run going past 100 s (a run with nothing left to
  // happen ends early, before the stale copy finishes).
  const config::Scenario s = Load("",
                                  R"("kinds": {"job": {"idempotency": "none",
                      "handler": {"db_ops": 1, "db_op_ms": {"constant": 1000}}},
                 "tick": {"handler": {"cpu_ms": {"constant": 1}}}},
      "backlog": [{"where": "main", "kind": "job", "count": 1}],
      "producers": [{"kind": "tick", "constant": {"rate_per_s": 0.1, "from_s": 5, "until_s": 200}}],
      "database": {"connections": 2, "overload_factor": 0, "timeout_ms": 200000},
      "workers": {"count": 2, "prefetch": 1, "concurrency": 1},
      "faults": [{"type": "db_slowdown", "from_s": 0, "until_s": 10, "factor": 100}])",
                                  300);
  Recorder rec;
  const Results r = RunAudited(s, rec);
  CheckConserved(r);
  CHECK(rec.StartTimes(0) == Times{0, 30});
  CHECK(rec.TimesTo(0, MessageState::kAcked) == Times{31});
  std::vector<Recorder::End> ends;
  for (const Recorder::End& end : rec.ends) {
    if (end.id == 0) ends.push_back(end);
  }
  REQUIRE(ends.size() == 2);
  CHECK(ends[1].at_s == 100);
  CHECK(ends[1].ack == AckFate::kIgnored);
  CHECK(r.acked == r.published);
  CHECK(r.duplicate_executions == 1);
  CHECK(r.duplicates_by_cause[static_cast<size_t>(DuplicateCause::kVisibilityTimeout)] == 1);
  CHECK(r.broker_lost == 0);
}

TEST_CASE("kafka-share: a handler that always outlives the lock is archived after 5 lock "
          "expiries",
          "[model][kafka-share]") {
  // A 40 s handler under the 30 s lock, two consumers taking one record at a time: each
  // acquisition's lock runs out 30 s in and the record is acquired again by the consumer that
  // is free (the other still runs its stale copy for 10 s more): 0, 30, 60, 90, 120 s. The
  // fifth expiry, at 150 s, finds the delivery count at 5: archived. No run ever acknowledges.
  const config::Scenario s = Load("",
                                  R"("kinds": {"slow": {"handler": {"cpu_ms": {"constant": 40000}}}},
      "backlog": [{"where": "main", "kind": "slow", "count": 1}],
      "workers": {"count": 2, "prefetch": 1, "concurrency": 1})",
                                  400);
  Recorder rec;
  const Results r = RunAudited(s, rec);
  CheckConserved(r);
  CHECK(rec.StartTimes(0) == Times{0, 30, 60, 90, 120});
  CHECK(rec.TimesTo(0, MessageState::kBrokerLost) == Times{150});
  CHECK(r.attempts == 5);
  CHECK(r.acked == 0);
  CHECK(Archived(r) == 1);
  CHECK(r.dlq_end == 0);
}

}  // namespace
}  // namespace kafka_share_test
}  // namespace drainsim::model
