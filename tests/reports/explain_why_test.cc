// `drainsim explain`'s "why" paragraph (reports/explain_why.cc) for every way a message can end
// up needing a human: each DLQ reason and each kind of parking, each on the smallest scenario
// that produces it, run through the model with the recorder explain uses. Also each ending
// (acked, parked, expired, refused at publish, still in the DLQ, still in flight) and the
// comebacks a suppressed duplicate names.
#include <catch2/catch.hpp>
#include <string>

#include "experiments/explain.h"
#include "reports/explain_report.h"
#include "sim/model/trace_log.h"
#include "tests/model/scenario_fixture.h"
#include "tests/reports/explain_fixture.h"

namespace drainsim::reports {
namespace explain_why_test {
namespace {

using model::testing::LoadOrFail;

struct Explained {
  std::string why;  // WhyParagraph of the one life
  std::string all;  // ExplainLives: the lines, then "why: ..."
};

// Runs `s` as `drainsim explain --message id` does and explains the one life.
Explained Explain(const config::Scenario& s, uint64_t id) {
  const model::TraceLog log = testing::TraceOfMessage(s, id);
  const ExplainScene scene = experiments::ExplainSceneOf(s);
  return {WhyParagraph(log.lives[0], log, scene), ExplainLives(log, scene)};
}

// One job in the main queue at 0 that `fault` fails, on one worker; `extra` adds top-level
// members (broker, retry, drains...).
config::Scenario OneJob(const std::string& fault, const std::string& extra) {
  return LoadOrFail(R"({"format_version": 1, "name": "why", "run": {"until_s": 1000},
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 100}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 1}],
    "workers": {"count": 1, "prefetch": 1},
    "faults": [)" + fault +
                    "]" + extra + "}");
}

constexpr const char* kPoisonTransient =
    R"({"type": "poison", "kind": "job", "fraction": 1, "error": "transient", "fail_after_ms": 100})";
