// Broker rules behind the presets (docs/PRESETS.md), each on a small scenario with an exact
// expectation. The presets themselves are tested in presets_test.cc; these set the general
// fields one at a time, so a rule is pinned independently of any preset's table.
#include <catch2/catch.hpp>
#include <string>

#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace broker_rules_test {
namespace {

using engine::Duration;
using testing::CheckConserved;
using testing::LoadOrFail;
using testing::RunAudited;

// `count` messages of a kind that always fails with a transient error after 1 s of work, on
// `workers` single-slot workers.
config::Scenario Poison(int count, int workers, double until_s, const std::string& extra = "") {
  return LoadOrFail(R"({"format_version": 1, "name": "rules", "run": {"until_s": )" +
                    std::to_string(until_s) + R"(},
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1000}}}},
    "backlog": [{"where": "main", "kind": "job", "count": )" +
                    std::to_string(count) + R"(}],
    "workers": {"count": )" +
                    std::to_string(workers) + R"(},
    "faults": [{"type": "poison", "kind": "job", "fraction": 1, "error": "transient",
                "fail_after_ms": 1000}])" +
                    extra + "}");
}

void AllClassesRetry(config::Scenario& s, int64_t attempts_max) {
  for (config::ClassPolicy* c : {&s.retry.classes.rate_limited, &s.retry.classes.transient,
                                 &s.retry.classes.permanent, &s.retry.classes.unknown}) {
    *c = config::ClassPolicy{config::ClassAction::kRetry, attempts_max, false, std::nullopt};
  }
}

TEST_CASE(
    "visibility_timeout retries: a failed message reappears when its timeout ends and "
    "dead-letters past receive_count_max",
    "[model][broker_rules][sqs]") {
  config::Scenario s = Poison(1, 2, 10000);
  AllClassesRetry(s, 1000);
  s.retry.delivery = config::RetryDelivery::kVisibilityTimeout;
  s.broker.visibility_timeout = Duration::Seconds(30);
  s.broker.receive_count_max = 10;
  const Results r = RunAudited(s);
  CheckConserved(r);
  CHECK(r.attempts == 10);  // received at 0, 30, ..., 270
  CHECK(r.dlq_end == 1);
  REQUIRE(r.dlq_sample.size() == 1);
  CHECK(r.dlq_sample[0].reason == "receive_count_max");
  // The 11th receive, at 300 s, moves it instead: no backoff of its own.
  CHECK(r.dlq_sample[0].dead_lettered_at_s == Approx(300).margin(1e-9));
}

TEST_CASE("requeue with a delivery limit: counted returns past the limit dead-letter",
          "[model][broker_rules][rabbitmq]") {
  auto run = [](config::RequeueWith with, std::array<bool, config::kReturnKindCount> counted) {
    config::Scenario s = Poison(1, 1, 100);
    AllClassesRetry(s, 1000);
    s.retry.delivery = config::RetryDelivery::kRequeue;
    s.retry.requeue_with = with;
    s.broker.delivery_limit = 20;
    s.broker.delivery_counted = counted;
    return RunAudited(s);
  };
  constexpr std::array<bool, 4> kRejectOnly{false, true, false, false};  // 4.3+
  constexpr std::array<bool, 4> kAll{true, true, true, true};            // 4.0-4.2
  SECTION("4.3, reject: the 21st return exceeds 20") {
    const Results r = run(config::RequeueWith::kReject, kRejectOnly);
    CheckConserved(r);
    CHECK(r.attempts == 21);
    REQUIRE(r.dlq_sample.size() == 1);
    CHECK(r.dlq_sample[0].reason == "delivery_limit");
    CHECK(r.dlq_sample[0].dead_lettered_at_s == Approx(21).margin(1e-9));
  }
  SECTION("4.3, nack: never counted, the loop runs until the run ends") {
    const Results r = run(config::RequeueWith::kNack, kRejectOnly);
    CheckConserved(r);
    CHECK(r.attempts == 100);  // one per second, for the whole run
    CHECK(r.dlq_end == 0);
    CHECK(r.not_terminal_end == 1);
  }
  SECTION("4.0-4.2, nack counts too") {
    const Results r = run(config::RequeueWith::kNack, kAll);
    CheckConserved(r);
    CHECK(r.attempts == 21);
    CHECK(r.dlq_end == 1);
  }
}

