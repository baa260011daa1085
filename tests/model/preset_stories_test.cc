// One test per documented rule of each broker preset (scenarios/presets/README.md), through the
// loader: each scenario names only `broker.preset` and what its story overrides, so the preset's
// table is what is under test. Expectations are exact, derived in the comments.
#include <catch2/catch.hpp>
#include <string>

#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace preset_stories_test {
namespace {

using testing::CheckConserved;
using testing::LoadOrFail;
using testing::RunAudited;

// A scenario under `preset`: kinds, backlog and the rest come from `body` (JSON members).
config::Scenario Under(const std::string& preset, double until_s, const std::string& body,
                       const std::string& broker_extra = "") {
  return LoadOrFail(R"({"format_version": 1, "name": "preset-story", "run": {"until_s": )" +
                    std::to_string(until_s) + R"(}, "broker": {"preset": ")" + preset + "\"" +
                    broker_extra + "}, " + body + "}");
}

// One job that always fails with a transient error after `fail_after_ms`, on `workers`
// workers.
std::string AlwaysFailing(int count, int workers, int fail_after_ms,
                          const std::string& extra = "") {
  return R"("kinds": {"job": {"handler": {"cpu_ms": {"constant": 1}}}},
    "backlog": [{"where": "main", "kind": "job", "count": )" +
         std::to_string(count) + R"(}],
    "workers": {"count": )" +
         std::to_string(workers) + R"(},
    "faults": [{"type": "poison", "kind": "job", "fraction": 1, "error": "transient",
                "fail_after_ms": )" +
         std::to_string(fail_after_ms) + "}]" + extra;
}

const DlqSample& OnlyDlqSample(const Results& r) {
  REQUIRE(r.dlq_sample.size() == 1);
  return r.dlq_sample[0];
}

// ---- sqs --------------------------------------------------------------------------------

TEST_CASE(
    "sqs: a failure waits out the 30 s visibility timeout, and the 11th receive moves it to "
    "the DLQ",
    "[model][preset][sqs]") {
  const Results r = RunAudited(Under("sqs", 10000, AlwaysFailing(1, 2, 1000)));
  CheckConserved(r);
  CHECK(r.attempts == 10);  // receives at 0, 30, ..., 270: no backoff of its own
  CHECK(OnlyDlqSample(r).reason == "receive_count_max");
  CHECK(OnlyDlqSample(r).dead_lettered_at_s == Approx(300).margin(1e-9));
}

TEST_CASE("sqs: a crashed consumer's message reappears only when its visibility timeout ends",
          "[model][preset][sqs]") {
  const Results r = RunAudited(Under("sqs", 1000, R"(
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 10000}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 1}],
    "workers": {"count": 1, "restart_s": 0},
    "faults": [{"type": "worker_crash", "at_s": 5, "count": 1}])"));
  CheckConserved(r);
  CHECK(r.acked == 1);
  CHECK(r.attempts == 2);
  CHECK(r.ended_at_s == Approx(40).margin(1e-9));  // redelivered at 30, done at 40
}

TEST_CASE("sqs: a redrive of 10,000 messages at the 500/s cap takes 20 s", "[model][preset][sqs]") {
  const Results r = RunAudited(Under("sqs", 1000, R"(
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1}}}},
    "backlog": [{"where": "dlq", "kind": "job", "count": 10000, "reason": "receive_count_max"}],
    "workers": {"count": 10},
    "drains": [{"start_at_s": 100, "strategy": "bulk"}])"));
  CheckConserved(r);
  CHECK(r.replays == 10000);
  REQUIRE(r.drains[0].ended_at_s);
  // The move task moves message k at 100 + k / 500 s, k = 1..10,000.
  CHECK(*r.drains[0].ended_at_s == Approx(120).margin(1e-6));
  CHECK(r.drains[0].achieved_rate_per_s <= 500.0);
  CHECK(r.drains[0].achieved_rate_per_s == Approx(500).epsilon(1e-4));
}

