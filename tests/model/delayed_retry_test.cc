// broker.delayed_retry, RabbitMQ 4.3 quorum queues' delayed retry (docs/PRESETS.md; the rules
// from rabbit_fifo.erl@v4.3.5): a return waits min(min x max(1, delivery count), max), the count
// after this return's own; "failed" delays the counted returns (reject, crash), "returned" the
// others (nack); the delivery limit is checked at the return, before the wait; a due return is
// served before messages never delivered. Through the loader; times exact, derived in comments.
#include <catch2/catch.hpp>
#include <string>

#include "tests/model/recorder.h"
#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace delayed_retry_test {
namespace {

using testing::CheckConserved;
using testing::LoadOrFail;
using testing::Recorder;
using testing::RunAudited;
using testing::RunRecorded;
using testing::Times;

// rabbitmq-quorum 4.3 (reject and crash counted, returns served first) with `broker` added, a
// retry section `retry` and the rest `body`.
config::Scenario With(const std::string& broker, const std::string& retry, double until_s,
                      const std::string& body) {
  return LoadOrFail(R"({"format_version": 1, "name": "delayed-retry", "run": {"until_s": )" +
                    std::to_string(until_s) +
                    R"(}, "broker": {"preset": "rabbitmq-quorum", )" + broker +
                    "}, \"retry\": {" + retry + "}, " + body + "}");
}

// One worker, one at a time; message 0 fails every attempt after 1 s (then it is returned).
const char* const kPoison = R"("kinds": {"bad": {"handler": {"cpu_ms": {"constant": 1000}}}},
    "backlog": [{"where": "main", "kind": "bad", "count": 1}],
    "workers": {"count": 1, "prefetch": 1, "concurrency": 1},
    "faults": [{"type": "poison", "kind": "bad", "fraction": 1, "error": "transient",
                "fail_after_ms": 1000}])";

TEST_CASE("delayed_retry: min x delivery count up to max, the limit checked before the wait",
          "[model][broker_rules][rabbitmq]") {
  // Rejects count: returns at 1, 3, 6, 10, 14 wait 1, 2, 3, 3, 3 (counts 1..5, max 3); the sixth
  // reject, at 18, makes the count 6 > 5 and dead-letters at once, without a wait.
  Recorder rec;
  const Results r = RunRecorded(
      With(R"("delivery_limit": 5, "delayed_retry": {"type": "all", "min_s": 1, "max_s": 3})",
           R"("requeue_with": "reject")", 100, kPoison),
      rec);
  CheckConserved(r);
  CHECK(rec.StartTimes(0) == Times{0, 2, 5, 9, 13, 17});
  CHECK(rec.TimesTo(0, MessageState::kDelayed) == Times{1, 3, 6, 10, 14});
  CHECK(rec.TimesTo(0, MessageState::kDeadLettered) == Times{18});
  REQUIRE(r.dlq_sample.size() == 1);
  CHECK(r.dlq_sample[0].reason == "delivery_limit");
}

TEST_CASE("delayed_retry: max_s defaults to min_s, and a max below min is a constant max",
          "[model][broker_rules][rabbitmq]") {
  // Limit 3: the fourth reject dead-letters. Constant 2 s: returns at 1, 4, 7, dead at 10.
  Recorder constant;
  CheckConserved(RunRecorded(
      With(R"("delivery_limit": 3, "delayed_retry": {"type": "failed", "min_s": 2})",
           R"("requeue_with": "reject")", 100, kPoison),
      constant));
  CHECK(constant.StartTimes(0) == Times{0, 3, 6, 9});
  CHECK(constant.TimesTo(0, MessageState::kDeadLettered) == Times{10});
  // min 5, max 1: min(5 x count, 1) = 1 every time.
  Recorder below;
  CheckConserved(RunRecorded(
      With(R"("delivery_limit": 3, "delayed_retry": {"type": "all", "min_s": 5, "max_s": 1})",
           R"("requeue_with": "reject")", 100, kPoison),
      below));
  CHECK(below.StartTimes(0) == Times{0, 2, 4, 6});
  CHECK(below.TimesTo(0, MessageState::kDeadLettered) == Times{7});
}

