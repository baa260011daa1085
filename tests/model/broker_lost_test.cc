// Loss the broker causes by design (issue 18): broker_lost by cause, the at-least-once
// alternative that keeps refused dead letters waiting, and the conservation identity
// published = acked + parked + expired + dlq_end + rejected + broker_lost + not_terminal_end
// (CheckConserved) on each. Each case is small enough to count by hand.
#include <catch2/catch.hpp>
#include <string>

#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace broker_lost_test {
namespace {

using testing::CheckConserved;
using testing::LoadOrFail;
using testing::RunAudited;

int64_t LostBy(const Results& r, BrokerLossCause cause) {
  return r.broker_lost_by_cause[static_cast<size_t>(cause)];
}

// `count` messages that fail permanently after 1 s each and go straight to the DLQ, one worker;
// `broker` is the broker section's body.
config::Scenario Poisoned(int count, double until_s, const std::string& broker) {
  return LoadOrFail(R"({"format_version": 1, "name": "broker-lost", "run": {"until_s": )" +
                    std::to_string(until_s) + R"(},
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1}}}},
    "backlog": [{"where": "main", "kind": "job", "count": )" +
                    std::to_string(count) + R"(}],
    "workers": {"count": 1},
    "retry": {"classes": {"permanent": {"action": "dead_letter"}}},
    "broker": {)" + broker +
                    R"(},
    "faults": [{"type": "poison", "kind": "job", "fraction": 1, "error": "permanent",
                "fail_after_ms": 1000}]})");
}

TEST_CASE(
    "at-most-once dead-lettering into a full reject_publish DLQ loses the refused ones; "
    "at-least-once loses none",
    "[model][broker_lost]") {
  const std::string full_dlq =
      R"("dlq_max_length": 4, "dlq_overflow": "reject_publish", "dlq_retention_s": null)";
  const Results most = RunAudited(Poisoned(10, 1000, full_dlq));
  CheckConserved(most);
  CHECK(most.dlq_end == 4);
  CHECK(most.broker_lost == 6);
  CHECK(LostBy(most, BrokerLossCause::kDlqFull) == 6);
  CHECK(most.not_terminal_end == 0);
  CHECK(most.dlq_inflow == 4);  // the refused never entered

  const Results least =
      RunAudited(Poisoned(10, 1000, full_dlq + R"(, "dead_letter_strategy": "at_least_once")"));
  CheckConserved(least);
  CHECK(least.broker_lost == 0);
  CHECK(least.dlq_end == 4);
  CHECK(least.dead_letter_waiting_end == 6);
  CHECK(least.not_terminal_end == 6);  // kept in the main queue, undeliverable
  CHECK(!least.model_error);           // at rest: only room in the DLQ would move them
  CHECK(least.attempts == 10);         // a waiting dead letter is never delivered again
}

TEST_CASE("at-least-once: waiting dead letters enter, oldest first, as the DLQ makes room",
          "[model][broker_lost]") {
  // The first four enter at 1..4 s and expire 50 s later; each expiry lets the oldest waiting
  // one in, which expires 50 s after that: all ten expire, none is lost, none is left.
  const Results r = RunAudited(Poisoned(10, 1000,
                                        R"("dlq_max_length": 4, "dlq_overflow": "reject_publish",
      "dlq_retention_s": 50, "dead_letter_strategy": "at_least_once")"));
  CheckConserved(r);
  CHECK(r.broker_lost == 0);
  CHECK(r.expired == 10);
  CHECK(r.dlq_inflow == 10);
  CHECK(r.dead_letter_waiting_end == 0);
  CHECK(r.not_terminal_end == 0);
  // Messages 4..7 waited for 1..4 s's entries (expiring at 51..54 s), 8 and 9 for theirs
  // (expiring at 101..102 s): the last expiry is at 152 s.
  CHECK(r.ended_at_s == Approx(152).margin(1e-9));
}

TEST_CASE("a drop_head DLQ keeps trimming the oldest whatever the strategy",
          "[model][broker_lost]") {
  const Results r = RunAudited(Poisoned(10, 1000,
                                        R"("dlq_max_length": 4, "dlq_retention_s": null,
      "dead_letter_strategy": "at_least_once")"));
  CheckConserved(r);
  CHECK(r.broker_lost == 0);
  CHECK(r.dlq_end == 4);
  CHECK(r.dlq_trimmed == 6);
  CHECK(r.expired == 6);
}

TEST_CASE("without a DLQ: failed for a human by default, dropped as RabbitMQ without a DLX",
          "[model][broker_lost]") {
  const Results failed = RunAudited(Poisoned(3, 1000, R"("dead_letter_queue": false)"));
  CheckConserved(failed);
  CHECK(failed.parked == 3);
  CHECK(failed.broker_lost == 0);
  const Results dropped =
      RunAudited(Poisoned(3, 1000, R"("dead_letter_queue": false, "without_dlq": "dropped")"));
  CheckConserved(dropped);
  CHECK(dropped.parked == 0);
  CHECK(dropped.human_needed == 0);
  CHECK(dropped.broker_lost == 3);
  CHECK(LostBy(dropped, BrokerLossCause::kNoDeadLetterTarget) == 3);
}

// Three 10-second jobs prefetched by one consumer that crashes at 5 s and is back at once.
config::Scenario Crashing(const std::string& requeue_on_crash) {
  return LoadOrFail(R"({"format_version": 1, "name": "crash", "run": {"until_s": 100},
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 10000}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 3}],
    "workers": {"count": 1, "prefetch": 3, "restart_s": 0},
    "broker": {"requeue_on_crash": ")" +
                    requeue_on_crash + R"("},
    "faults": [{"type": "worker_crash", "at_s": 5, "count": 1}]})");
}

TEST_CASE("requeue_on_crash lost: every delivery the crashed consumer held is gone",
          "[model][broker_lost]") {
  const Results lost = RunAudited(Crashing("lost"));
  CheckConserved(lost);
  CHECK(lost.broker_lost == 3);  // the running one and the two in its buffer
  CHECK(LostBy(lost, BrokerLossCause::kCrash) == 3);
  CHECK(lost.acked == 0);
  const Results immediate = RunAudited(Crashing("immediate"));
  CheckConserved(immediate);
  CHECK(immediate.broker_lost == 0);
  CHECK(immediate.acked == 3);
}

TEST_CASE("sidekiq preset: a crash loses the jobs its process held (basic fetch)",
          "[model][broker_lost][sidekiq]") {
  const Results preset = RunAudited(LoadOrFail(R"({"format_version": 1, "name": "crash",
    "run": {"until_s": 100}, "broker": {"preset": "sidekiq"},
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 10000}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 2}],
    "workers": {"count": 1, "restart_s": 0},
    "faults": [{"type": "worker_crash", "at_s": 5, "count": 1}]})"));
  CheckConserved(preset);
  CHECK(preset.broker_lost == 1);  // the running job; the other was still in Redis
  CHECK(preset.acked == 1);
}

}  // namespace
}  // namespace broker_lost_test
}  // namespace drainsim::model