constexpr const char* kConstantBackoff =
    R"("backoff": {"kind": "constant", "delay_s": 1, "jitter": {"kind": "none"}})";

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_CASE("explain why: each DLQ reason is explained", "[reports][explain]") {
  SECTION("max_attempts names the class's attempts_max") {
    const Explained e =
        Explain(OneJob(kPoisonTransient, std::string(R"(, "retry": {)") + kConstantBackoff +
                                             R"(, "classes": {"transient": {"attempts_max": 3}}})"),
                0);
    INFO(e.all);
    CHECK(Has(e.why,
              "(max_attempts): its attempts reached the retry policy's attempts_max (3) "
              "for transient errors."));
    CHECK(Has(e.why, "Failed attempts: 3 x transient (injected by fault 0, poison)."));
    CHECK(Has(e.why,
              "It was still in the DLQ when the run stopped at 2.300 s after 3 "
              "attempts: it needs a human."));
  }
  SECTION("not_retryable: the class goes to the DLQ at once") {
    const Explained e =
        Explain(OneJob(R"({"type": "poison", "kind": "job", "fraction": 1, "error": "permanent"})",
                       R"(, "retry": {"classes": {"permanent": {"action": "dead_letter"}}})"),
                0);
    INFO(e.all);
    CHECK(Has(e.why,
              "(not_retryable): permanent errors are not retried: they go to the DLQ "
              "at once."));
    CHECK(Has(e.why, "after 1 attempt: it needs a human."));
  }
  SECTION("receive_count_max: the broker's count of deliveries") {
    const Explained e =
        Explain(OneJob(kPoisonTransient,
                       R"(, "broker": {"visibility_timeout_s": 30, "receive_count_max": 3},
                          "retry": {"delivery": "visibility_timeout",
                                    "classes": {"transient": {"attempts_max": 100}}})"),
                0);
    INFO(e.all);
    CHECK(Has(e.why,
              "(receive_count_max): the broker had delivered it broker.receive_count_max "
              "times."));
  }
  SECTION("receive_count_max after throttled receives: received, never run") {
    // One execution environment, two messages of 10 s: at 0 s a poller invokes the function
    // with message 0 and another poller's receive of message 1 is throttled (receive 1 of 1).
    // At 30 s its visibility timeout ends; the next receive is the 2nd, past maxReceiveCount 1:
    // dead-lettered without ever running.
    const Explained e = Explain(LoadOrFail(R"({"format_version": 1, "name": "why",
          "run": {"until_s": 100},
          "kinds": {"job": {"handler": {"cpu_ms": {"constant": 10000}}}},
          "backlog": [{"where": "main", "kind": "job", "count": 2}],
          "broker": {"preset": "sqs", "receive_count_max": 1},
          "workers": {"count": 1, "lambda_esm": {"function_concurrency": 1}}})"),
                                1);
    INFO(e.all);
    CHECK(Has(e.why,
              "(receive_count_max): the broker had delivered it broker.receive_count_max "
              "times, 1 of those receives throttled by the Lambda event-source mapping (every "
              "execution environment busy) and 0 runs."));
    CHECK(Has(e.why, "after 0 attempts: it needs a human."));
  }
  SECTION("retry_budget: the budget refused the retry") {
    const Explained e =
        Explain(OneJob(kPoisonTransient,
                       std::string(R"(, "retry": {)") + kConstantBackoff +
                           R"(, "budget": {"ratio": 0.1, "burst": 1, "window_s": 86400}})"),
                0);
    INFO(e.all);
    CHECK(Has(e.why, "(retry_budget): the retry budget refused another retry."));
    CHECK(Has(e.why, "Failed attempts: 2 x transient"));
  }
  SECTION("max_length: dropped from the head of a full queue") {
    // Three jobs at once, one worker with one slot, room for one waiting: the second is dropped
    // when the third arrives.
    const Explained e =
        Explain(LoadOrFail(R"({"format_version": 1, "name": "why", "run": {"until_s": 100},
          "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1000}}}},
          "producers": [{"kind": "job", "burst": {"at_s": 0, "count": 3}}],
          "broker": {"max_length": 1, "overflow": "drop_head"},
          "workers": {"count": 1, "prefetch": 1}})"),
                1);
    INFO(e.all);
    CHECK(Has(e.why,
              "(max_length): the main queue was over broker.max_length and dropped its "
              "oldest message."));
    CHECK(Has(e.why, "after 0 attempts: it needs a human."));
  }
  SECTION("delivery_limit names the limit") {
    const Explained e =
        Explain(OneJob(kPoisonTransient, R"(, "broker": {"preset": "rabbitmq-quorum"})"), 0);
    INFO(e.all);
    CHECK(Has(e.why, "(delivery_limit): its counted returns exceeded broker.delivery_limit (20)."));
  }
  SECTION("stalled: the lock ran out too often") {
    config::Scenario s = LoadOrFail(R"({"format_version": 1, "name": "why",
      "run": {"until_s": 3600},
      "kinds": {"job": {"handler": {"cpu_ms": {"constant": 45000}}}},
      "backlog": [{"where": "main", "kind": "job", "count": 1}],
      "broker": {"visibility_timeout_s": 30, "lock_renewal": true, "stalled_check_s": 30,
                 "stalled_count_max": 1},
      "workers": {"count": 2, "prefetch": 1}})");
    const Explained e = Explain(s, 0);
    INFO(e.all);
    CHECK(Has(e.why,
              "(stalled): its lock ran out more than broker.stalled_count_max times (a "
              "stalled job)."));
  }
  SECTION("broker_lost, worker_lost: its worker died under requeue_on_crash fail") {
    const Explained e =
        Explain(LoadOrFail(R"({"format_version": 1, "name": "why", "run": {"until_s": 100},
          "kinds": {"job": {"handler": {"cpu_ms": {"constant": 10000}}}},
          "backlog": [{"where": "main", "kind": "job", "count": 1}],
          "broker": {"requeue_on_crash": "fail"},
          "workers": {"count": 1, "prefetch": 1, "restart_s": 0},
          "faults": [{"type": "worker_crash", "at_s": 5, "count": 1}]})"),
                0);
    INFO(e.all);
    CHECK(Has(e.why,
              "The broker discarded it at 5.000 s after 1 attempt (broker_lost, cause "
              "worker_lost): its worker died while running it, and the message was acked as "
              "failed (requeue_on_crash fail). Nothing will run it again."));
    CHECK(Has(e.all, "discarded by the broker: broker_lost, cause worker_lost"));
  }
  SECTION("broker_lost, dlq_full, and at least once: waiting for room") {
    const std::string body = R"({"format_version": 1, "name": "why", "run": {"until_s": 100},
          "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1}}}},
          "backlog": [{"where": "main", "kind": "job", "count": 2}],
          "retry": {"classes": {"permanent": {"action": "dead_letter"}}},
          "workers": {"count": 1},
          "faults": [{"type": "poison", "kind": "job", "fraction": 1, "error": "permanent"}],
          "broker": {"dlq_max_length": 1, "dlq_overflow": "reject_publish",
                     "dlq_retention_s": null)";
    const Explained lost = Explain(LoadOrFail(body + "}}"), 1);
    INFO(lost.all);
    CHECK(Has(lost.why,
              "(broker_lost, cause dlq_full): it was dead-lettered at most once into a "
              "DLQ at broker.dlq_max_length that refuses (dlq_overflow reject_publish)"));
    const Explained waiting =
        Explain(LoadOrFail(body + R"(, "dead_letter_strategy": "at_least_once"}})"), 1);
    INFO(waiting.all);
    CHECK(Has(waiting.why, "It was still waiting for room in the full DLQ when the run stopped"));
    CHECK(Has(waiting.all,
              "refused by the full DLQ (reason not_retryable): waits in the main "
              "queue for room"));
  }
}

