// broker.message_group_kind through the loader (docs/PRESETS.md, `message_group_kind`): each kind
// under its broker's preset and without one, refused under the others' and without
// message_groups, ordering keys only with workers.concurrency 1, and the dump round trip.
#include <catch2/catch.hpp>

#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace group_kind_load_test {
namespace {

using testing::CheckRoundTrip;
using testing::Json;
using testing::Load;
using testing::MustLoad;
using testing::With;

Json Kind(const char* preset, const char* kind, bool groups = true) {
  Json s = testing::PresetScenario(preset == nullptr ? "" : preset);
  if (groups) s = With(s, "/broker/message_groups", 8);
  s = With(s, "/workers/concurrency", 1);
  return With(s, "/broker/message_group_kind", kind == nullptr ? Json(nullptr) : Json(kind));
}

TEST_CASE("message_group_kind: each kind under its broker and without a preset, kept by dump",
          "[presets][message_groups]") {
  const struct {
    const char* preset;
    const char* kind;
    config::MessageGroupKind value;
  } cases[] = {{"sqs", "fifo_group", config::MessageGroupKind::kFifoGroup},
               {"azure-service-bus", "session", config::MessageGroupKind::kSession},
               {"pubsub", "ordering_key", config::MessageGroupKind::kOrderingKey}};
  for (const auto& c : cases) {
    INFO(c.kind);
    for (const char* preset : {c.preset, static_cast<const char*>(nullptr)}) {
      const config::Scenario s = MustLoad(Kind(preset, c.kind));
      CHECK(s.broker.message_group_kind == c.value);
      CheckRoundTrip(s);
      const Json dump = Json::parse(DumpCanonical(s));
      CHECK(dump.at("broker").at("message_group_kind") == c.kind);
    }
  }
  // Unset (or null), the dump leaves it out: other scenarios keep their hashes.
  const config::Scenario plain =
      MustLoad(With(testing::PresetScenario("sqs"), "/broker/message_groups", 8));
  CHECK_FALSE(plain.broker.message_group_kind.has_value());
  CHECK_FALSE(Json::parse(DumpCanonical(plain)).at("broker").contains("message_group_kind"));
  CHECK_FALSE(MustLoad(Kind(nullptr, nullptr)).broker.message_group_kind.has_value());
}

TEST_CASE(
    "message_group_kind: refused under another broker, without groups, and for ordering "
    "keys beside concurrency",
    "[presets][message_groups]") {
  CHECK_PROBLEM(Load(Kind(nullptr, "bogus")), "/broker/message_group_kind", "");
  for (const char* preset : {"sqs", "pubsub", "rabbitmq-quorum", "kafka-share", "celery"}) {
    INFO(preset);
    CHECK_PROBLEM(Load(Kind(preset, "session")), "/broker/message_group_kind",
                  "Azure Service Bus sessions");
  }
  for (const char* preset : {"sqs", "azure-service-bus", "nats-jetstream", "sidekiq"}) {
    INFO(preset);
    CHECK_PROBLEM(Load(Kind(preset, "ordering_key")), "/broker/message_group_kind",
                  "Google Pub/Sub ordering keys");
  }
  // fifo_group (or no kind) keeps the SQS-only rule at message_groups, naming the other kinds.
  CHECK_PROBLEM(Load(Kind("pubsub", "fifo_group")), "/broker/message_groups", "ordering_key");
  CHECK_PROBLEM(Load(Kind("azure-service-bus", nullptr)), "/broker/message_groups", "session");
  CHECK_PROBLEM(Load(Kind(nullptr, "session", /*groups=*/false)), "/broker/message_group_kind",
                "applies only with broker.message_groups");
  CHECK_PROBLEM(Load(Kind("pubsub", "ordering_key", /*groups=*/false)),
                "/broker/message_group_kind", "applies only with broker.message_groups");
  const auto concurrent = [](Json s) {
    return With(With(std::move(s), "/workers/prefetch", 4), "/workers/concurrency", 4);
  };
  CHECK_PROBLEM(Load(concurrent(Kind("pubsub", "ordering_key"))), "/workers/concurrency",
                "ordering_key");
  CHECK(MustLoad(concurrent(Kind(nullptr, "session"))).broker.message_group_kind ==
        config::MessageGroupKind::kSession);
}

}  // namespace
}  // namespace group_kind_load_test
}  // namespace drainsim::scenario