TEST_CASE("delayed_retry: failed delays counted returns, returned the others, at min each time",
          "[model][broker_rules][rabbitmq]") {
  const std::string delayed = R"("delayed_retry": {"type": ")";
  const std::string tail = R"(", "min_s": 1, "max_s": 10})";
  SECTION("nack (not counted in 4.3) under returned: min every time, the count stays 0") {
    Recorder rec;
    CheckConserved(
        RunRecorded(With(delayed + "returned" + tail, R"("requeue_with": "nack")", 6.5, kPoison),
                    rec));
    CHECK(rec.StartTimes(0) == Times{0, 2, 4, 6});
  }
  SECTION("nack under all: the same") {
    Recorder rec;
    CheckConserved(
        RunRecorded(With(delayed + "all" + tail, R"("requeue_with": "nack")", 6.5, kPoison), rec));
    CHECK(rec.StartTimes(0) == Times{0, 2, 4, 6});
  }
  SECTION("nack under failed: not delayed") {
    Recorder rec;
    CheckConserved(RunRecorded(
        With(delayed + "failed" + tail, R"("requeue_with": "nack")", 6.5, kPoison), rec));
    CHECK(rec.StartTimes(0) == Times{0, 1, 2, 3, 4, 5, 6});
    CHECK(rec.TimesTo(0, MessageState::kDelayed).empty());
  }
  SECTION("reject under returned: not delayed") {
    Recorder rec;
    CheckConserved(RunRecorded(
        With(delayed + "returned" + tail, R"("requeue_with": "reject")", 6.5, kPoison), rec));
    CHECK(rec.StartTimes(0) == Times{0, 1, 2, 3, 4, 5, 6});
  }
}

TEST_CASE("delayed_retry: a crashed consumer's delivery waits under failed, not under returned",
          "[model][broker_rules][rabbitmq]") {
  // A 10 s job; the worker crashes at 5 s and restarts at once. 4.3 counts the crash (count 1):
  // under failed it waits 2 s, starts again at 7 and is acked at 17; under returned at once, 15.
  const std::string body = R"("kinds": {"job": {"handler": {"cpu_ms": {"constant": 10000}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 1}],
    "workers": {"count": 1, "restart_s": 0},
    "faults": [{"type": "worker_crash", "at_s": 5}])";
  for (const auto& [type, acked_at_s] : {std::pair<const char*, double>{"failed", 17},
                                         std::pair<const char*, double>{"returned", 15}}) {
    INFO(type);
    const Results r = RunAudited(With(std::string(R"("delayed_retry": {"type": ")") + type +
                                          R"(", "min_s": 2, "max_s": 60})",
                                      "\"delivery\": \"requeue\"", 100, body));
    CheckConserved(r);
    CHECK(r.acked == 1);
    CHECK(r.attempts == 2);
    CHECK(r.ended_at_s == Approx(acked_at_s).margin(1e-9));
  }
}

TEST_CASE("delayed_retry: others flow during the wait, and the due return goes before new ones",
          "[model][broker_rules][rabbitmq]") {
  // Message 0 fails after 1 s; 1..3 take 1 s. Limit 1. The reject at 1 waits 0.5 s while 1 runs
  // (1-2); at 2 the due return is served before 2 and 3, fails at 3 and is dead-lettered.
  const std::string body = R"("kinds": {"bad": {"handler": {"cpu_ms": {"constant": 1000}}},
              "good": {"handler": {"cpu_ms": {"constant": 1000}}}},
    "backlog": [{"where": "main", "kind": "bad", "count": 1},
                {"where": "main", "kind": "good", "count": 3}],
    "workers": {"count": 1, "prefetch": 1, "concurrency": 1},
    "faults": [{"type": "poison", "kind": "bad", "fraction": 1, "error": "transient",
                "fail_after_ms": 1000}])";
  Recorder rec;
  const Results r = RunRecorded(
      With(R"("delivery_limit": 1, "delayed_retry": {"type": "all", "min_s": 0.5})",
           R"("requeue_with": "reject")", 100, body),
      rec);
  CheckConserved(r);
  CHECK(rec.StartTimes(0) == Times{0, 2});
  CHECK(rec.TimesTo(0, MessageState::kDelayed) == Times{1});
  CHECK(rec.TimesTo(0, MessageState::kDeadLettered) == Times{3});
  CHECK(rec.StartTimes(1) == Times{1});
  CHECK(rec.StartTimes(2) == Times{3});
  CHECK(rec.StartTimes(3) == Times{4});
  CHECK(r.acked == 3);
}

}  // namespace
}  // namespace delayed_retry_test
}  // namespace drainsim::model
