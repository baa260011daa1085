// RabbitMQ quorum-queue rules by version (docs/PRESETS-AUDIT.md, section 1): what counts towards
// the delivery limit, where returned messages wait, and what the consumer timeout does (4.3
// cancels the consumer and returns only the timed-out delivery; up to 4.2 the channel closes).
// Through the loader; expectations are exact, derived in the comments.
#include <catch2/catch.hpp>
#include <string>

#include "tests/model/recorder.h"
#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace rabbitmq_quorum_test {
namespace {

using testing::CheckConserved;
using testing::LoadOrFail;
using testing::Recorder;
using testing::RunAudited;
using testing::RunRecorded;
using testing::Times;

// A scenario whose broker is `broker` (JSON members) and the rest `body`.
config::Scenario With(const std::string& broker, double until_s, const std::string& body) {
  return LoadOrFail(R"({"format_version": 1, "name": "rabbitmq-quorum", "run": {"until_s": )" +
                    std::to_string(until_s) + R"(}, "broker": {)" + broker + "}, " + body + "}");
}

// Times at which message `id` was returned by a visibility (consumer) timeout.
Times TimedOutAt(const Recorder& rec, uint64_t id) {
  Times out;
  for (const Recorder::Move& m : rec.moves) {
    if (m.id == id && m.to == MessageState::kReady &&
        m.cause == TransitionCause::kVisibilityTimeout)
      out.push_back(m.at_s);
  }
  return out;
}

// ---- what counts --------------------------------------------------------------------------

TEST_CASE(
    "rabbitmq-quorum 4.3: a consumer that crashes on every delivery is dead-lettered past "
    "the limit, as before 4.3",
    "[model][preset][rabbitmq]") {
  // A 10 s job; the worker crashes every 5 s (25 times) and restarts at once: each crash
  // returns the delivery, which goes straight back to the restarted worker.
  std::string crashes;
  for (int k = 1; k <= 25; ++k) {
    crashes += std::string(k > 1 ? ", " : "") + R"({"type": "worker_crash", "at_s": )" +
               std::to_string(5 * k) + "}";
  }
  const std::string body = R"("kinds": {"job": {"handler": {"cpu_ms": {"constant": 10000}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 1}],
    "workers": {"count": 1, "restart_s": 0},
    "faults": [)" + crashes +
                           "]";
  for (const char* version : {"4.3", "4.2"}) {
    INFO(version);
    const Results r = RunAudited(With(
        std::string(R"("preset": "rabbitmq-quorum", "version": ")") + version + "\"", 1000, body));
    CheckConserved(r);
    // The 21st crash (at 105 s) makes the count 21 > 20.
    CHECK(r.attempts == 21);
    REQUIRE(r.dlq_sample.size() == 1);
    CHECK(r.dlq_sample[0].reason == "delivery_limit");
    CHECK(r.dlq_sample[0].dead_lettered_at_s == Approx(105).margin(1e-9));
  }
  // Counting rejects only (drainsim's 4.3 rule before the audit), the job outlives the crashes:
  // after the 25th, at 125 s, it runs its 10 s and is acked.
  const Results r = RunAudited(
      With(R"("preset": "rabbitmq-quorum", "delivery_counted": ["reject"])", 1000, body));
  CheckConserved(r);
  CHECK(r.acked == 1);
  CHECK(r.attempts == 26);
  CHECK(r.ended_at_s == Approx(135).margin(1e-9));
}

// ---- where returns wait -------------------------------------------------------------------

TEST_CASE("requeue_position head: a returned message is delivered before those never delivered",
          "[model][broker_rules][rabbitmq]") {
  // One worker, one at a time; message 0 fails every attempt after 1 s, messages 1..3 take 1 s.
  // Limit 1: the second counted reject dead-letters message 0.
  const std::string body = R"("kinds": {"bad": {"handler": {"cpu_ms": {"constant": 1000}}},
              "good": {"handler": {"cpu_ms": {"constant": 1000}}}},
    "backlog": [{"where": "main", "kind": "bad", "count": 1},
                {"where": "main", "kind": "good", "count": 3}],
    "workers": {"count": 1, "prefetch": 1, "concurrency": 1},
    "faults": [{"type": "poison", "kind": "bad", "fraction": 1, "error": "transient",
                "fail_after_ms": 1000}])";
  SECTION("4.x: the returns queue is served first") {
    Recorder rec;
    const Results r =
        RunRecorded(With(R"("preset": "rabbitmq-quorum", "delivery_limit": 1)", 100, body), rec);
    CheckConserved(r);
    CHECK(rec.StartTimes(0) == Times{0, 1});  // returned at 1, next at once
    CHECK(rec.TimesTo(0, MessageState::kDeadLettered) == Times{2});
    CHECK(rec.StartTimes(1) == Times{2});
    CHECK(rec.StartTimes(3) == Times{4});
  }
  SECTION("3.13 (the back of the queue without a limit; the preset cannot tell): the tail") {
    Recorder rec;
    const Results r = RunRecorded(
        With(R"("preset": "rabbitmq-quorum", "version": "3.13", "delivery_limit": 1)", 100, body),
        rec);
    CheckConserved(r);
    CHECK(rec.StartTimes(0) == Times{0, 4});  // returned at 1, behind the three
    CHECK(rec.TimesTo(0, MessageState::kDeadLettered) == Times{5});
    CHECK(rec.StartTimes(1) == Times{1});
    CHECK(rec.StartTimes(3) == Times{3});
  }
}

