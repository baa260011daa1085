// broker.message_groups through the loader (SQS FIFO queues' message groups, docs/PRESETS.md):
// its range, where it is refused (other presets; beside a requeue_position but tail, max_length,
// ack_pending_max, delayed_retry), the expectations it enables, and the dump that keeps other
// scenarios' hashes.
#include <catch2/catch.hpp>

#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace message_groups_load_test {
namespace {

using testing::CheckRoundTrip;
using testing::Json;
using testing::Load;
using testing::MustLoad;
using testing::With;

Json Grouped(const char* preset, Json groups = 8) {
  return With(testing::PresetScenario(preset == nullptr ? "" : preset), "/broker/message_groups",
              std::move(groups));
}

TEST_CASE("message_groups: read under sqs and without a preset, kept by dump",
          "[presets][sqs][message_groups]") {
  const config::Scenario s = MustLoad(Grouped("sqs"));
  CHECK(s.broker.message_groups == 8);
  CheckRoundTrip(s);
  CHECK(MustLoad(Grouped(nullptr, 1)).broker.message_groups == 1);
  CHECK(MustLoad(Grouped(nullptr, 1'000'000)).broker.message_groups == 1'000'000);
  CHECK_FALSE(MustLoad(Grouped(nullptr, nullptr)).broker.message_groups.has_value());
  // Unset, the dump leaves it out (the hash of every other scenario stays as it was).
  const Json dump = Json::parse(DumpCanonical(MustLoad(testing::PresetScenario("sqs"))));
  CHECK_FALSE(dump.at("broker").contains("message_groups"));
}

TEST_CASE("message_groups: out of range, other presets and other orders refused at their pointers",
          "[presets][sqs][message_groups]") {
  CHECK_PROBLEM(Load(Grouped(nullptr, 0)), "/broker/message_groups", "");
  CHECK_PROBLEM(Load(Grouped(nullptr, 1'000'001)), "/broker/message_groups", "");
  CHECK_PROBLEM(Load(Grouped(nullptr, 2.5)), "/broker/message_groups", "");
  for (const char* preset : {"rabbitmq-quorum", "pubsub", "azure-service-bus", "nats-jetstream",
                             "celery", "sidekiq", "bullmq"}) {
    INFO(preset);
    CHECK_PROBLEM(Load(Grouped(preset)), "/broker/message_groups", "SQS FIFO");
  }
  CHECK_PROBLEM(Load(With(Grouped(nullptr), "/broker/requeue_position", "head")),
                "/broker/requeue_position", "message_groups");
  CHECK(MustLoad(With(Grouped(nullptr), "/broker/requeue_position", "tail"))
            .broker.message_groups == 8);
  CHECK_PROBLEM(Load(With(Grouped(nullptr), "/broker/max_length", 100)), "/broker/max_length",
                "message_groups");
  Json pending = With(Grouped(nullptr), "/broker/requeue_position", "redeliveries_first");
  CHECK_PROBLEM(Load(With(pending, "/broker/ack_pending_max", 10)), "/broker/ack_pending_max",
                "message_groups");
  CHECK_PROBLEM(Load(With(Grouped(nullptr), "/broker/delayed_retry",
                          Json{{"type", "all"}, {"min_s", 1}})),
                "/broker/delayed_retry", "message_groups");
}

TEST_CASE("message_groups: its two figures may be expected only with groups",
          "[presets][sqs][message_groups]") {
  const Json expect = Json::array({Json{{"metric", "ordering_violations"}, {"equals", 0}},
                                   Json{{"metric", "group_hold_max_s"}, {"max", 300}}});
  CHECK(MustLoad(With(Grouped("sqs"), "/expect", expect)).expect.size() == 2);
  const Json plain = With(testing::PresetScenario("sqs"), "/expect", expect);
  CHECK_PROBLEM(Load(plain), "/expect/0/metric", "broker.message_groups");
  CHECK_PROBLEM(Load(plain), "/expect/1/metric", "broker.message_groups");
  // A run-wide figure: no kind, no window.
  Json per_kind = expect;
  per_kind[0]["kind"] = "job";
  CHECK_FALSE(Load(With(Grouped("sqs"), "/expect", per_kind)).ok());
}

}  // namespace
}  // namespace message_groups_load_test
}  // namespace drainsim::scenario
