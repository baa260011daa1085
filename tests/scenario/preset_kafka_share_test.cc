// The kafka-share preset through the loader (docs/PRESETS.md, "kafka-share"; sources in
// scenarios/presets/README.md): each default at its pointer in the dump, each hard limit refused
// at its pointer naming Kafka's limit, overrides inside the limits accepted, and the dump round
// trip that keeps an explicit value over the table's.
#include <catch2/catch.hpp>

#include <string>

#include "sim/scenario/presets.h"
#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace preset_kafka_share_test {
namespace {

using testing::CheckRoundTrip;
using testing::Json;
using testing::Load;
using testing::MustLoad;
using testing::With;

Json Share() { return testing::PresetScenario("kafka-share"); }

// `drainsim dump`'s document (what a user sees) of a loaded scenario.
Json Dumped(const Json& document) { return Json::parse(DumpCanonical(MustLoad(document))); }

TEST_CASE("preset kafka-share: each default lands at its pointer", "[presets][kafka-share]") {
  const Json dump = Dumped(Share());
  const auto at = [&](const char* pointer) { return dump.at(Json::json_pointer(pointer)); };
  CHECK(at("/broker/version") == "4.2");
  CHECK(at("/broker/visibility_timeout_s") == 30);  // group.share.record.lock.duration.ms
  CHECK(at("/broker/on_visibility_timeout") == "redeliver");
  CHECK(at("/broker/stale_ack") == "refused");
  CHECK(at("/broker/requeue_on_crash") == "after_visibility_timeout");
  CHECK(at("/broker/receive_count_max") == 5);  // group.share.delivery.count.limit
  CHECK(at("/broker/requeue_position") == "redeliveries_first");
  CHECK(at("/broker/ack_pending_max") == 2000);  // group.share.partition.max.record.locks
  CHECK(at("/broker/retention_s") == 604800);
  CHECK(at("/broker/dead_letter_queue") == false);
  CHECK(at("/broker/without_dlq") == "archived");
  CHECK(at("/broker/dlq_retention_s") == 604800);
  CHECK(at("/broker/dlq_retention_from") == "dead_lettered");
  CHECK(at("/broker/redrive_attempts") == "reset");
  CHECK(at("/broker/delivery_limit").is_null());
  CHECK_FALSE(dump.at("broker").contains("partitions"));
  CHECK_FALSE(dump.at("broker").contains("message_groups"));
  CHECK(at("/retry/delivery") == "requeue");  // RELEASE
  CHECK(at("/retry/backoff/kind") == "constant");
  CHECK(at("/retry/backoff/delay_s") == 0);
  for (const char* c : {"rate_limited", "transient", "permanent", "unknown"}) {
    INFO(c);
    CHECK(dump.at("retry").at("classes").at(c).at("action") == "retry");
    CHECK(dump.at("retry").at("classes").at(c).at("attempts_max") == 1000);
  }
  // Every default of the table is one of the above (a new row needs a check here).
  CHECK(PresetDefaults(config::BrokerPreset::kKafkaShare).size() == 20);
  CheckRoundTrip(MustLoad(Share()));
}

TEST_CASE("preset kafka-share: overrides inside the limits are accepted",
          "[presets][kafka-share]") {
  for (const int64_t limit : {2, 10}) {
    CHECK(MustLoad(With(Share(), "/broker/receive_count_max", limit)).broker.receive_count_max ==
          limit);
  }
  for (const double lock_s : {1.0, 15.0, 60.0, 3600.0}) {
    CHECK(MustLoad(With(Share(), "/broker/visibility_timeout_s", lock_s))
              .broker.visibility_timeout == engine::Duration::Seconds(lock_s));
  }
  CHECK(MustLoad(With(Share(), "/broker/ack_pending_max", 200)).broker.ack_pending_max == 200);
  CHECK(MustLoad(With(Share(), "/broker/version", "4.3")).broker.version == "4.3");
  CHECK(MustLoad(With(Share(), "/broker/lock_renewal", true)).broker.lock_renewal);
  // The group's dead-letter topic, from 4.4: the preset then leaves without_dlq alone.
  const config::Scenario dlq =
      MustLoad(With(With(Share(), "/broker/version", "4.4"), "/broker/dead_letter_queue", true));
  CHECK(dlq.broker.dead_letter_queue);
  CHECK(dlq.broker.without_dlq == config::WithoutDlq::kFailed);
  CheckRoundTrip(dlq);
  // REJECT: a class the application rejects is archived at once (the class's dead_letter route).
  const config::Scenario reject = MustLoad(
      With(Share(), "/retry/classes/permanent", Json{{"action", "dead_letter"}}));
  CHECK(reject.retry.classes.permanent.action == config::ClassAction::kDeadLetter);
  // An explicit "failed" over the table's "archived" survives the dump.
  const config::Scenario failed = MustLoad(With(Share(), "/broker/without_dlq", "failed"));
  CHECK(failed.broker.without_dlq == config::WithoutDlq::kFailed);
  CheckRoundTrip(failed);
  // No limit on in-flight records, under another position: the dump keeps null.
  CheckRoundTrip(MustLoad(With(With(Share(), "/broker/ack_pending_max", nullptr),
                               "/broker/requeue_position", "tail")));
}

TEST_CASE("preset kafka-share: the delivery count limit is 2..10", "[presets][kafka-share]") {
  for (const int64_t limit : {1, 11}) {
    INFO(limit);
    CHECK_PROBLEM(Load(With(Share(), "/broker/receive_count_max", limit)),
                  "/broker/receive_count_max",
                  "a share group's delivery count limit is 2..10 "
                  "(group.share.delivery.count.limit, ShareGroupConfig.java), a hard limit of "
                  "preset \"kafka-share\"");
  }
  CHECK_PROBLEM(Load(With(Share(), "/broker/receive_count_max", nullptr)),
                "/broker/receive_count_max", "null (no limit) is more than Kafka allows");
}

TEST_CASE("preset kafka-share: the record lock is 1..3600 s", "[presets][kafka-share]") {
  CHECK_PROBLEM(Load(With(Share(), "/broker/visibility_timeout_s", 0.5)),
                "/broker/visibility_timeout_s",
                "0.5 s is shorter than Kafka allows: a share group's record lock lasts 1..3600 s "
                "(group.share.record.lock.duration.ms");
  CHECK_PROBLEM(Load(With(Share(), "/broker/visibility_timeout_s", 3601)),
                "/broker/visibility_timeout_s", "3601 s is longer than Kafka allows");
}

TEST_CASE("preset kafka-share: what a share group does not have is refused at its pointer",
          "[presets][kafka-share]") {
  CHECK_PROBLEM(Load(With(Share(), "/broker/delivery_limit", 5)), "/broker/delivery_limit",
                "is not something Kafka share groups do");
  CHECK_PROBLEM(Load(With(Share(), "/broker/partitions", 4)), "/broker/partitions",
                "are a Kafka topic's partitions, and kafka-share has no partitions owned by one "
                "consumer each");
  CHECK_PROBLEM(Load(With(Share(), "/broker/message_groups", 4)), "/broker/message_groups",
                "are SQS FIFO queues' message groups, and kafka-share orders messages by other "
                "rules");
  for (const char* on_crash : {"immediate", "fail", "lost"}) {
    INFO(on_crash);
    CHECK_PROBLEM(Load(With(Share(), "/broker/requeue_on_crash", on_crash)),
                  "/broker/requeue_on_crash",
                  "is not something Kafka share groups can do: a crashed consumer's acquired "
                  "records become available again when their acquisition locks expire");
  }
}

TEST_CASE("preset kafka-share: broker.version 4.2 and later, a dead-letter topic from 4.4",
          "[presets][kafka-share]") {
  for (const char* early : {"4.0", "4.1", "3.9"}) {
    INFO(early);
    CHECK_PROBLEM(Load(With(Share(), "/broker/version", early)), "/broker/version",
                  "is older than the Kafka share-group model allows: drainsim models share "
                  "groups from Kafka 4.2");
  }
  for (const char* before_dlq : {"4.2", "4.3"}) {
    INFO(before_dlq);
    CHECK_PROBLEM(Load(With(With(Share(), "/broker/version", before_dlq),
                            "/broker/dead_letter_queue", true)),
                  "/broker/dead_letter_queue",
                  "true needs Kafka 4.4 (broker.version \"" + std::string(before_dlq) +
                      "\"): a share group's dead-letter topic is KIP-1191");
  }
  CHECK_PROBLEM(Load(With(Share(), "/broker/dead_letter_queue", true)),
                "/broker/dead_letter_queue", "broker.version \"4.2\"");
}

TEST_CASE("without_dlq archived: only without a DLQ, and a drain is refused beside it",
          "[presets][kafka-share]") {
  CHECK_PROBLEM(Load(With(With(With(Share(), "/broker/version", "4.4"),
                               "/broker/dead_letter_queue", true),
                          "/broker/without_dlq", "archived")),
                "/broker/without_dlq", "only with dead_letter_queue false");
  const Json drain = With(Share(), "/drains",
                          Json::array({Json{{"start_at_s", 10}, {"strategy", "bulk"}}}));
  CHECK_PROBLEM(Load(drain), "/drains/0", "archives a record at its delivery count limit");
  // Without a preset, "archived" is a general value.
  const Json plain = With(With(testing::PresetScenario(""), "/broker/dead_letter_queue", false),
                          "/broker/without_dlq", "archived");
  CHECK(MustLoad(plain).broker.without_dlq == config::WithoutDlq::kArchived);
}

}  // namespace
}  // namespace preset_kafka_share_test
}  // namespace drainsim::scenario