// ---- the consumer timeout -----------------------------------------------------------------

// One consumer running two at a time (prefetch 2); a 100 s job (message 0) and five 25 s jobs
// (1..5); consumer timeout 60 s. The second slot runs 1 (0-25), 2 (25-50), 3 (50-75), ...
std::string TimeoutBody() {
  return R"("kinds": {"slow": {"handler": {"cpu_ms": {"constant": 100000}}},
              "fast": {"handler": {"cpu_ms": {"constant": 25000}}}},
    "backlog": [{"where": "main", "kind": "slow", "count": 1},
                {"where": "main", "kind": "fast", "count": 5}],
    "workers": {"count": 1, "prefetch": 2, "concurrency": 2})";
}

TEST_CASE("cancel_consumer: a consumer timeout returns only the delivery that timed out",
          "[model][sim][lease][rabbitmq]") {
  Recorder rec;
  const Results r = RunRecorded(With(R"("visibility_timeout_s": 60,
    "on_visibility_timeout": "cancel_consumer", "stale_ack": "refused")",
                                     400, TimeoutBody()),
                                rec);
  CheckConserved(r);
  REQUIRE(!TimedOutAt(rec, 0).empty());
  CHECK(TimedOutAt(rec, 0)[0] == 60);
  // Message 3, running on the same consumer at 60, stays with it and is acked once at 75.
  for (uint64_t id = 1; id <= 5; ++id) {
    INFO(id);
    CHECK(TimedOutAt(rec, id).empty());
    CHECK(rec.TimesTo(id, MessageState::kAcked).size() == 1);
  }
  CHECK(rec.TimesTo(3, MessageState::kAcked) == Times{75});
  // The stale run of message 0 ends at 100; its late ack settles nothing.
  bool stale_end_seen = false;
  for (const Recorder::End& end : rec.ends) {
    if (end.id == 0 && end.at_s == 100) {
      stale_end_seen = true;
      CHECK(end.ack == AckFate::kIgnored);
    }
  }
  CHECK(stale_end_seen);
}

TEST_CASE("close_channel, for comparison: the same timeout also returns the channel's other work",
          "[model][sim][lease][rabbitmq]") {
  Recorder rec;
  const Results r =
      RunRecorded(With(R"("visibility_timeout_s": 60, "on_visibility_timeout": "close_channel")",
                       400, TimeoutBody()),
                  rec);
  CheckConserved(r);
  CHECK(TimedOutAt(rec, 0).front() == 60);
  CHECK(TimedOutAt(rec, 3) == Times{60});  // running since 50: it runs again
  CHECK(rec.StartTimes(3).size() == 2);
  CHECK(TimedOutAt(rec, 1).empty());  // done at 25
}

TEST_CASE("rabbitmq-quorum 4.3: the consumer-timeout loop is never counted, 4.2's is",
          "[model][preset][rabbitmq]") {
  // A 40 min job against the 30 min consumer timeout: every delivery times out.
  const std::string body = R"("kinds": {"job": {"handler": {"cpu_ms": {"constant": 2400000}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 1}],
    "workers": {"count": 1})";
  const Results old =
      RunAudited(With(R"("preset": "rabbitmq-quorum", "version": "4.2")", 40000, body));
  CheckConserved(old);
  REQUIRE(old.dlq_sample.size() == 1);
  CHECK(old.dlq_sample[0].reason == "delivery_limit");
  CHECK(old.dlq_sample[0].dead_lettered_at_s == Approx(21 * 1800).margin(1e-6));
  const Results now = RunAudited(With(R"("preset": "rabbitmq-quorum")", 40000, body));
  CheckConserved(now);
  CHECK(now.dlq_end == 0);
  CHECK(now.acked == 0);
  CHECK(now.not_terminal_end == 1);
}

}  // namespace
}  // namespace rabbitmq_quorum_test
}  // namespace drainsim::model
