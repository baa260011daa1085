// broker.partitions and the kafka preset (docs/PRESETS.md, "kafka"): each partition belongs to
// one consumer (range assignment), its records are processed in order one at a time, and a
// failing record is retried at once by its consumer until Spring Kafka's DefaultErrorHandler
// gives up after 10 attempts: skipped (lost to the application) without a recoverer,
// dead-lettered with one. Through the loader; times exact, derived in comments.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "sim/model/message_groups.h"
#include "tests/model/recorder.h"
#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace kafka_partitions_test {
namespace {

using testing::CheckConserved;
using testing::LoadOrFail;
using testing::Recorder;
using testing::RunRecorded;
using testing::Times;

config::Scenario Load(const std::string& broker, const std::string& body, double until_s) {
  return LoadOrFail(R"({"format_version": 1, "name": "kafka", "run": {"until_s": )" +
                    std::to_string(until_s) + R"(}, "broker": {)" + broker + "}, " + body + "}");
}

// Every run here is audited at every event, as the swarm does.
Results RunAudited(const config::Scenario& s, Recorder& rec) {
  RunOptions options;
  options.audit_every_event = true;
  options.observer = &rec;
  return RunSimulation(s, 1, options);
}

TEST_CASE("partitions: each belongs to one consumer by range, its records run in order",
          "[model][partitions]") {
  // 3 partitions over 2 consumers: RangeAssignor gives 3 / 2 = 1 each and the one left over to
  // the first, so consumer 0 owns partitions 0 and 1, consumer 1 partition 2. 60 records of
  // 100 ms: a consumer runs one at a time, so its records start back to back.
  const config::Scenario s = Load(R"("partitions": 3, "visibility_timeout_s": 60)",
                                  R"("kinds": {"k": {"handler": {"cpu_ms": {"constant": 100}}}},
      "backlog": [{"where": "main", "kind": "k", "count": 60}],
      "workers": {"count": 2, "prefetch": 1, "concurrency": 1})",
                                  100);
  Recorder rec;
  const Results r = RunAudited(s, rec);
  CheckConserved(r);
  CHECK(r.acked == 60);
  CHECK(r.partitions == 3);
  CHECK(r.ordering_violations == 0);
  const uint32_t kOwner[] = {0, 0, 1};
  std::map<uint32_t, uint64_t> last_id;  // by partition
  std::map<uint32_t, int64_t> runs;      // by worker
  REQUIRE(rec.starts.size() == 60);
  for (const Recorder::Start& start : rec.starts) {
    const uint32_t p = MessageGroups::GroupOf(start.id, 3);
    CHECK(start.worker == kOwner[p]);
    // Back to back: the consumer's n-th record starts at n x 100 ms.
    CHECK(start.at_s == Approx(0.1 * static_cast<double>(runs[start.worker]++)).margin(1e-9));
    auto [it, fresh] = last_id.try_emplace(p, start.id);
    if (!fresh) {
      CHECK(start.id > it->second);  // publish order within the partition
      it->second = start.id;
    }
  }
  int64_t owned_by_0 = 0;
  for (uint64_t id = 0; id < 60; ++id) owned_by_0 += kOwner[MessageGroups::GroupOf(id, 3)] == 0;
  CHECK(runs[0] == owned_by_0);
  CHECK(runs[1] == 60 - owned_by_0);
}

TEST_CASE("partitions: consumers beyond the partitions stay idle", "[model][partitions]") {
  const config::Scenario s = Load(R"("partitions": 2, "visibility_timeout_s": 60)",
                                  R"("kinds": {"k": {"handler": {"cpu_ms": {"constant": 100}}}},
      "backlog": [{"where": "main", "kind": "k", "count": 40}],
      "workers": {"count": 5, "prefetch": 1, "concurrency": 1})",
                                  100);
  Recorder rec;
  CheckConserved(RunAudited(s, rec));
  for (const Recorder::Start& start : rec.starts) CHECK(start.worker < 2);
}

