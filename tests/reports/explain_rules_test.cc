// `drainsim explain` names the broker preset's rule behind a line (reports/explain_rules.h): the
// limit that dead-lettered a message, where a returned message waited, the retry set's formula;
// once per life, only where the preset's value is the one that ran, and never without a preset.
#include "reports/explain_rules.h"

#include <catch2/catch.hpp>
#include <string>

#include "experiments/explain.h"
#include "reports/explain_report.h"
#include "sim/model/trace_log.h"
#include "tests/model/scenario_fixture.h"
#include "tests/reports/explain_fixture.h"

namespace drainsim::reports {
namespace explain_rules_test {
namespace {

using model::testing::LoadOrFail;

// ExplainLives of message 0, as `drainsim explain --message 0` prints it.
std::string ExplainFirst(const config::Scenario& s) {
  return ExplainLives(testing::TraceOfMessage(s, 0), experiments::ExplainSceneOf(s));
}

// One job that always fails after 1 s, on one worker, with `broker` as the broker section.
config::Scenario Poisoned(const std::string& broker, const std::string& retry = "") {
  return LoadOrFail(R"({"format_version": 1, "name": "rules", "run": {"until_s": 1000},
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 1}],
    "broker": )" + broker +
                    retry + R"(,
    "workers": {"count": 1},
    "faults": [{"type": "poison", "kind": "job", "fraction": 1, "fail_after_ms": 1000}]})");
}

size_t Count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

TEST_CASE("explain names the preset's rule once, under the line it decided", "[reports][explain]") {
  const std::string out = ExplainFirst(Poisoned(R"({"preset": "rabbitmq-quorum"})"));
  INFO(out);
  const std::string limit =
      "rule /broker/delivery_limit = 20: preset rabbitmq-quorum 4.3, RabbitMQ 4.0 release notes";
  CHECK(Count(out, limit) == 1);
  // Right under the dead-letter line (21 rejects: dead at 21 s).
  const size_t dead = out.find("21.000 s  dead-lettered: reason delivery_limit");
  REQUIRE(dead != std::string::npos);
  const size_t next_line = out.find('\n', dead) + 1;
  CHECK(out.compare(next_line, 16 + limit.size(), std::string(16, ' ') + limit) == 0);
  CHECK(Count(out,
              "rule /broker/delivery_counted = [\"reject\",\"crash\"]: preset "
              "rabbitmq-quorum 4.3") == 1);
  // The first reject: returned to the head of the queue, by basic.reject.
  CHECK(Count(out, "rule /broker/requeue_position = \"head\": preset rabbitmq-quorum 4.3") == 1);
  CHECK(Count(out, "rule /retry/requeue_with = \"reject\"") == 1);
  CHECK(Count(out, "rule ") == 5);  // and /retry/delivery
}

TEST_CASE("explain names the version's rule, and no rule the scenario overrode",
          "[reports][explain]") {
  SECTION("3.13 returns to the tail") {
    const std::string out =
        ExplainFirst(Poisoned(R"({"preset": "rabbitmq-quorum", "version": "3.13",
                                  "delivery_limit": 3})"));
    INFO(out);
    CHECK(Count(out, "rule /broker/requeue_position = \"tail\": preset rabbitmq-quorum 3.13") == 1);
    CHECK(Count(out, "/broker/delivery_limit") == 0);  // the scenario's own limit
    CHECK(Count(out, "dead-lettered: reason delivery_limit") == 1);
  }
  SECTION("no preset: no rule lines") {
    const std::string out = ExplainFirst(
        Poisoned(R"({"delivery_limit": 3})", R"(, "retry": {"delivery": "requeue", "classes":
                                                      {"permanent": {"action": "retry", "attempts_max": 1000}}})"));
    INFO(out);
    CHECK(Count(out, "dead-lettered: reason delivery_limit") == 1);
    CHECK(Count(out, "rule ") == 0);
  }
}

TEST_CASE("explain names the retry set's formula under Sidekiq", "[reports][explain]") {
  const std::string out = ExplainFirst(Poisoned(R"({"preset": "sidekiq"})"));
  INFO(out);
  CHECK(Count(out, "rule /retry/backoff = {\"kind\":\"sidekiq\"") == 1);
  CHECK(Count(out, ": preset sidekiq 8.1, ") >= 2);  // the backoff and the delivery
}

TEST_CASE("the settings behind each kind of line", "[reports][explain]") {
  model::LifeEvent e;
  e.type = model::LifeEvent::Type::kTransition;
  e.cause = model::TransitionCause::kDeadLettered;
  e.dlq_reason = config::DlqReason::kReceiveCountMax;
  CHECK(PointersActingOn(e) == std::vector<std::string>{"/broker/receive_count_max"});
  e.dlq_reason = config::DlqReason::kMaxAttempts;
  e.error = config::ErrorClass::kPermanent;
  CHECK(PointersActingOn(e) == std::vector<std::string>{"/retry/classes/permanent"});
  e.cause = model::TransitionCause::kDelivered;
  CHECK(PointersActingOn(e).empty());
  e.type = model::LifeEvent::Type::kAttemptEnd;
  e.ack = model::AckFate::kIgnored;
  CHECK(PointersActingOn(e) == std::vector<std::string>{"/broker/stale_ack"});
}