TEST_CASE("sqs: a redriven message is new: its receive count starts again",
          "[model][preset][sqs]") {
  const Results r = RunAudited(Under("sqs", 10000, AlwaysFailing(1, 1, 1000, R"(,
    "drains": [{"start_at_s": 1000, "strategy": "bulk"}])")));
  CheckConserved(r);
  CHECK(r.attempts == 20);  // 10 receives, redrive, 10 more
  CHECK(r.refilled == 1);
  CHECK(OnlyDlqSample(r).dead_letters == 2);  // the x-death count spans both lives
  CHECK(OnlyDlqSample(r).first_reason == "receive_count_max");
  CHECK(OnlyDlqSample(r).dead_lettered_at_s == Approx(1300).margin(1e-6));
}

TEST_CASE("sqs: DLQ retention (4 days) counts from the original enqueue", "[model][preset][sqs]") {
  // Published 3 days before the run: it dies at 300 s and expires 1 day into the run.
  for (double until_s : {86399.0, 86401.0}) {
    INFO("until " << until_s);
    const Results r = RunAudited(Under("sqs", until_s, R"(
      "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1}}}},
      "backlog": [{"where": "main", "kind": "job", "count": 1, "age_s": 259200}],
      "workers": {"count": 1},
      "faults": [{"type": "poison", "kind": "job", "fraction": 1, "fail_after_ms": 1000}])"));
    CheckConserved(r);
    CHECK(r.expired == (until_s > 86400 ? 1 : 0));
  }
}

TEST_CASE("sqs: messages older than the 4-day retention are deleted before delivery",
          "[model][preset][sqs]") {
  const Results r = RunAudited(Under("sqs", 1000, R"(
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 50, "age_s": 345600},
                {"where": "main", "kind": "job", "count": 50, "age_s": 3600}],
    "workers": {"count": 5})"));
  CheckConserved(r);
  CHECK(r.retention_expired == 50);
  CHECK(r.acked == 50);
}

TEST_CASE(
    "sqs: every receive counts, so a message whose deletes are all lost is dead-lettered "
    "after 10 receives although it never failed",
    "[model][preset][sqs]") {
  const Results r = RunAudited(Under("sqs", 10000, R"(
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1000}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 1}],
    "workers": {"count": 1},
    "faults": [{"type": "ack_loss", "probability": 1}])"));
  CheckConserved(r);
  CHECK(r.attempts == 10);
  CHECK(r.successes == 10);
  CHECK(r.duplicate_executions == 9);
  CHECK(OnlyDlqSample(r).reason == "receive_count_max");
  CHECK(OnlyDlqSample(r).dead_lettered_at_s == Approx(300).margin(1e-9));
}