TEST_CASE("a crash return counts towards the delivery limit only when 'crash' is counted",
          "[model][broker_rules][rabbitmq]") {
  for (bool counted : {true, false}) {
    INFO("crash counted: " << counted);
    config::Scenario s =
        LoadOrFail(R"({"format_version": 1, "name": "crash", "run": {"until_s": 100},
      "kinds": {"job": {"handler": {"cpu_ms": {"constant": 10000}}}},
      "backlog": [{"where": "main", "kind": "job", "count": 1}],
      "workers": {"count": 1, "restart_s": 0},
      "faults": [{"type": "worker_crash", "at_s": 5, "count": 1}]})");
    s.broker.delivery_limit = 0;
    s.broker.delivery_counted = {false, false, counted, false};
    const Results r = RunAudited(s);
    CheckConserved(r);
    CHECK(r.dlq_end == (counted ? 1 : 0));
    CHECK(r.acked == (counted ? 0 : 1));
  }
}

TEST_CASE("redelivery_backoff delays each requeue by the broker's exponential backoff",
          "[model][broker_rules][pubsub]") {
  config::Scenario s = Poison(1, 1, 10000);
  AllClassesRetry(s, 1000);
  s.retry.delivery = config::RetryDelivery::kRequeue;
  s.retry.requeue_with = config::RequeueWith::kNack;
  s.broker.receive_count_max = 5;
  config::Backoff backoff;
  backoff.curve = config::ExponentialBackoff{Duration::Seconds(10), 2, Duration::Seconds(600)};
  backoff.jitter.kind = config::JitterKind::kNone;
  s.broker.redelivery_backoff = backoff;
  const Results r = RunAudited(s);
  CheckConserved(r);
  CHECK(r.attempts == 5);
  REQUIRE(r.dlq_sample.size() == 1);
  CHECK(r.dlq_sample[0].reason == "receive_count_max");
  // Deliveries at 0, 11, 32, 73, 154 (each fails after 1 s, then 10, 20, 40, 80 s); the fifth
  // nack waits 160 s, and the sixth receive moves it: 155 + 160.
  CHECK(r.dlq_sample[0].dead_lettered_at_s == Approx(315).margin(1e-9));
}

TEST_CASE(
    "best-effort dead-lettering puts a second copy in the DLQ, and replaying both runs "
    "the work twice",
    "[model][broker_rules][pubsub]") {
  // A bug fails every message until 100 s; a bulk drain at 200 s replays the DLQ.
  auto run = [](double probability) {
    config::Scenario s =
        LoadOrFail(R"({"format_version": 1, "name": "dup", "run": {"until_s": 1000},
      "kinds": {"job": {"handler": {"cpu_ms": {"constant": 10}}, "idempotency": "none"}},
      "backlog": [{"where": "main", "kind": "job", "count": 2000}],
      "workers": {"count": 50},
      "retry": {"classes": {"transient": {"action": "dead_letter"}}},
      "faults": [{"type": "bug", "kind": "job", "fraction": 1, "error": "transient",
                  "fixed_at_s": 100}],
      "drains": [{"start_at_s": 200, "strategy": "bulk"}]})");
    s.broker.dead_letter_duplicate_probability = probability;
    return RunAudited(s);
  };
  const Results all = run(1.0);
  CheckConserved(all);
  CHECK(all.dlq_duplicates == 2000);
  CHECK(all.published == 4000);
  CHECK(all.dlq_inflow == 4000);
  CHECK(all.acked == 4000);
  CHECK(all.duplicate_executions == 2000);
  CHECK(all.visible_duplicates == 2000);
  const Results half = run(0.5);
  CheckConserved(half);
  // Binomial(2000, 0.5): mean 1000, sd 22.4; 5 sd either side.
  CHECK(half.dlq_duplicates > 888);
  CHECK(half.dlq_duplicates < 1112);
  CHECK(half.duplicate_executions == half.dlq_duplicates);
  const Results none = run(0);
  CHECK(none.dlq_duplicates == 0);
  CHECK(none.duplicate_executions == 0);
}

