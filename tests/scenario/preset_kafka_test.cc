// The kafka preset and broker.partitions through the loader (docs/PRESETS.md, "kafka"): the
// preset's defaults (Kafka's consumer and broker configs, Spring Kafka's DefaultErrorHandler),
// its fixed rules, where partitions are refused, and the dump that keeps other scenarios' hashes.
#include <catch2/catch.hpp>

#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace preset_kafka_test {
namespace {

using testing::CheckRoundTrip;
using testing::Json;
using testing::Load;
using testing::MustLoad;
using testing::With;

Json Kafka() { return testing::PresetScenario("kafka"); }

TEST_CASE("preset kafka: defaults in the struct", "[presets][kafka]") {
  const config::Scenario s = MustLoad(Kafka());
  const config::Broker& b = s.broker;
  CHECK(b.partitions == 1);                                       // num.partitions
  CHECK(b.session_timeout == engine::Duration::Seconds(45));      // session.timeout.ms
  CHECK(b.visibility_timeout == engine::Duration::Seconds(300));  // max.poll.interval.ms
  CHECK(b.stale_ack == config::StaleAck::kRefused);               // CommitFailedException
  CHECK(b.requeue_on_crash == config::RequeueOnCrash::kImmediate);
  CHECK(b.retention == engine::Duration::Seconds(604800));  // log.retention.hours 168
  CHECK_FALSE(b.dead_letter_queue);                         // the default recoverer logs
  CHECK(b.without_dlq == config::WithoutDlq::kSkipped);
  CHECK(b.dlq_retention == engine::Duration::Seconds(604800));
  CHECK_FALSE(b.receive_count_max.has_value());
  CHECK_FALSE(b.delivery_limit.has_value());
  CHECK_FALSE(b.message_groups.has_value());
  CHECK(s.retry.delivery == config::RetryDelivery::kRequeue);  // seek to the failed offset
  for (const config::ClassPolicy* c : {&s.retry.classes.rate_limited, &s.retry.classes.transient,
                                       &s.retry.classes.permanent, &s.retry.classes.unknown}) {
    CHECK(c->action == config::ClassAction::kRetry);
    CHECK(c->attempts_max == 10);  // DEFAULT_MAX_FAILURES
  }
  CheckRoundTrip(s);
}

TEST_CASE("preset kafka: a dead-letter topic, more partitions, kept by dump", "[presets][kafka]") {
  const config::Scenario s =
      MustLoad(With(With(Kafka(), "/broker/dead_letter_queue", true), "/broker/partitions", 12));
  CHECK(s.broker.dead_letter_queue);
  CHECK(s.broker.partitions == 12);
  CheckRoundTrip(s);
  CHECK(MustLoad(With(Kafka(), "/broker/partitions", 100'000)).broker.partitions == 100'000);
  // An explicit "failed" over the preset's "skipped" survives the dump (the fuzz pipeline found
  // it lost: the dump left the default out, and the preset filled "skipped" back).
  const config::Scenario failed = MustLoad(With(Kafka(), "/broker/without_dlq", "failed"));
  CHECK(failed.broker.without_dlq == config::WithoutDlq::kFailed);
  CheckRoundTrip(failed);
  // Without a preset partitions may be set; unset, the dump leaves them out (the hash of every
  // other scenario stays as it was).
  CHECK(MustLoad(With(testing::PresetScenario(""), "/broker/partitions", 3)).broker.partitions ==
        3);
  const Json dump = Json::parse(DumpCanonical(MustLoad(testing::PresetScenario(""))));
  CHECK_FALSE(dump.at("broker").contains("partitions"));
}

TEST_CASE(
    "preset kafka: partitions out of range, under other presets and beside other orders "
    "refused at their pointers",
    "[presets][kafka]") {
  CHECK_PROBLEM(Load(With(Kafka(), "/broker/partitions", 0)), "/broker/partitions", "");
  CHECK_PROBLEM(Load(With(Kafka(), "/broker/partitions", 100'001)), "/broker/partitions", "");
  for (const char* preset : {"sqs", "rabbitmq-quorum", "pubsub", "azure-service-bus",
                             "nats-jetstream", "celery", "sidekiq", "bullmq"}) {
    INFO(preset);
    CHECK_PROBLEM(Load(With(testing::PresetScenario(preset), "/broker/partitions", 4)),
                  "/broker/partitions", "Kafka topic's partitions");
  }
  const Json plain = With(testing::PresetScenario(""), "/broker/partitions", 4);
  CHECK_PROBLEM(Load(With(plain, "/broker/message_groups", 4)), "/broker/partitions",
                "message_groups");
  CHECK_PROBLEM(Load(With(Kafka(), "/broker/requeue_position", "head")), "/broker/requeue_position",
                "partitions");
  CHECK_PROBLEM(Load(With(Kafka(), "/broker/max_length", 10)), "/broker/max_length", "partitions");
  CHECK_PROBLEM(Load(With(testing::PresetScenario(""), "/broker/session_timeout_s", 45)),
                "/broker/session_timeout_s", "only with broker.partitions");
  CHECK(MustLoad(With(plain, "/broker/session_timeout_s", 10)).broker.session_timeout ==
        engine::Duration::Seconds(10));
  // A consumer is one thread.
  Json threads = With(With(Kafka(), "/workers/prefetch", 4), "/workers/concurrency", 2);
  CHECK_PROBLEM(Load(threads), "/workers/concurrency", "one at a time");
  CHECK(MustLoad(With(Kafka(), "/workers/prefetch", 4)).workers.prefetch == 4);
}

TEST_CASE("preset kafka: no broker-side delivery count (fixed rule)", "[presets][kafka]") {
  CHECK_PROBLEM(Load(With(Kafka(), "/broker/receive_count_max", 5)), "/broker/receive_count_max",
                "offsets, not a delivery count");
  CHECK_PROBLEM(Load(With(Kafka(), "/broker/delivery_limit", 5)), "/broker/delivery_limit",
                "offsets, not a delivery count");
  // Spring Kafka's attempts are the application's: any attempts_max loads.
  const Json three =
      With(Kafka(), "/retry/classes/transient", Json{{"action", "retry"}, {"attempts_max", 3}});
  CHECK(MustLoad(three).retry.classes.transient.attempts_max == 3);
}

TEST_CASE("without_dlq skipped: only without a DLQ, and a drain is refused beside it",
          "[presets][kafka]") {
  CHECK_PROBLEM(Load(With(With(Kafka(), "/broker/dead_letter_queue", true), "/broker/without_dlq",
                          "skipped")),
                "/broker/without_dlq", "only with dead_letter_queue false");
  const Json drain =
      With(Kafka(), "/drains", Json::array({Json{{"start_at_s", 10}, {"strategy", "bulk"}}}));
  CHECK_PROBLEM(Load(drain), "/drains/0", "skips a record whose attempts ran out");
}

TEST_CASE("partitions: the ordering figures may be expected", "[presets][kafka]") {
  const Json expect = Json::array({Json{{"metric", "ordering_violations"}, {"equals", 0}},
                                   Json{{"metric", "group_hold_max_s"}, {"max", 300}},
                                   Json{{"metric", "rebalances"}, {"max", 4}}});
  CHECK(MustLoad(With(Kafka(), "/expect", expect)).expect.size() == 3);
  // rebalances needs partitions: under a preset without them it is refused at its place.
  Json plain = testing::PresetScenario("sqs");
  plain["expect"] = Json::array({Json{{"metric", "rebalances"}, {"equals", 0}}});
  CHECK_PROBLEM(Load(plain), "/expect/0/metric", "broker.partitions");
}

TEST_CASE("partitions: the largest partition lag may be expected always or sometimes",
          "[presets][kafka]") {
  const Json expect = Json::array({Json{{"always", "partition_lag_max"}, {"max", 5000}}});
  CHECK(MustLoad(With(Kafka(), "/expect", expect)).expect.size() == 1);
  Json plain = testing::PresetScenario("sqs");
  plain["expect"] = Json::array({Json{{"sometimes", "partition_lag_max"}, {"max", 10}}});
  CHECK_PROBLEM(Load(plain), "/expect/0/sometimes",
                "\"partition_lag_max\" needs broker.partitions");
}

}  // namespace
}  // namespace preset_kafka_test
}  // namespace drainsim::scenario