TEST_CASE("sqs: one move task per queue, oldest dead letters first", "[model][preset][sqs]") {
  // Two messages die at 300 s and 301 s; one-message move tasks at 1000 s and 1000.5 s.
  const Results r = RunAudited(Under("sqs", 5000, AlwaysFailing(2, 1, 1000, R"(,
    "drains": [{"start_at_s": 1000, "strategy": "bounded", "limit": 1},
               {"start_at_s": 1000.5, "strategy": "bounded", "limit": 1}])")));
  CheckConserved(r);
  REQUIRE(r.drains[0].ended_at_s);
  REQUIRE(r.drains[1].started_at_s);
  // The second task waits for the first, which moves the oldest dead letter: message 0.
  CHECK(*r.drains[1].started_at_s >= *r.drains[0].ended_at_s);
  CHECK(r.drains[0].replayed == 1);
  CHECK(r.drains[1].replayed == 1);
  for (const DlqSample& d : r.dlq_sample) CHECK(d.replays == 1);  // each moved exactly once
}

// ---- rabbitmq-quorum ---------------------------------------------------------------------

TEST_CASE(
    "rabbitmq-quorum 4.3: a reject loop is dead-lettered past the delivery limit of 20, "
    "a nack loop never",
    "[model][preset][rabbitmq]") {
  SECTION("reject (the preset's requeue method)") {
    const Results r = RunAudited(Under("rabbitmq-quorum", 100, AlwaysFailing(1, 1, 1000)));
    CheckConserved(r);
    CHECK(r.attempts == 21);  // the 21st reject makes the count 21 > 20
    CHECK(OnlyDlqSample(r).reason == "delivery_limit");
    CHECK(OnlyDlqSample(r).dead_lettered_at_s == Approx(21).margin(1e-9));
  }
  SECTION("nack") {
    const Results r = RunAudited(Under("rabbitmq-quorum", 100, AlwaysFailing(1, 1, 1000, R"(,
      "retry": {"requeue_with": "nack"})")));
    CheckConserved(r);
    CHECK(r.attempts == 100);  // one a second until the run ends
    CHECK(r.dlq_end == 0);
    CHECK(r.not_terminal_end == 1);
  }
}

TEST_CASE("rabbitmq-quorum 4.0-4.2: every return counts, a nack loop too",
          "[model][preset][rabbitmq]") {
  for (const char* version : {"4.0", "4.2"}) {
    INFO(version);
    const Results r = RunAudited(Under("rabbitmq-quorum", 100, AlwaysFailing(1, 1, 1000, R"(,
      "retry": {"requeue_with": "nack"})"),
                                       std::string(R"(, "version": ")") + version + "\""));
    CheckConserved(r);
    CHECK(r.attempts == 21);
    CHECK(OnlyDlqSample(r).reason == "delivery_limit");
  }
}

TEST_CASE("rabbitmq-quorum: a crashed consumer's unacked messages are requeued at once",
          "[model][preset][rabbitmq]") {
  const Results r = RunAudited(Under("rabbitmq-quorum", 1000, R"(
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 10000}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 3}],
    "workers": {"count": 1, "prefetch": 3, "restart_s": 0},
    "faults": [{"type": "worker_crash", "at_s": 5, "count": 1}])"));
  CheckConserved(r);
  CHECK(r.acked == 3);
  CHECK(r.ended_at_s == Approx(35).margin(1e-9));  // back at 5, then 10 s each
}

// ---- sidekiq -----------------------------------------------------------------------------

TEST_CASE(
    "sidekiq: an always-failing job runs 26 times and dies 1,763,395 s plus jitter "
    "after its first failure",
    "[model][preset][sidekiq]") {
  const Results r = RunAudited(Under("sidekiq", 25 * 86400, AlwaysFailing(1, 1, 0)));
  CheckConserved(r);
  CHECK(r.attempts == 26);
  const DlqSample& d = OnlyDlqSample(r);
  CHECK(d.reason == "max_attempts");
  // sum over count = 0..24 of count^4 + 15, plus Sidekiq 8.1's rand(10 * (count + 1)), at most
  // sum (10 (count + 1) - 1) = 3,225 in all.
  const double gap_s = d.dead_lettered_at_s - d.first_failure_at_s;
  CHECK(gap_s >= 1763395);
  CHECK(gap_s <= 1763395 + 3225);
}

TEST_CASE("sidekiq: the dead set keeps the newest 9,999 jobs after a trim",
          "[model][preset][sidekiq]") {
  // ZREMRANGEBYRANK dead 0 -10000 after each death leaves 9,999 (docs/PRESETS-AUDIT.md 2).
  const Results r = RunAudited(Under("sidekiq", 1000, AlwaysFailing(10050, 50, 0, R"(,
    "retry": {"classes": {"transient": {"action": "retry", "attempts_max": 1}}})")));
  CheckConserved(r);
  CHECK(r.dlq_end == 9999);
  CHECK(r.dlq_trimmed == 51);
  CHECK(r.expired == 51);
}

TEST_CASE("sidekiq: dead jobs older than 180 days go at the next death, not before",
          "[model][preset][sidekiq]") {
  // 7 entries 179 days old pass 180 days one day in; a job that dies at about 25 h trims them.
  auto run = [](const char* dying) {
    return RunAudited(Under("sidekiq", 2 * 86400,
                            std::string(R"(
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1}}}},
    "backlog": [{"where": "dlq", "kind": "job", "count": 7, "age_s": 15465600},
                {"where": "dlq", "kind": "job", "count": 3, "age_s": 86400})") +
                                dying + R"(],
    "workers": {"count": 1},
    "retry": {"classes": {"transient": {"action": "retry", "attempts_max": 1}}},
    "faults": [{"type": "poison", "kind": "job", "fraction": 1, "error": "transient",
                "fail_after_ms": 0}])"));
  };
  const Results quiet = run("");
  CheckConserved(quiet);
  CHECK(quiet.expired == 0);  // no death, no trim (Sidekiq has no timer)
  CHECK(quiet.dlq_end == 10);
  const Results death =
      run(R"(, {"where": "delayed", "kind": "job", "count": 1, "due_in_s": 90000})");
  CheckConserved(death);
  CHECK(death.dlq_inflow == 1);
  CHECK(death.expired == 7);
  CHECK(death.dlq_trimmed == 0);
  CHECK(death.dlq_end == 4);
}

TEST_CASE(
    "sidekiq: 'retry all' replays the dead set at once, and a manual retry is not counted, "
    "so a job that still fails dies again at once",
    "[model][preset][sidekiq]") {
  const Results r = RunAudited(Under("sidekiq", 22 * 86400, AlwaysFailing(1000, 1, 0, R"(,
    "drains": [{"start_at_s": 1900000, "strategy": "bulk"}])")));
  CheckConserved(r);
  CHECK(r.replays == 1000);
  REQUIRE(r.drains[0].ended_at_s);
  CHECK(*r.drains[0].ended_at_s == Approx(1900000).margin(1e-9));  // no rate limit
  CHECK(r.attempts == 1000 * 27);
  CHECK(r.refilled == 1000);
}

// ---- celery ------------------------------------------------------------------------------

TEST_CASE("celery: max_retries 3, 180 s apart, then the task fails for a human (no DLQ)",
          "[model][preset][celery]") {
  const Results r = RunAudited(Under("celery", 10000, AlwaysFailing(1, 2, 0)));
  CheckConserved(r);
  CHECK(r.attempts == 4);
  CHECK(r.dlq_inflow == 0);
  CHECK(r.parked == 1);
  CHECK(r.human_needed_by_reason.at("failed:max_attempts") == 1);
  CHECK(r.ended_at_s == Approx(540).margin(1e-9));
}

TEST_CASE(
    "celery: a countdown longer than the 1 h visibility timeout is redelivered every hour "
    "and runs once per holder",
    "[model][preset][celery]") {
  const std::string body = R"(
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 0}}, "idempotency": "none"}},
    "backlog": [{"where": "main", "kind": "job", "count": 1}],
    "workers": {"count": 3},
    "faults": [{"type": "errors", "kind": "job", "probability": 1.0, "error": "transient",
                "until_s": 1}],
    "retry": {"backoff": {"kind": "constant", "delay_s": DELAY, "jitter": {"kind": "none"}}})";
  auto with_delay = [&](int delay_s) {
    std::string b = body;
    b.replace(b.find("DELAY"), 5, std::to_string(delay_s));
    return RunAudited(Under("celery", 20000, b));
  };
  const Results three_hours = with_delay(10800);
  CheckConserved(three_hours);
  CHECK(three_hours.acked == 1);
  CHECK(three_hours.duplicate_executions == 2);  // held since 0, +1 h, +2 h: three run at +3 h
  CHECK(three_hours.visible_duplicates == 2);
  const Results half_hour = with_delay(1800);
  CHECK(half_hour.duplicate_executions == 0);
}