TEST_CASE("a capped DLQ expires its oldest entries", "[model][broker_rules][sidekiq]") {
  config::Scenario s = Poison(120, 10, 10000);
  AllClassesRetry(s, 1);
  s.broker.dlq_max_length = 100;
  const Results r = RunAudited(s);
  CheckConserved(r);
  CHECK(r.dlq_end == 100);
  CHECK(r.expired == 20);
  CHECK(r.dlq_trimmed == 20);
  // The survivors are the newest: messages 0..9 die first (first wave), so ids 0..19 went.
  for (const DlqSample& d : r.dlq_sample) CHECK(d.id >= 20);
}

TEST_CASE(
    "dlq_trim on_dead_letter: 10,000 deaths into a cap of 10,000 leave 9,999, the oldest "
    "trimmed",
    "[model][broker_rules][sidekiq]") {
  // Sidekiq's ZREMRANGEBYRANK dead 0 -dead_max_jobs after each ZADD (docs/PRESETS-AUDIT.md 2).
  auto run = [](const char* trim) {
    config::Scenario s = Poison(
        10000, 1, 20000,
        std::string(R"(, "broker": {"dlq_max_length": 10000, "dlq_trim": ")") + trim + "\"}");
    AllClassesRetry(s, 1);
    return RunAudited(s);
  };
  const Results sidekiq = run("on_dead_letter");
  CheckConserved(sidekiq);
  CHECK(sidekiq.dlq_inflow == 10000);
  CHECK(sidekiq.dlq_end == 9999);
  CHECK(sidekiq.expired == 1);
  CHECK(sidekiq.dlq_trimmed == 1);
  REQUIRE_FALSE(sidekiq.dlq_sample.empty());
  CHECK(sidekiq.dlq_sample[0].id == 1);  // message 0 died first and went
  const Results exact = run("continuous");
  CheckConserved(exact);
  CHECK(exact.dlq_end == 10000);
  CHECK(exact.dlq_trimmed == 0);
  REQUIRE_FALSE(exact.dlq_sample.empty());
  CHECK(exact.dlq_sample[0].id == 0);
}

TEST_CASE("dlq_trim on_dead_letter: an entry past retention stays until the next death",
          "[model][broker_rules][sidekiq]") {
  // A dead-set entry 200 s old at the start, retention 100 s; one job that dies at 1 s.
  auto run = [](const char* trim, double until_s) {
    config::Scenario s =
        LoadOrFail(R"({"format_version": 1, "name": "past-retention", "run": {"until_s": )" +
                   std::to_string(until_s) + R"(},
      "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1000}}}},
      "backlog": [{"where": "dlq", "kind": "job", "count": 1, "age_s": 200},
                  {"where": "main", "kind": "job", "count": 1}],
      "workers": {"count": 1},
      "broker": {"dlq_retention_s": 100, "dlq_trim": ")" +
                   trim + R"("},
      "faults": [{"type": "poison", "kind": "job", "fraction": 1, "error": "transient",
                  "fail_after_ms": 1000}]})");
    AllClassesRetry(s, 1);
    return RunAudited(s);
  };
  // Before the death: Sidekiq still holds the old entry; the exact timer expired it at 0.
  const Results before = run("on_dead_letter", 0.5);
  CheckConserved(before);
  CHECK(before.expired == 0);
  CHECK(before.dlq_end == 1);
  const Results exact = run("continuous", 0.5);
  CheckConserved(exact);
  CHECK(exact.expired == 1);
  CHECK(exact.dlq_end == 0);
  // The death at 1 s removes it (as expired, not trimmed); the new entry stays.
  const Results after = run("on_dead_letter", 10);
  CheckConserved(after);
  CHECK(after.dlq_inflow == 1);
  CHECK(after.expired == 1);
  CHECK(after.dlq_trimmed == 0);
  CHECK(after.dlq_end == 1);
  REQUIRE(after.dlq_sample.size() == 1);
  CHECK(after.dlq_sample[0].dead_lettered_at_s == Approx(1).margin(1e-9));
}

TEST_CASE("a broker without a DLQ fails messages for a human instead",
          "[model][broker_rules][celery]") {
  config::Scenario s = Poison(3, 1, 10000);
  AllClassesRetry(s, 4);
  s.broker.dead_letter_queue = false;
  const Results r = RunAudited(s);
  CheckConserved(r);
  CHECK(r.attempts == 12);
  CHECK(r.dlq_end == 0);
  CHECK(r.dlq_inflow == 0);
  CHECK(r.parked == 3);
  CHECK(r.human_needed_by_reason.at("failed:max_attempts") == 3);
}

