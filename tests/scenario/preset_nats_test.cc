// The nats-jetstream preset through the loader (docs/PRESETS.md, docs/PRESETS-AUDIT.md section
// 4): its defaults, its fixed rule, its versions, and the fields it brought (ack_pending_max,
// requeue_position redeliveries_first), which any scenario may use.
#include <catch2/catch.hpp>

#include "sim/scenario/presets.h"
#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace preset_nats_test {
namespace {

using testing::CheckRoundTrip;
using testing::Json;
using testing::Load;
using testing::MustLoad;
using testing::With;

Json Minimal(const char* preset) { return testing::PresetScenario(preset == nullptr ? "" : preset); }

TEST_CASE("preset nats-jetstream: defaults in the struct", "[presets][nats]") {
  const config::Scenario s = MustLoad(Minimal("nats-jetstream"));
  const config::Broker& b = s.broker;
  CHECK(b.version == "2.14");
  CHECK(b.visibility_timeout == engine::Duration::Seconds(30));  // AckWait
  CHECK(b.requeue_on_crash == config::RequeueOnCrash::kAfterVisibilityTimeout);
  CHECK_FALSE(b.receive_count_max.has_value());  // MaxDeliver -1
  CHECK(b.ack_pending_max == 1000);              // MaxAckPending
  CHECK(b.requeue_position == config::RequeuePosition::kRedeliveriesFirst);
  CHECK_FALSE(b.redelivery_backoff.has_value());  // a plain Nak
  CHECK(b.dead_letter_queue);
  CHECK_FALSE(b.dlq_retention.has_value());
  CHECK(b.dlq_retention_from == config::RetentionFrom::kDeadLettered);
  CHECK(s.retry.delivery == config::RetryDelivery::kRequeue);
  CHECK(s.retry.requeue_with == config::RequeueWith::kNack);
  CHECK(s.retry.classes.transient.attempts_max == 1000);
  CheckRoundTrip(s);
}

TEST_CASE("preset nats-jetstream: overrides within the rules", "[presets][nats]") {
  const config::Scenario s = MustLoad(
      With(With(With(Minimal("nats-jetstream"), "/broker/receive_count_max", 5),
                "/broker/ack_pending_max", 20),
           "/broker/redelivery_backoff",
           Json::parse(R"({"kind": "constant", "delay_s": 10, "jitter": {"kind": "none"}})")));
  CHECK(s.broker.receive_count_max == 5);
  CHECK(s.broker.ack_pending_max == 20);
  REQUIRE(s.broker.redelivery_backoff.has_value());
  CHECK(std::get<config::ConstantBackoff>(s.broker.redelivery_backoff->curve).delay ==
        engine::Duration::Seconds(10));
  CheckRoundTrip(s);
  // Found by the fuzz pipeline: without its limit, under another requeue_position, the dump
  // must say null, or reading it back fills the table's 1000 in and the loader refuses it.
  CheckRoundTrip(MustLoad(With(With(Minimal("nats-jetstream"), "/broker/ack_pending_max", nullptr),
                               "/broker/requeue_position", "head")));
  // No limit at all: JetStream's MaxAckPending -1.
  CHECK_FALSE(MustLoad(With(Minimal("nats-jetstream"), "/broker/ack_pending_max", nullptr))
                  .broker.ack_pending_max.has_value());
}

TEST_CASE("preset nats-jetstream: a crashed consumer's messages wait out AckWait (fixed rule)",
          "[presets][nats]") {
  for (const char* mode : {"immediate", "fail", "lost"}) {
    INFO(mode);
    CHECK_PROBLEM(Load(With(Minimal("nats-jetstream"), "/broker/requeue_on_crash", mode)),
                  "/broker/requeue_on_crash",
                  "is not something NATS JetStream can do: a message delivered to a consumer "
                  "that went away is redelivered when its AckWait runs out");
  }
}

TEST_CASE("preset nats-jetstream: broker.version 2.10 and later", "[presets][nats]") {
  for (const char* version : {"2.9", "1.4", "0.1"}) {
    INFO(version);
    CHECK_PROBLEM(Load(With(Minimal("nats-jetstream"), "/broker/version", version)),
                  "/broker/version",
                  "is older than the NATS model allows: drainsim models NATS JetStream 2.10 "
                  "and later");
    CHECK_PROBLEM(Load(With(Minimal("nats-jetstream"), "/broker/version", version)),
                  "/broker/version", "a hard limit of preset \"nats-jetstream\"");
  }
  for (const char* version : {"2.10", "2.11", "2.12", "2.14", "3.0"}) {
    INFO(version);
    CHECK(MustLoad(With(Minimal("nats-jetstream"), "/broker/version", version)).broker.version ==
          version);
  }
}

TEST_CASE("ack_pending_max: 1..1e6, only with redeliveries served first", "[presets][nats]") {
  Json plain = Minimal(nullptr);
  plain["broker"] = {{"ack_pending_max", 10}, {"requeue_position", "redeliveries_first"}};
  const config::Scenario s = MustLoad(plain);
  CHECK(s.broker.ack_pending_max == 10);
  CheckRoundTrip(s);
  CHECK_PROBLEM(Load(With(plain, "/broker/ack_pending_max", 0)), "/broker/ack_pending_max", "");
  CHECK_PROBLEM(Load(With(plain, "/broker/requeue_position", "head")), "/broker/ack_pending_max",
                "needs requeue_position \"redeliveries_first\" (got \"head\")");
  // Without ack_pending_max the field is absent from the dump: existing scenarios keep their hash.
  const Json dump = Json::parse(DumpCanonical(MustLoad(Minimal(nullptr))));
  CHECK_FALSE(dump.at("broker").contains("ack_pending_max"));
  CHECK_FALSE(dump.at("broker").contains("requeue_position"));
}

}  // namespace
}  // namespace preset_nats_test
}  // namespace drainsim::scenario