TEST_CASE("celery: a worker lost mid-task is lost unless task_reject_on_worker_lost",
          "[model][preset][celery]") {
  const std::string body = R"(
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 10000}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 1}],
    "workers": {"count": 1, "restart_s": 0},
    "faults": [{"type": "worker_crash", "at_s": 5, "count": 1}])";
  const Results r = RunAudited(Under("celery", 1000, body));
  CheckConserved(r);
  CHECK(r.parked == 0);
  CHECK(r.human_needed == 0);  // acked as failed: nobody is told, nothing will run it
  CHECK(r.broker_lost == 1);
  CHECK(r.broker_lost_by_cause[static_cast<size_t>(BrokerLossCause::kWorkerLost)] == 1);
  // task_reject_on_worker_lost = True: the message is requeued and runs again.
  const Results requeued =
      RunAudited(Under("celery", 1000, body, R"(, "requeue_on_crash": "immediate")"));
  CheckConserved(requeued);
  CHECK(requeued.acked == 1);
  CHECK(requeued.ended_at_s == Approx(15).margin(1e-9));
}

// ---- bullmq ------------------------------------------------------------------------------

TEST_CASE("bullmq: attempts default to 1, and the failed set keeps the job",
          "[model][preset][bullmq]") {
  const Results r = RunAudited(Under("bullmq", 60 * 86400, AlwaysFailing(1, 1, 0)));
  CheckConserved(r);
  CHECK(r.attempts == 1);
  CHECK(r.dlq_end == 1);
  CHECK(r.expired == 0);
}