TEST_CASE(
    "requeue_on_crash fail: the running attempt is lost with cause worker_lost, buffered ones "
    "return",
    "[model][broker_rules][celery]") {
  config::Scenario s = LoadOrFail(R"({"format_version": 1, "name": "lost", "run": {"until_s": 100},
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 10000}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 3}],
    "workers": {"count": 1, "prefetch": 3, "restart_s": 0},
    "faults": [{"type": "worker_crash", "at_s": 5, "count": 1}]})");
  s.broker.requeue_on_crash = config::RequeueOnCrash::kFail;
  const Results r = RunAudited(s);
  CheckConserved(r);
  CHECK(r.dlq_end == 0);
  CHECK(r.broker_lost == 1);
  CHECK(r.broker_lost_by_cause[static_cast<size_t>(BrokerLossCause::kWorkerLost)] == 1);
  CHECK(r.acked == 2);
}

TEST_CASE(
    "redrive_attempts keep: Sidekiq's manual retry is not counted, so a job that still "
    "fails dies at once",
    "[model][broker_rules][sidekiq]") {
  for (auto mode : {config::RedriveAttempts::kKeep, config::RedriveAttempts::kReset}) {
    config::Scenario s =
        LoadOrFail(R"({"format_version": 1, "name": "keep", "run": {"until_s": 10000},
      "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1000}}}},
      "backlog": [{"where": "main", "kind": "job", "count": 1}],
      "workers": {"count": 1},
      "retry": {"backoff": {"kind": "constant", "delay_s": 1}},
      "faults": [{"type": "poison", "kind": "job", "count": 1, "error": "transient"}],
      "drains": [{"start_at_s": 1000, "strategy": "bulk"}]})");
    AllClassesRetry(s, 26);
    s.broker.redrive_attempts = mode;
    const Results r = RunAudited(s);
    CheckConserved(r);
    CHECK(r.replays == 1);
    CHECK(r.refilled == 1);
    CHECK(r.attempts == (mode == config::RedriveAttempts::kKeep ? 27 : 52));
  }
}

TEST_CASE("a redrive cap paces a bulk drain: 10,000 messages at 500/s take 20 s",
          "[model][broker_rules][sqs]") {
  config::Scenario s = LoadOrFail(R"({"format_version": 1, "name": "cap", "run": {"until_s": 1000},
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1}}}},
    "backlog": [{"where": "dlq", "kind": "job", "count": 10000, "reason": "max_attempts"}],
    "workers": {"count": 10},
    "drains": [{"start_at_s": 100, "strategy": "bulk"}]})");
  s.broker.redrive_rate_max_per_s = 500;
  const Results r = RunAudited(s);
  CheckConserved(r);
  CHECK(r.replays == 10000);
  REQUIRE(r.drains[0].started_at_s);
  REQUIRE(r.drains[0].ended_at_s);
  // Message k moves at 100 + k / 500 s: the last, k = 10,000, at 120 s.
  CHECK(*r.drains[0].ended_at_s - *r.drains[0].started_at_s >= 20.0);
  CHECK(r.drains[0].achieved_rate_per_s <= 500.0);
  // A bucket of burst 1: at most 500/s over an interval, plus the one token it starts with (the
  // series' last row covers the short interval from the last tick to the run's end).
  for (size_t i = 1; i < r.series.size(); ++i) {
    const double interval_s = r.series[i].t_s - r.series[i - 1].t_s;
    CHECK(r.series[i].dlq_outflow_per_s * interval_s <= 500.0 * interval_s + 1 + 1e-9);
  }
}

TEST_CASE("main-queue retention deletes messages older than it instead of delivering them",
          "[model][broker_rules][sqs]") {
  for (int age_s : {345600, 345599}) {
    INFO("age " << age_s);
    config::Scenario s =
        LoadOrFail(R"({"format_version": 1, "name": "ret", "run": {"until_s": 1000},
      "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1000}}}},
      "backlog": [{"where": "main", "kind": "job", "count": 100, "age_s": )" +
                   std::to_string(age_s) + R"(}],
      "workers": {"count": 1}})");
    s.broker.retention = Duration::Seconds(345600);
    const Results r = RunAudited(s);
    CheckConserved(r);
    // 345,599 s old: the first message goes at once; the rest are 4 days old when the worker is
    // free again, 1 s later.
    CHECK(r.retention_expired == (age_s == 345600 ? 100 : 99));
    CHECK(r.acked == (age_s == 345600 ? 0 : 1));
  }
}

