// scenarios/preset-kafka-batch.json: the kafka preset with Spring's default AckMode.BATCH
// (broker.offset_commit "batch"). The database is 25x slower from 600 s to 900 s, the consumers
// catch up with large polls, and two of them crash mid-batch at 930 s: every record they had
// processed since their last commit runs again (the claim rows stop the work), where the
// preset's "record" reruns only the two records in hand. At the scenario's seed (the figures its
// description quotes) and three others.
#include <catch2/catch.hpp>
#include <cstdint>

#include "tests/stories/story_support.h"

namespace drainsim::stories {
namespace preset_kafka_batch_example_test {
namespace {

TEST_CASE("preset kafka batch example: a crash mid-batch reruns the uncommitted batch, a crash "
          "under record only the records in hand",
          "[stories][preset][kafka]") {
  const config::Scenario s = LoadStory("preset-kafka-batch");
  REQUIRE(s.broker.offset_commit == config::OffsetCommit::kBatch);
  config::Scenario per_record = s;
  per_record.broker.offset_commit = config::OffsetCommit::kRecord;
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results batch = Run(s, seed);
    const model::Results record = Run(per_record, seed);
    CheckConserved(batch);
    CheckConserved(record);
    CHECK(batch.broker_lost == 0);
    CHECK(batch.acked + batch.not_terminal_end == batch.published);
    // The same orders either way (the producers' draws do not depend on the commits).
    CHECK(batch.published == record.published);
    // Under record each crash reruns the record in hand, whose work had not committed.
    CHECK(record.attempts - record.first_attempts == 2);
    CHECK(record.duplicates_suppressed == 0);
    // Under batch each crashed batch's processed records run again: the claim rows stop every
    // one (idempotency claim), so no work runs twice.
    const int64_t reruns = batch.attempts - batch.first_attempts;
    CHECK(reruns >= 200);
    CHECK(batch.duplicates_suppressed >= 200);
    CHECK(batch.duplicates_suppressed <= reruns);
    CHECK(batch.duplicate_executions == 0);
    // A batch holds its partitions in flight until it commits.
    CHECK(batch.group_hold_max_s > 150);
    CHECK(record.group_hold_max_s < 60);
    if (seed == s.seed) {
      CHECK(batch.attempts == 72937);
      CHECK(batch.duplicates_suppressed == 601);
      CHECK(record.attempts == 72336);
    }
  }
}

}  // namespace
}  // namespace preset_kafka_batch_example_test
}  // namespace drainsim::stories