TEST_CASE("explain says how long the broker's delayed retry holds a return", "[reports][explain]") {
  // Rejects at 1, 3 and 6 s wait 1, 2, 3 s (min 1, max 3; the count 1, 2, 3); limit 2.
  const std::string out = ExplainFirst(Poisoned(
      R"({"preset": "rabbitmq-quorum", "delivery_limit": 2,
          "delayed_retry": {"type": "failed", "min_s": 1, "max_s": 3}})"));
  INFO(out);
  CHECK(Count(out, "1.000 s  returned by its consumer; the broker's delayed retry holds it "
                   "until 2.000 s (1.000 s)") == 1);
  CHECK(Count(out, "3.000 s  returned by its consumer; the broker's delayed retry holds it "
                   "until 5.000 s (2.000 s)") == 1);
  CHECK(Count(out, "delayed retry due: back with the returned messages") == 2);
  CHECK(Count(out, "6.000 s  dead-lettered: reason delivery_limit") == 1);
  // Without delayed_retry, the redelivery backoff's words stay as they were.
  const std::string backoff = ExplainFirst(Poisoned(
      R"({"delivery_limit": 1, "redelivery_backoff": {"kind": "constant", "delay_s": 1,
          "jitter": {"kind": "none"}}})",
      R"(, "retry": {"delivery": "requeue",
                     "classes": {"permanent": {"action": "retry", "attempts_max": 100}}})"));
  INFO(backoff);
  CHECK(Count(backoff, "returned by its consumer; the broker's redelivery backoff holds it") == 1);
  CHECK(Count(backoff, "delayed retry") == 0);
}

TEST_CASE("explain names what let a skipped record go under kafka", "[reports][explain]") {
  // Spring Kafka's DefaultErrorHandler: 10 attempts, then the default recoverer logs the record
  // and commits past it (broker_lost, cause skipped).
  const std::string out = ExplainFirst(Poisoned(R"({"preset": "kafka"})"));
  INFO(out);
  CHECK(Count(out, "discarded by the broker: broker_lost, cause skipped") == 1);
  CHECK(Count(out, "rule /retry/classes/permanent = {\"action\":\"retry\",\"attempts_max\":10}: "
                   "preset kafka 4.2, spring-kafka SeekUtils.java") == 1);
  CHECK(Count(out, "rule /broker/without_dlq = \"skipped\": preset kafka") == 1);
  CHECK(Count(out, "rule /broker/dead_letter_queue = false: preset kafka") == 1);
  // The loss cases' settings, without a run.
  model::LifeEvent e;
  e.type = model::LifeEvent::Type::kTransition;
  e.cause = model::TransitionCause::kBrokerLost;
  e.loss = model::BrokerLossCause::kCrash;
  CHECK(PointersActingOn(e) == std::vector<std::string>{"/broker/requeue_on_crash"});
  e.loss = model::BrokerLossCause::kDlqFull;
  CHECK(PointersActingOn(e) ==
        std::vector<std::string>{"/broker/dlq_overflow", "/broker/dead_letter_strategy"});
}

TEST_CASE("explain names what archived a record under kafka-share", "[reports][explain]") {
  // A Kafka share group: the record is RELEASEd after each failure and acquired again at once;
  // the fifth release meets group.share.delivery.count.limit 5 and the broker archives it
  // (broker_lost, cause archived).
  const std::string out = ExplainFirst(Poisoned(R"({"preset": "kafka-share"})"));
  INFO(out);
  CHECK(Count(out, "discarded by the broker: broker_lost, cause archived") == 1);
  CHECK(Count(out, "rule /broker/receive_count_max = 5: preset kafka-share 4.2, Kafka 4.2 share "
                   "groups, broker config group.share.delivery.count.limit") == 1);
  CHECK(Count(out, "rule /broker/without_dlq = \"archived\": preset kafka-share 4.2") == 1);
  CHECK(Count(out, "rule /broker/dead_letter_queue = false: preset kafka-share 4.2") == 1);
  model::LifeEvent e;
  e.type = model::LifeEvent::Type::kTransition;
  e.cause = model::TransitionCause::kBrokerLost;
  e.loss = model::BrokerLossCause::kArchived;
  e.dlq_reason = config::DlqReason::kReceiveCountMax;
  CHECK(PointersActingOn(e) ==
        std::vector<std::string>{"/broker/receive_count_max", "/broker/dead_letter_queue",
                                 "/broker/without_dlq"});
}

}  // namespace
}  // namespace explain_rules_test
}  // namespace drainsim::reports