TEST_CASE("every message is accounted for under the broker rules and every fault at once",
          "[model][broker_rules][conservation]") {
  for (int variant = 0; variant < 9; ++variant) {
    INFO("variant " << variant);
    config::Scenario s = LoadOrFail(testing::ChaosSystem(testing::kAllFaults));
    switch (variant) {
      case 0:  // RabbitMQ 4.0-4.2: reject requeues, every return counted, a low limit
        s.retry.delivery = config::RetryDelivery::kRequeue;
        s.broker.delivery_limit = 3;
        break;
      case 1:  // RabbitMQ 4.3 with nack and a consumer timeout that closes channels
        s.retry.delivery = config::RetryDelivery::kRequeue;
        s.retry.requeue_with = config::RequeueWith::kNack;
        s.broker.delivery_limit = 2;
        s.broker.delivery_counted = {false, true, false, false};
        s.broker.on_visibility_timeout = config::OnVisibilityTimeout::kCloseChannel;
        s.broker.visibility_timeout = Duration::Seconds(2);
        break;
      case 2:  // SQS: failures wait out the timeout; receive cap; retention; capped redrive
        s.retry.delivery = config::RetryDelivery::kVisibilityTimeout;
        s.broker.receive_count_max = 4;
        s.broker.requeue_on_crash = config::RequeueOnCrash::kAfterVisibilityTimeout;
        s.broker.retention = Duration::Seconds(120);
        s.broker.redrive_rate_max_per_s = 3;
        s.broker.dlq_retention_from = config::RetentionFrom::kEnqueued;
        break;
      case 3: {  // Pub/Sub: nack with broker backoff, duplicate dead letters
        s.retry.delivery = config::RetryDelivery::kRequeue;
        s.retry.requeue_with = config::RequeueWith::kNack;
        s.broker.receive_count_max = 5;
        config::Backoff backoff;
        backoff.curve = config::ExponentialBackoff{Duration::Seconds(1), 2, Duration::Seconds(20)};
        s.broker.redelivery_backoff = backoff;
        s.broker.dead_letter_duplicate_probability = 0.5;
        break;
      }
      case 4:  // Celery: no DLQ, crashes fail the running task
        s.broker.dead_letter_queue = false;
        s.broker.requeue_on_crash = config::RequeueOnCrash::kFail;
        break;
      case 5:  // Sidekiq: a tiny dead set, manual retries keep the count
        s.broker.dlq_max_length = 5;
        s.broker.redrive_attempts = config::RedriveAttempts::kKeep;
        break;
      case 6:  // Service Bus: abandon, refused stale acks, short locks
        s.retry.delivery = config::RetryDelivery::kRequeue;
        s.broker.receive_count_max = 3;
        s.broker.stale_ack = config::StaleAck::kRefused;
        s.broker.visibility_timeout = Duration::Millis(500);
        break;
      case 7:  // duplicates dead-lettered into a capped DLQ with no retention
        s.broker.dead_letter_duplicate_probability = 1;
        s.broker.dlq_max_length = 30;
        s.broker.dlq_retention.reset();
        break;
      case 8:  // everything that fails crashes-as-failure into a broker without a DLQ, requeued
        s.retry.delivery = config::RetryDelivery::kRequeue;
        s.broker.dead_letter_queue = false;
        s.broker.delivery_limit = 1;
        s.broker.requeue_on_crash = config::RequeueOnCrash::kFail;
        break;
    }
    for (uint64_t seed : {1, 2}) {
      INFO("seed " << seed);
      const Results r = RunAudited(s, seed);
      CheckConserved(r);
      CHECK(r.events > 1000);
      // The same seed gives the same run.
      CHECK(RunAudited(s, seed).fingerprint == r.fingerprint);
    }
  }
}

}  // namespace
}  // namespace broker_rules_test
}  // namespace drainsim::model