// The poison record is the backlog's first (id 0); 20 orders of 100 ms follow, over 2 partitions
// and 2 consumers (one partition each). Each poison attempt fails 1 s in; the DefaultErrorHandler
// seeks back to it at once (FixedBackOff(0, 9)), so attempts start at 0, 1, ..., 9 s and the
// tenth failure, at 10 s, is the last: the recoverer logs and skips it, or publishes it to the
// dead-letter topic.
config::Scenario PoisonNight(bool dead_letter_topic) {
  return Load(std::string(R"("preset": "kafka", "partitions": 2)") +
                  (dead_letter_topic ? R"(, "dead_letter_queue": true)" : ""),
              R"("kinds": {"bad": {"handler": {"cpu_ms": {"constant": 5000}}},
                 "order": {"handler": {"cpu_ms": {"constant": 100}}}},
      "backlog": [{"where": "main", "kind": "bad", "count": 1},
                  {"where": "main", "kind": "order", "count": 20}],
      "workers": {"count": 2},
      "faults": [{"type": "poison", "kind": "bad", "count": 1, "error": "transient",
                  "fail_after_ms": 1000}])",
              100);
}

void CheckPartitionStalled(const Recorder& rec, const Results& r) {
  const uint32_t held = MessageGroups::GroupOf(0, 2);
  CHECK(rec.StartTimes(0) == Times{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  CHECK(r.group_hold_max_s == 10.0);
  CHECK(r.ordering_violations == 0);
  CHECK(r.acked == 20);
  double other_done_s = 0;
  int64_t held_orders = 0;
  for (const Recorder::Start& start : rec.starts) {
    if (start.id == 0) continue;
    if (MessageGroups::GroupOf(start.id, 2) == held) {
      // The stalled partition's first order starts when the poison is let go, then one per
      // 100 ms.
      CHECK(start.at_s == Approx(10.0 + 0.1 * static_cast<double>(held_orders++)).margin(1e-9));
    } else {
      other_done_s = std::max(other_done_s, start.at_s + 0.1);
    }
  }
  // The other partition flowed from the start: all of its orders done in 20 x 100 ms or less.
  CHECK(other_done_s <= 2.0 + 1e-9);
  CHECK(held_orders > 0);
}

TEST_CASE("kafka: a poison record stalls its partition for exactly 10 attempts, then is skipped",
          "[model][partitions][kafka]") {
  Recorder rec;
  const Results r = RunAudited(PoisonNight(false), rec);
  CheckConserved(r);
  CheckPartitionStalled(rec, r);
  CHECK(rec.TimesTo(0, MessageState::kBrokerLost) == Times{10});
  CHECK(r.broker_lost == 1);
  CHECK(r.broker_lost_by_cause[static_cast<size_t>(BrokerLossCause::kSkipped)] == 1);
  CHECK(r.dlq_end == 0);
}

// The series shows each partition's lag (group_tallies.h): the stalled partition keeps its poison
// record and the orders behind it for the 10 s of attempts, while the other one empties within
// 2 s (its orders, at most 20, take 100 ms each). Sampled every second.
TEST_CASE("kafka: the series shows the stalled partition's lag and the other's at 0",
          "[model][partitions][kafka]") {
  config::Scenario s = PoisonNight(false);
  s.run.sample_every = engine::Duration::Seconds(1);
  Recorder rec;
  const Results r = RunAudited(s, rec);
  CheckConserved(r);
  const uint32_t held = MessageGroups::GroupOf(0, 2);
  int64_t behind = 0;  // orders in the poison's partition
  for (uint64_t id = 1; id <= 20; ++id) behind += MessageGroups::GroupOf(id, 2) == held;
  REQUIRE(behind > 0);
  REQUIRE(r.series.size() > 10);
  CHECK(r.series[0].partition_lag == std::vector<int64_t>{held == 0 ? 1 + behind : 20 - behind,
                                                          held == 1 ? 1 + behind : 20 - behind});
  for (size_t t = 3; t <= 9; ++t) {
    INFO("t = " << t << " s");
    REQUIRE(r.series[t].t_s == static_cast<double>(t));
    CHECK(r.series[t].partition_lag[held] == 1 + behind);
    CHECK(r.series[t].partition_lag[1 - held] == 0);
    CHECK(r.series[t].partition_lag_max == 1 + behind);
  }
  // The run's last sample: every record acked or skipped.
  CHECK(r.series.back().partition_lag == std::vector<int64_t>{0, 0});
  CHECK(r.series.back().partition_lag_max == 0);
}

TEST_CASE("kafka: with a dead-letter topic the tenth failure dead-letters the record",
          "[model][partitions][kafka]") {
  Recorder rec;
  const Results r = RunAudited(PoisonNight(true), rec);
  CheckConserved(r);
  CheckPartitionStalled(rec, r);
  CHECK(rec.TimesTo(0, MessageState::kDeadLettered) == Times{10});
  CHECK(r.broker_lost == 0);
  CHECK(r.dlq_end == 1);
}

TEST_CASE(
    "partitions: a crashed consumer's partitions move after the session timeout and come "
    "back when it rejoins",
    "[model][partitions][kafka]") {
  // Two consumers, one partition each; 2 records/s of 100 ms. One consumer crashes at 50.25 s
  // and restarts 100 s later. Its session runs out at 95.25 s: the group rebalances and the
  // other consumer owns both partitions (its range is both); at 150.25 s the crashed one
  // rejoins, a second rebalance gives its partition back.
  const config::Scenario s =
      Load(R"("partitions": 2, "session_timeout_s": 45, "visibility_timeout_s": 600)",
           R"("kinds": {"k": {"handler": {"cpu_ms": {"constant": 100}}}},
      "producers": [{"kind": "k", "constant": {"rate_per_s": 2, "until_s": 300}}],
      "workers": {"count": 2, "restart_s": 100},
      "faults": [{"type": "worker_crash", "at_s": 50.25, "count": 1}])",
           400);
  Recorder rec;
  const Results r = RunAudited(s, rec);
  CheckConserved(r);
  CHECK(r.rebalances == 2);
  CHECK(r.acked == r.published);
  // The crashed consumer is the one that starts nothing while it is down.
  int64_t starts_of[2] = {0, 0};
  for (const Recorder::Start& start : rec.starts) {
    if (start.at_s > 50.25 && start.at_s < 150.25) ++starts_of[start.worker];
  }
  REQUIRE((starts_of[0] == 0) != (starts_of[1] == 0));
  const uint32_t crashed = starts_of[0] == 0 ? 0 : 1;
  const uint32_t partition = crashed;  // one each, in worker order
  for (const Recorder::Start& start : rec.starts) {
    if (MessageGroups::GroupOf(start.id, 2) != partition || start.at_s <= 50.25) continue;
    INFO("record " << start.id << " started at " << start.at_s);
    if (start.at_s < 150.25) {
      // Its records wait for the session to run out, then go to the other consumer.
      CHECK(start.at_s >= 95.25);
      CHECK(start.worker == 1 - crashed);
    } else if (start.at_s > 151) {
      CHECK(start.worker == crashed);  // back with its owner after the second rebalance
    }
  }
  // Without a session timeout the partition waits for the restart.
  Recorder plain;
  config::Scenario waits = s;
  waits.broker.session_timeout.reset();
  const Results r_plain = RunAudited(waits, plain);
  CheckConserved(r_plain);
  CHECK(r_plain.rebalances == 0);
  for (const Recorder::Start& start : plain.starts) {
    if (MessageGroups::GroupOf(start.id, 2) == partition && start.at_s > 50.25) {
      CHECK((start.at_s >= 150.25 && start.worker == crashed));
    }
  }
}

config::Scenario SlowRecord(int consumers) {
  return Load(R"("preset": "kafka", "partitions": 2)",
              R"("kinds": {"slow": {"handler": {"cpu_ms": {"constant": 400000}}},
                 "fast": {"handler": {"cpu_ms": {"constant": 100}}}},
      "backlog": [{"where": "main", "kind": "slow", "count": 1},
                  {"where": "main", "kind": "fast", "count": 10}],
      "workers": {"count": )" +
                  std::to_string(consumers) + "}",
              2000);
}