TEST_CASE("explain why: each way of parking is explained", "[reports][explain]") {
  SECTION("the retry policy parks the class") {
    const Explained e =
        Explain(OneJob(R"({"type": "poison", "kind": "job", "fraction": 1, "error": "permanent"})",
                       R"(, "retry": {"classes": {"permanent": {"action": "park"}}})"),
                0);
    INFO(e.all);
    CHECK(Has(e.why, "It was parked at 0.000 s after 1 attempt: it needs a human."));
    CHECK(Has(e.why, "The retry policy parks permanent errors: a human has to look at it."));
  }
  SECTION("a drain whose selection leaves it out parks it") {
    const Explained e =
        Explain(LoadOrFail(R"({"format_version": 1, "name": "why", "run": {"until_s": 1000},
          "kinds": {"job": {"handler": {"cpu_ms": {"constant": 100}}}},
          "backlog": [{"where": "dlq", "kind": "job", "count": 1, "reason": "not_retryable"}],
          "workers": {"count": 1},
          "drains": [{"start_at_s": 100, "select": {"reasons": ["max_attempts"]},
                      "others": "park", "strategy": "bulk"}]})"),
                0);
    INFO(e.all);
    CHECK(Has(e.why,
              "Drain 0 parked it at 100.000 s because its selection does not replay "
              "not_retryable messages: a human has to look at it."));
    CHECK(Has(e.why, "It was parked at 100.000 s after 0 attempts"));
  }
  SECTION("a broker without a DLQ fails it for good") {
    const Explained e =
        Explain(OneJob(kPoisonTransient, std::string(R"(, "broker": {"dead_letter_queue": false},
               "retry": {)") + kConstantBackoff +
                                             R"(, "classes": {"transient": {"attempts_max": 2}}})"),
                0);
    INFO(e.all);
    CHECK(Has(e.why,
              "it failed for good (max_attempts): the broker has no DLQ, so a human has to "
              "look at it."));
  }
}

