// broker.max_poll_records, broker.offset_commit and broker.auto_commit_interval_s through the
// loader (docs/PRESETS.md, "partitions"): what the kafka preset fills, the refusals at their
// pointers, and a dump that reads back the same and keeps every earlier kafka scenario's hash.
#include <catch2/catch.hpp>

#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace kafka_commit_load_test {
namespace {

using testing::CheckRoundTrip;
using testing::Json;
using testing::Load;
using testing::MustLoad;
using testing::With;

Json Kafka() { return testing::PresetScenario("kafka"); }

TEST_CASE("offset commits: the kafka preset fills 500 and record, left out of the dump",
          "[presets][kafka][commit]") {
  const config::Scenario s = MustLoad(Kafka());
  CHECK(s.broker.max_poll_records == 500);                         // max.poll.records
  CHECK(s.broker.offset_commit == config::OffsetCommit::kRecord);  // AckMode.RECORD
  CHECK_FALSE(s.broker.auto_commit_interval.has_value());
  CheckRoundTrip(s);
  // What the preset fills is not written: the hash of every kafka scenario stays as it was.
  const Json dump = Json::parse(DumpCanonical(s));
  CHECK_FALSE(dump.at("broker").contains("max_poll_records"));
  CHECK_FALSE(dump.at("broker").contains("offset_commit"));
  // Anything else is, and reads back the same.
  const config::Scenario batch = MustLoad(
      With(With(With(Kafka(), "/broker/offset_commit", "auto"), "/broker/max_poll_records", 20),
           "/broker/auto_commit_interval_s", 2.5));
  CHECK(batch.broker.offset_commit == config::OffsetCommit::kAuto);
  CHECK(batch.broker.max_poll_records == 20);
  CHECK(batch.broker.auto_commit_interval == engine::Duration::Millis(2500));
  CheckRoundTrip(batch);
  const Json written = Json::parse(DumpCanonical(batch));
  CHECK(written.at("broker").at("offset_commit") == "auto");
  CHECK(written.at("broker").at("max_poll_records") == 20);
  CHECK(written.at("broker").at("auto_commit_interval_s") == 2.5);
  for (const char* mode : {"batch", "before_processing", "record"}) {
    INFO(mode);
    CheckRoundTrip(MustLoad(With(Kafka(), "/broker/offset_commit", mode)));
  }
  // Without a preset, with partitions: null unless set.
  const Json plain = With(testing::PresetScenario(""), "/broker/partitions", 3);
  CHECK_FALSE(MustLoad(plain).broker.max_poll_records.has_value());
  const config::Scenario set = MustLoad(With(plain, "/broker/offset_commit", "batch"));
  CHECK(set.broker.offset_commit == config::OffsetCommit::kBatch);
  CheckRoundTrip(set);
}

TEST_CASE(
    "offset commits: refused without partitions, out of range, and the interval without "
    "auto",
    "[presets][kafka][commit]") {
  const Json plain = testing::PresetScenario("");
  CHECK_PROBLEM(Load(With(plain, "/broker/max_poll_records", 10)), "/broker/max_poll_records",
                "only with broker.partitions");
  CHECK_PROBLEM(Load(With(plain, "/broker/offset_commit", "batch")), "/broker/offset_commit",
                "only with broker.partitions");
  CHECK_PROBLEM(Load(With(testing::PresetScenario("sqs"), "/broker/offset_commit", "record")),
                "/broker/offset_commit", "only with broker.partitions");
  CHECK_PROBLEM(Load(With(Kafka(), "/broker/max_poll_records", 0)), "/broker/max_poll_records", "");
  CHECK_PROBLEM(Load(With(Kafka(), "/broker/max_poll_records", 100'001)),
                "/broker/max_poll_records", "");
  CHECK_PROBLEM(Load(With(Kafka(), "/broker/offset_commit", "manual")), "/broker/offset_commit",
                "");
  CHECK_PROBLEM(Load(With(Kafka(), "/broker/auto_commit_interval_s", 5)),
                "/broker/auto_commit_interval_s", "only with offset_commit \"auto\"");
  CHECK_PROBLEM(Load(With(With(Kafka(), "/broker/offset_commit", "auto"),
                          "/broker/auto_commit_interval_s", 0)),
                "/broker/auto_commit_interval_s", "");
  CHECK(MustLoad(With(Kafka(), "/broker/max_poll_records", 100'000)).broker.max_poll_records ==
        100'000);
}

}  // namespace
}  // namespace kafka_commit_load_test
}  // namespace drainsim::scenario