int64_t Rebalanced(const Results& r) {
  return r.duplicates_by_cause[static_cast<size_t>(DuplicateCause::kRebalance)];
}

TEST_CASE(
    "kafka: a record slower than max.poll.interval.ms bounces between the consumers, run "
    "again at each rebalance, never committed",
    "[model][partitions][kafka]") {
  // Each run of the slow record (id 0: partition 1, consumer 1's by range) takes 400 s, past
  // max.poll.interval.ms (300 s). At 300 s consumer 1 has not polled: it leaves the group, the
  // rebalance gives both partitions to consumer 0, and the record goes back to its partition's
  // front: consumer 0 runs it from 300 s. At 400 s consumer 1's run ends, its offset commit is
  // refused (CommitFailedException), it polls again and rejoins: a second rebalance, ranges
  // over both (partition 1 to consumer 1 again, its record still on consumer 0). At 600 s
  // consumer 0 leaves in turn, and consumer 1 takes the record. So runs start every 300 s,
  // alternating, each committing its database work 400 s after it started (400, 700, ...,
  // 1900 s): every commit after the first is a duplicate of cause rebalance (5 by 2,000 s).
  // Rebalances: a leave at 300, 600, ..., 1800 s and a rejoin at 400, 700, ..., 1900 s, 12.
  // The record is never acked, while the other partition's records are.
  Recorder rec;
  const Results r = RunAudited(SlowRecord(2), rec);
  CheckConserved(r);
  REQUIRE(MessageGroups::GroupOf(0, 2) == 1);
  CHECK(rec.StartTimes(0) == Times{0, 300, 600, 900, 1200, 1500, 1800});
  std::vector<uint32_t> workers;
  for (const Recorder::Start& start : rec.starts) {
    if (start.id == 0) workers.push_back(start.worker);
  }
  CHECK(workers == std::vector<uint32_t>{1, 0, 1, 0, 1, 0, 1});
  CHECK(rec.TimesTo(0, MessageState::kAcked).empty());
  CHECK(r.not_terminal_end >= 1);
  CHECK(Rebalanced(r) == 5);
  CHECK(r.duplicate_executions == 5);
  CHECK(r.rebalances == 12);
  const uint32_t slow = MessageGroups::GroupOf(0, 2);
  int64_t other_acked = 0;
  for (uint64_t id = 1; id <= 10; ++id) {
    if (MessageGroups::GroupOf(id, 2) != slow) {
      other_acked += rec.TimesTo(id, MessageState::kAcked).size();
    }
  }
  CHECK(other_acked > 0);
}