TEST_CASE("explain why: how the life ended", "[reports][explain]") {
  SECTION("acked at once: nothing unusual") {
    const Explained e = Explain(OneJob("", ""), 0);
    CHECK(e.why ==
          "It was acked at 0.100 s after 1 attempt. Nothing unusual: delivered once, ran "
          "once, acked.");
  }
  SECTION("expired in the DLQ") {
    const Explained e =
        Explain(LoadOrFail(R"({"format_version": 1, "name": "why", "run": {"until_s": 1000},
          "kinds": {"job": {"handler": {"cpu_ms": {"constant": 100}}}},
          "backlog": [{"where": "dlq", "kind": "job", "count": 1, "reason": "max_attempts"}],
          "broker": {"dlq_retention_s": 60},
          "workers": {"count": 1}})"),
                0);
    INFO(e.all);
    CHECK(Has(e.why, "It expired in the DLQ at "));
    CHECK(Has(e.why, "after 0 attempts: its work is lost."));
  }
  SECTION("refused at publish by a full queue") {
    const Explained e =
        Explain(LoadOrFail(R"({"format_version": 1, "name": "why", "run": {"until_s": 100},
          "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1000}}}},
          "producers": [{"kind": "job", "burst": {"at_s": 5, "count": 3}}],
          "broker": {"max_length": 1, "overflow": "reject_publish"},
          "workers": {"count": 1, "prefetch": 1}})"),
                2);
    INFO(e.all);
    CHECK(e.why == "It was refused at publish (5.000 s) by a full queue and never ran.");
  }
  SECTION("still running when the run stopped") {
    const Explained e =
        Explain(LoadOrFail(R"({"format_version": 1, "name": "why", "run": {"until_s": 10},
          "kinds": {"job": {"handler": {"cpu_ms": {"constant": 60000}}}},
          "backlog": [{"where": "main", "kind": "job", "count": 1}],
          "workers": {"count": 1}})"),
                0);
    INFO(e.all);
    CHECK(e.why == "It was still in_flight when the run stopped at 10.000 s after 1 attempt.");
  }
  SECTION("replayed by a drain, then acked: two lives") {
    const Explained e =
        Explain(LoadOrFail(R"({"format_version": 1, "name": "why", "run": {"until_s": 1000},
          "kinds": {"job": {"handler": {"cpu_ms": {"constant": 100}}}},
          "backlog": [{"where": "dlq", "kind": "job", "count": 1, "reason": "max_attempts"}],
          "workers": {"count": 1},
          "drains": [{"start_at_s": 100, "strategy": "bulk"}]})"),
                0);
    INFO(e.all);
    CHECK(Has(e.why, "It was acked at 100.100 s after 1 attempt in 2 lives (replays included)."));
    CHECK(Has(e.why, "Drain 0 replayed it at 100.000 s."));
  }
}

TEST_CASE("explain why: a duplicate execution says what its kind's idempotency made of it",
          "[reports][explain]") {
  // The worker dies between commit and ack; the message is requeued at once and runs again.
  auto crash_after_commit = [](const std::string& idempotency) {
    return LoadOrFail(R"({"format_version": 1, "name": "why", "run": {"until_s": 100},
      "kinds": {"job": {"idempotency": ")" +
                      idempotency +
                      R"(", "handler": {"db_ops": 1, "db_op_ms": {"constant": 10},
                                        "cpu_ms": {"constant": 1000}}}},
      "backlog": [{"where": "main", "kind": "job", "count": 1}],
      "database": {"connections": 1},
      "broker": {"requeue_on_crash": "immediate"},
      "workers": {"count": 1, "prefetch": 1, "restart_s": 1},
      "faults": [{"type": "worker_crash", "at_s": 0.5, "count": 1,
                  "point": "between_commit_and_ack"}]})");
  };
  SECTION("none: the second run was visible") {
    const Explained e = Explain(crash_after_commit("none"), 0);
    INFO(e.all);
    CHECK(Has(e.why,
              "(duplicate execution, cause crash_after_commit): its worker died between "
              "commit and ack"));
    CHECK(Has(e.why, "Its kind has idempotency none, so the second run was visible"));
  }
  SECTION("converge: the second run changed nothing") {
    const Explained e = Explain(crash_after_commit("converge"), 0);
    INFO(e.all);
    CHECK(Has(e.why, "Its kind converges: the second run changed nothing but cost its time."));
  }
  SECTION("claim: it came back after the crash and found the claim row") {
    const Explained e = Explain(crash_after_commit("claim"), 0);
    INFO(e.all);
    CHECK(Has(e.why,
              "it came back (its worker had crashed), found the claim row and stopped "
              "there: the work did not run twice."));
  }
}

// Runs `s` as `drainsim explain --key key` does: every life with the key.
std::string ExplainKey(const config::Scenario& s, const std::string& key) {
  model::TraceOptions options;
  options.spans = false;
  options.only_key = key;
  const model::TraceLog log = testing::Recorded(s, options);
  REQUIRE(!log.lives.empty());
  return ExplainLives(log, experiments::ExplainSceneOf(s));
}