TEST_CASE("bullmq: exponential backoff waits round(2^(attemptsMade-1) * delay)",
          "[model][preset][bullmq]") {
  const Results r = RunAudited(Under("bullmq", 1000, AlwaysFailing(1, 1, 0, R"(,
    "retry": {"backoff": {"kind": "exponential", "base_s": 1, "factor": 2, "cap_s": 2592000,
                          "jitter": {"kind": "none"}},
              "classes": {"transient": {"action": "retry", "attempts_max": 4}}})")));
  CheckConserved(r);
  CHECK(r.attempts == 4);
  CHECK(OnlyDlqSample(r).dead_lettered_at_s == Approx(1 + 2 + 4).margin(1e-9));
}

TEST_CASE("bullmq: jitter only shortens a delay: round(2^(n-1) * delay) * U[1 - j, 1]",
          "[model][preset][bullmq]") {
  for (uint64_t seed : {1, 2, 3, 4, 5}) {
    INFO("seed " << seed);
    const Results r = RunAudited(Under("bullmq", 1000, AlwaysFailing(1, 1, 0, R"(,
      "retry": {"backoff": {"kind": "exponential", "base_s": 1, "factor": 2, "cap_s": 2592000,
                            "jitter": {"kind": "proportional", "low": 0.5, "high": 1}},
                "classes": {"transient": {"action": "retry", "attempts_max": 4}}})")),
                                 seed);
    CheckConserved(r);
    // Ceilings 1, 2, 4 s, each cut by up to half: between 3.5 s and 7 s in all.
    CHECK(OnlyDlqSample(r).dead_lettered_at_s >= 3.5);
    CHECK(OnlyDlqSample(r).dead_lettered_at_s <= 7.0);
  }
}

TEST_CASE(
    "bullmq: a job blocking its worker past the 30 s lock stalls, runs twice, and fails "
    "at the second stall",
    "[model][preset][bullmq]") {
  auto run = [](int cpu_ms) {
    return RunAudited(Under("bullmq", 1000,
                            R"(
      "kinds": {"job": {"handler": {"cpu_ms": {"constant": )" +
                                std::to_string(cpu_ms) + R"(}}}},
      "backlog": [{"where": "main", "kind": "job", "count": 1}],
      "workers": {"count": 2})"));
  };
  const Results heavy = run(45000);
  CheckConserved(heavy);
  CHECK(heavy.attempts == 2);  // lock lost at 30 (a check runs at 30), again at 60
  CHECK(OnlyDlqSample(heavy).reason == "stalled");
  CHECK(OnlyDlqSample(heavy).dead_lettered_at_s == Approx(60).margin(1e-9));
  const Results light = run(20000);
  CHECK(light.attempts == 1);
  CHECK(light.acked == 1);
}

// ---- pubsub ------------------------------------------------------------------------------

TEST_CASE("pubsub: 5 delivery attempts with 10-600 s backoff, then the dead-letter topic",
          "[model][preset][pubsub]") {
  const Results r = RunAudited(Under("pubsub", 10000, AlwaysFailing(1, 1, 1000, "")),
                               /*seed=*/2);
  CheckConserved(r);
  CHECK(r.attempts == 5);
  // Deliveries at 0, 11, 32, 73, 154 (nack after 1 s, then 10, 20, 40, 80 s); the fifth nack
  // waits 160 s and the sixth delivery attempt forwards it.
  CHECK(r.dlq_end + r.dlq_duplicates == r.dlq_inflow);
  CHECK(r.dlq_sample.front().dead_lettered_at_s == Approx(315).margin(1e-9));
}

TEST_CASE("pubsub: ack deadline expiries count as delivery attempts", "[model][preset][pubsub]") {
  const Results r = RunAudited(Under("pubsub", 1000, R"(
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 100000}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 1}],
    "workers": {"count": 6})",
                                     R"(, "dead_letter_duplicate_probability": 0)"));
  CheckConserved(r);
  CHECK(r.attempts == 5);  // delivered at 0, 10, 20, 30, 40; the attempt at 50 forwards it
  CHECK(OnlyDlqSample(r).reason == "receive_count_max");
  CHECK(OnlyDlqSample(r).dead_lettered_at_s == Approx(50).margin(1e-9));
}

TEST_CASE("pubsub: dead-lettering is best effort: about 1% land twice", "[model][preset][pubsub]") {
  const Results r = RunAudited(Under("pubsub", 100000, AlwaysFailing(20000, 200, 0, R"(,
    "retry": {"requeue_with": "nack"})"),
                                     R"(, "redelivery_backoff": null)"));
  CheckConserved(r);
  CHECK(r.dlq_inflow == 20000 + r.dlq_duplicates);
  // Binomial(20000, 0.01): mean 200, sd 14.1; 5 sd either side.
  CHECK(r.dlq_duplicates >= 130);
  CHECK(r.dlq_duplicates <= 270);
}

// ---- azure-service-bus -------------------------------------------------------------------

TEST_CASE("azure-service-bus: an abandon loop is dead-lettered after MaxDeliveryCount 10",
          "[model][preset][azure]") {
  const Results r = RunAudited(Under("azure-service-bus", 1000, AlwaysFailing(1, 1, 1000)));
  CheckConserved(r);
  CHECK(r.attempts == 10);
  CHECK(OnlyDlqSample(r).reason == "receive_count_max");
  CHECK(OnlyDlqSample(r).dead_lettered_at_s == Approx(10).margin(1e-9));
}

TEST_CASE(
    "azure-service-bus: lock expiries count as deliveries, so a job longer than the 60 s "
    "lock never completes and is dead-lettered, and the DLQ keeps it",
    "[model][preset][azure]") {
  const Results r = RunAudited(Under("azure-service-bus", 30 * 86400, R"(
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 90000}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 1}],
    "workers": {"count": 2})"));
  CheckConserved(r);
  CHECK(r.acked == 0);      // every completion comes after its lock expired: refused
  CHECK(r.attempts == 10);  // delivered at 0, 60, ..., 540
  CHECK(OnlyDlqSample(r).dead_lettered_at_s == Approx(600).margin(1e-9));
  CHECK(r.expired == 0);
}

}  // namespace
}  // namespace preset_stories_test
}  // namespace drainsim::model
