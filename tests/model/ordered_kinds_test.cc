// broker.message_group_kind (docs/PRESETS.md, `message_group_kind`): Azure Service Bus sessions
// and Google Pub/Sub ordering keys beside SQS FIFO groups. Through the loader, every figure
// derived by hand in the comments and asserted exactly.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "sim/model/message_groups.h"
#include "tests/model/recorder.h"
#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace ordered_kinds_test {
namespace {

using testing::CheckConserved;
using testing::LoadOrFail;
using testing::Recorder;
using testing::RunRecorded;
using testing::Times;

// Publish and ack times by message id.
class Latencies final : public RunObserver {
 public:
  void OnPublish(const PublishInfo& i) override { published_s[i.message_id] = i.at.seconds(); }
  void OnTransition(const TransitionInfo& i) override {
    if (i.to == MessageState::kAcked) acked_s[i.message_id] = i.at.seconds();
  }
  std::map<uint64_t, double> published_s;
  std::map<uint64_t, double> acked_s;
};

// The p99 (nearest rank) of publish-to-ack latency of the acked messages `keep` accepts.
template <typename Keep>
double P99(const Latencies& l, Keep keep) {
  std::vector<double> latencies;
  for (const auto& [id, at] : l.acked_s) {
    if (keep(id)) latencies.push_back(at - l.published_s.at(id));
  }
  REQUIRE(!latencies.empty());
  std::sort(latencies.begin(), latencies.end());
  return latencies[(latencies.size() * 99 + 99) / 100 - 1];
}

int64_t Duplicates(const Results& r, DuplicateCause cause) {
  return r.duplicates_by_cause[static_cast<size_t>(cause)];
}

config::Scenario Load(const std::string& broker, const std::string& body, double until_s) {
  return LoadOrFail(R"({"format_version": 1, "name": "ordered", "run": {"until_s": )" +
                    std::to_string(until_s) + R"(}, "broker": {)" + broker + "}, " + body + "}");
}

TEST_CASE(
    "session: a poison message holds its session for MaxDeliveryCount runs, then is "
    "dead-lettered, while the other sessions flow",
    "[model][message_groups][session]") {
  // Service Bus (preset azure-service-bus): Abandon makes the message available again at once,
  // at its session's front, so it is the next one the session delivers; MaxDeliveryCount 10.
  // The poison message (id 0, the backlog's) fails 2 s into every run (fail_after_ms 2000):
  // run k starts at 2k s, k = 0..9, and fails at 2(k+1) s. After the tenth run its delivery
  // count is 10 = MaxDeliveryCount, and the receive that would be the eleventh dead-letters it,
  // at 20 s = 10 runs x 2 s: the session is held for 20 s. 20 orders a second for 600 s in 8
  // sessions on 4 receivers flow meanwhile.
  const auto scenario = [](bool poison) {
    return Load(R"("preset": "azure-service-bus", "message_groups": 8,
                   "message_group_kind": "session")",
                std::string(R"("kinds": {"bad": {"handler": {"cpu_ms": {"constant": 5}}},
                 "order": {"handler": {"cpu_ms": {"exponential": {"mean": 20}}}}},
      "backlog": [{"where": "main", "kind": "bad", "count": 1}],
      "producers": [{"kind": "order", "poisson": {"rate_per_s": 20, "until_s": 600}}],
      "workers": {"count": 4, "prefetch": 1, "concurrency": 1})") +
                    (poison ? R"(, "faults": [{"type": "poison", "kind": "bad", "fraction": 1,
                                  "error": "transient", "fail_after_ms": 2000}])"
                            : ""),
                900);
  };
  const uint32_t held = MessageGroups::GroupOf(0, 8);
  const auto other = [&](uint64_t id) { return MessageGroups::GroupOf(id, 8) != held; };
  const auto same = [&](uint64_t id) { return id != 0 && !other(id); };

  Latencies with;
  RunOptions options;
  options.audit_every_event = true;
  options.observer = &with;
  const Results r = RunSimulation(scenario(true), 1, options);
  CheckConserved(r);
  Recorder rec;
  CheckConserved(RunRecorded(scenario(true), rec));
  CHECK(rec.StartTimes(0) == Times{0, 2, 4, 6, 8, 10, 12, 14, 16, 18});
  CHECK(rec.TimesTo(0, MessageState::kDeadLettered) == Times{20});
  CHECK(r.group_hold_max_s == 20.0);
  CHECK(r.dlq_end == 1);
  CHECK(r.ordering_violations == 0);
  CHECK(r.message_groups == 8);
  // Nothing of the held session ran before the poison message left it.
  for (const Recorder::Start& s : rec.starts) {
    if (same(s.id)) CHECK(s.at_s >= 20);
  }

  Latencies without;
  options.observer = &without;
  const Results clean = RunSimulation(scenario(false), 1, options);
  CheckConserved(clean);
  CHECK(clean.dlq_end == 0);
  // The other sessions' p99 is the clean run's within 5% (the poison's ten 2 s runs take one
  // receiver of four for 20 s of 600); the held session's messages waited out the hold.
  const double p99_with = P99(with, other);
  const double p99_without = P99(without, other);
  CHECK(p99_with == Approx(p99_without).epsilon(0.05));
  CHECK(p99_with < 1.0);
  CHECK(P99(with, same) > 10);
  CHECK(P99(without, same) < 1.0);
}