TEST_CASE("explain why: a suppressed duplicate names how it came back", "[reports][explain]") {
  SECTION("its ack was lost: the visibility timeout") {
    const Explained e =
        Explain(LoadOrFail(R"({"format_version": 1, "name": "why", "run": {"until_s": 100},
          "kinds": {"job": {"idempotency": "claim", "handler": {"db_ops": 1,
                    "db_op_ms": {"constant": 10}, "cpu_ms": {"constant": 100}}}},
          "backlog": [{"where": "main", "kind": "job", "count": 1}],
          "database": {"connections": 1},
          "broker": {"visibility_timeout_s": 30},
          "workers": {"count": 1, "prefetch": 1},
          "faults": [{"type": "ack_loss", "probability": 1}]})"),
                0);
    INFO(e.all);
    CHECK(Has(e.all, "but its ack was lost (ack_loss)"));
    CHECK(Has(e.why,
              "it came back (the visibility timeout ran out; its ack was lost), found the "
              "claim row and stopped there: the work did not run twice."));
  }
}

TEST_CASE(
    "explain: the lines for a delayed backlog, a sleeping consumer and a main-queue "
    "retention",
    "[reports][explain]") {
  SECTION("a backlog message waiting in the delay queue, then due") {
    const Explained e =
        Explain(LoadOrFail(R"({"format_version": 1, "name": "why", "run": {"until_s": 100},
          "kinds": {"job": {"handler": {"cpu_ms": {"constant": 100}}}},
          "backlog": [{"where": "delayed", "kind": "job", "count": 1, "error": "transient",
                       "due_in_s": 30}],
          "workers": {"count": 1}})"),
                0);
    INFO(e.all);
    CHECK(Has(e.all, "in backlog entry 0 at the start, waiting in the delay queue"));
    CHECK(Has(e.all, "retry due: back in the main queue"));
  }
  SECTION("a retry that sleeps in the consumer holds its slot") {
    const Explained e = Explain(
        OneJob(kPoisonTransient, std::string(R"(, "retry": {"delivery": "sleep_in_consumer", )") +
                                     kConstantBackoff +
                                     R"(, "classes": {"transient": {"attempts_max": 2}}})"),
        0);
    INFO(e.all);
    CHECK(Has(e.all, "sleeping in the consumer until 1.100 s (backoff 1.000 s), holding its slot"));
  }
  SECTION("main-queue retention deletes a message before any worker takes it") {
    const Explained e =
        Explain(LoadOrFail(R"({"format_version": 1, "name": "why", "run": {"until_s": 1000},
          "kinds": {"job": {"handler": {"cpu_ms": {"constant": 60000}}}},
          "backlog": [{"where": "main", "kind": "job", "count": 2}],
          "broker": {"retention_s": 10},
          "workers": {"count": 1, "prefetch": 1}})"),
                1);
    INFO(e.all);
    CHECK(Has(e.all, "deleted by main-queue retention before delivery: lost"));
    // It never was in the DLQ (the paragraph used to say "It expired in the DLQ").
    CHECK(e.why ==
          "It expired in the main queue (broker.retention_s) at 60.000 s after 0 "
          "attempts: its work is lost.");
  }
}

TEST_CASE("explain: a key several messages carry gets a closing paragraph", "[reports][explain]") {
  const std::string text =
      ExplainKey(LoadOrFail(R"({"format_version": 1, "name": "why", "run": {"until_s": 100},
        "kinds": {"job": {"idempotency": "claim", "key_pattern": "{kind}",
                  "handler": {"db_ops": 1, "db_op_ms": {"constant": 10}}}},
        "backlog": [{"where": "main", "kind": "job", "count": 2}],
        "database": {"connections": 1},
        "workers": {"count": 1, "prefetch": 1}})"),
                 "job");
  INFO(text);
  CHECK(Has(text, "message 0 (kind job, key job)"));
  CHECK(Has(text, "message 1 (kind job, key job)"));
  CHECK(Has(text, "2 messages carry it; their work committed 1 times (0 duplicate executions)."));
}

}  // namespace
}  // namespace explain_why_test
}  // namespace drainsim::reports