TEST_CASE(
    "kafka: alone, a consumer slower than max.poll.interval.ms runs its record again "
    "after each refused commit",
    "[model][partitions][kafka]") {
  // One consumer: at 300 s it leaves a group with nobody else in it (no partition moves, no
  // rebalance counted); at 400 s its run ends, the commit is refused, it rejoins (a rebalance)
  // and takes the record again from the last committed offset: runs at 0, 400, ..., 1600 s,
  // database commits at 400, 800, 1200 and 1600 s (3 duplicates of cause rebalance), rejoins at
  // 400, 800, 1200 and 1600 s.
  Recorder rec;
  const Results r = RunAudited(SlowRecord(1), rec);
  CheckConserved(r);
  CHECK(rec.StartTimes(0) == Times{0, 400, 800, 1200, 1600});
  CHECK(rec.TimesTo(0, MessageState::kAcked).empty());
  CHECK(Rebalanced(r) == 3);
  CHECK(r.rebalances == 4);
}

TEST_CASE(
    "partitions: a retry through a delay rejoins its partition's back and is acked out of "
    "order, as Spring Kafka's retry topics",
    "[model][partitions][kafka]") {
  // Non-blocking retries (@RetryableTopic: 4 attempts, 1 s x 2): a failed record leaves its
  // partition for a delay and comes back behind the records published after it. One partition,
  // one consumer; records 0-2 (kind "a") fail their first attempt at 0 s (the bug ends at
  // 0.5 s), wait 1 s, and rejoin the back behind the 20 "b" records (100 ms each, done at 2 s):
  // each is acked after later records, one violation each. Without the bug, none.
  const auto scenario = [](bool bug) {
    return Load(R"("partitions": 1, "visibility_timeout_s": 60)",
                std::string(R"("kinds": {"a": {"handler": {"cpu_ms": {"constant": 100}}},
                 "b": {"handler": {"cpu_ms": {"constant": 100}}}},
      "backlog": [{"where": "main", "kind": "a", "count": 3},
                  {"where": "main", "kind": "b", "count": 20}],
      "workers": {"count": 1},
      "retry": {"delivery": "republish",
                "backoff": {"kind": "exponential", "base_s": 1, "factor": 2, "cap_s": 60,
                            "jitter": {"kind": "none"}},
                "classes": {"transient": {"action": "retry", "attempts_max": 4}}})") +
                    (bug ? R"(, "faults": [{"type": "bug", "kind": "a", "fraction": 1,
                               "error": "transient", "from_s": 0, "fixed_at_s": 0.5}])"
                         : ""),
                100);
  };
  Recorder rec;
  const Results r = RunAudited(scenario(true), rec);
  CheckConserved(r);
  CHECK(r.acked == 23);
  CHECK(r.ordering_violations == 3);
  for (uint64_t id = 0; id < 3; ++id) {
    REQUIRE(rec.StartTimes(id).size() == 2);
    CHECK(rec.StartTimes(id)[1] >= 2.0);  // behind every "b" record
  }
  Recorder in_order;
  const Results clean = RunAudited(scenario(false), in_order);
  CheckConserved(clean);
  CHECK(clean.ordering_violations == 0);
}

}  // namespace
}  // namespace kafka_partitions_test
}  // namespace drainsim::model
