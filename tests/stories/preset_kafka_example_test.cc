// scenarios/preset-kafka.json: a Kafka consumer group under Spring Kafka's defaults through a
// two-minute database outage. The DefaultErrorHandler retries a failed record at once, 10
// attempts in all, then its default recoverer logs it and commits past it: every order consumed
// during the outage is skipped (broker_lost, cause skipped) and nobody is asked to look
// (human_needed 0). With a dead-letter topic the same orders are dead-lettered instead. A poison
// order at 300 s stalls its partition for its 10 attempts of 2 s. At the scenario's seed and
// three others; bounds from the rules, not from one run.
#include <catch2/catch.hpp>
#include <cstdint>

#include "sim/model/message_state.h"
#include "tests/stories/story_support.h"

namespace drainsim::stories {
namespace preset_kafka_example_test {
namespace {

TEST_CASE("preset kafka example: a database outage under Spring Kafka's defaults skips every "
          "order it touches; a dead-letter topic keeps them",
          "[stories][preset][kafka]") {
  const config::Scenario s = LoadStory("preset-kafka");
  REQUIRE(s.broker.partitions == 12);
  REQUIRE_FALSE(s.broker.dead_letter_queue);
  config::Scenario with_topic = s;
  with_topic.broker.dead_letter_queue = true;
  with_topic.broker.without_dlq = config::WithoutDlq::kFailed;
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results r = Run(s, seed);
    CheckConserved(r);
    const int64_t skipped =
        r.broker_lost_by_cause[static_cast<size_t>(model::BrokerLossCause::kSkipped)];
    CHECK(skipped == r.broker_lost);
    // 40 orders/s for the outage's 120 s (4,800 expected, a Poisson count's 3 sigma is ~210),
    // plus the poison order.
    CHECK(skipped >= 4500);
    CHECK(skipped <= 5100);
    CHECK(r.human_needed == 0);
    CHECK(r.dlq_inflow == 0);
    // Each skipped order had its 10 attempts.
    CHECK(r.attempts >= r.acked + 10 * skipped);
    // The poison order: 10 attempts of 2 s, back to back, hold its partition 20 s.
    CHECK(r.group_hold_max_s == Approx(20.0).margin(1e-6));
    CHECK(r.partitions == 12);

    // The same night with a DeadLetterPublishingRecoverer: the same orders, dead-lettered.
    const model::Results topic = Run(with_topic, seed);
    CheckConserved(topic);
    CHECK(topic.broker_lost == 0);
    CHECK(topic.dlq_inflow == skipped);
    CHECK(topic.acked == r.acked);
  }
}

}  // namespace
}  // namespace preset_kafka_example_test
}  // namespace drainsim::stories