// Pub/Sub (preset pubsub) with one ordering key and one subscriber that takes four messages at
// a time (prefetch 4, concurrency 1). Message 0 (kind first) fails its runs while the bug is
// on; messages 1..3 (kind rest) never fail. Every run takes 1 s.
config::Scenario OneKey(double bug_fixed_at_s) {
  return Load(R"("preset": "pubsub", "message_groups": 1, "message_group_kind": "ordering_key")",
              R"("kinds": {"first": {"handler": {"cpu_ms": {"constant": 1000}}},
                           "rest": {"handler": {"cpu_ms": {"constant": 1000}}}},
      "backlog": [{"where": "main", "kind": "first", "count": 1},
                  {"where": "main", "kind": "rest", "count": 3}],
      "workers": {"count": 1, "prefetch": 4, "concurrency": 1},
      "faults": [{"type": "bug", "kind": "first", "fraction": 1, "error": "transient",
                  "fail_after_ms": 1000, "from_s": 0, "fixed_at_s": )" +
                  std::to_string(bug_fixed_at_s) + "}]",
              400);
}

TEST_CASE(
    "ordering_key: a nack redelivers the key's later messages delivered with it, as "
    "duplicate executions",
    "[model][message_groups][ordering_key]") {
  // t = 0: the subscriber takes the key's four messages at once (K = 4). Message 0 runs 0-1 s,
  // fails (the bug, fixed at 5 s) and is nacked: the retry policy (10 s, doubling) delays it to
  // 1 + 10 = 11 s, and the key waits for it. Messages 1, 2, 3 were delivered after it: they run
  // 1-2, 2-3, 3-4 s, commit, and are delivered again instead of acked. At 11 s message 0 is
  // back in its place, and the four go out together again: 0 runs 11-12 s (its first success),
  // then 1, 2, 3 run 12-13, 13-14, 14-15 s: three duplicate executions (K - 1), cause
  // ordering_key, acked in key order. Eight runs; the key is held by message 0 from 0 to 12 s.
  Recorder rec;
  const Results r = RunRecorded(OneKey(5), rec);
  CheckConserved(r);
  CHECK(rec.StartTimes(0) == Times{0, 11});
  CHECK(rec.StartTimes(1) == Times{1, 12});
  CHECK(rec.StartTimes(2) == Times{2, 13});
  CHECK(rec.StartTimes(3) == Times{3, 14});
  CHECK(rec.TimesTo(1, MessageState::kReady) == Times{2});
  CHECK(rec.TimesTo(3, MessageState::kReady) == Times{4});
  for (uint64_t id = 0; id < 4; ++id) {
    CHECK(rec.TimesTo(id, MessageState::kAcked) == Times{12.0 + static_cast<double>(id)});
  }
  CHECK(r.acked == 4);
  CHECK(r.attempts == 8);
  CHECK(r.duplicate_executions == 3);
  CHECK(Duplicates(r, DuplicateCause::kOrderingKey) == 3);
  CHECK(r.ordering_violations == 0);
  CHECK(r.group_hold_max_s == 12.0);
  CHECK(r.dlq_end == 0);
}

TEST_CASE(
    "ordering_key: a poison message goes to the dead-letter topic after its attempts, and "
    "the key's later messages delivered with it each time go with it",
    "[model][message_groups][ordering_key]") {
  // The bug never ends: message 0 fails every run. Batch n (n = 1..5) starts with message 0,
  // which fails 1 s in; messages 1..3 run the next 3 s and are delivered again; the retry
  // policy delays message 0 by 10 x 2^(n-1) s (10, 20, 40, 80, 160 s). Batch n starts at
  //   s(1) = 0, s(n+1) = s(n) + 1 + 10 x 2^(n-1):  0, 11, 32, 73, 154,
  // and message 0's fifth delay ends at 155 + 160 = 315 s. Every delivery counts towards max
  // delivery attempts (5), the redeliveries the key forced too: at 315 s all four have been
  // delivered 5 times, and the receives that would be their sixth forward them to the
  // dead-letter topic, one after the other at 315 s. Runs: 5 of message 0, 5 x 3 of 1..3, of
  // which the last 4 x 3 = 12 repeat committed work: 12 duplicates, cause ordering_key, and
  // nothing acked. Message 0 holds the key from 0 to 315 s.
  Recorder rec;
  const Results r = RunRecorded(OneKey(399), rec);
  CheckConserved(r);
  CHECK(rec.StartTimes(0) == Times{0, 11, 32, 73, 154});
  CHECK(rec.StartTimes(1) == Times{1, 12, 33, 74, 155});
  CHECK(rec.StartTimes(3) == Times{3, 14, 35, 76, 157});
  for (uint64_t id = 0; id < 4; ++id) {
    CHECK(rec.TimesTo(id, MessageState::kDeadLettered) == Times{315});
  }
  CHECK(Duplicates(r, DuplicateCause::kOrderingKey) == 12);
  CHECK(r.duplicate_executions == 12);
  CHECK(r.attempts == 20);
  CHECK(r.acked == 0);
  CHECK(r.group_hold_max_s == 315.0);
}

TEST_CASE("fifo_group: an explicit kind is the default's run", "[model][message_groups]") {
  // message_group_kind "fifo_group" changes nothing: the same fingerprint as without it.
  const std::string body =
      R"("kinds": {"k": {"handler": {"cpu_ms": {"exponential": {"mean": 30}}}}},
      "producers": [{"kind": "k", "poisson": {"rate_per_s": 50, "until_s": 60}}],
      "workers": {"count": 3, "prefetch": 2, "concurrency": 1})";
  const Results plain =
      RunSimulation(Load(R"("preset": "sqs", "message_groups": 5)", body, 120), 7, {});
  const Results kind = RunSimulation(
      Load(R"("preset": "sqs", "message_groups": 5, "message_group_kind": "fifo_group")", body,
           120),
      7, {});
  CHECK(plain.fingerprint == kind.fingerprint);
  CHECK(plain.acked == kind.acked);
}

}  // namespace
}  // namespace ordered_kinds_test
}  // namespace drainsim::model
