// scenarios/preset-kafka-share.json: a Kafka share group (KIP-932, Kafka 4.2) through a
// two-minute database outage. A consumer RELEASEs a failed record, the broker hands it out again
// at once, and its fifth delivery's failure meets group.share.delivery.count.limit (5): every
// order acquired during the outage is archived (broker_lost, cause archived) and nobody is asked
// to look (human_needed 0). With the group's dead-letter topic (Kafka 4.4, KIP-1191) the same
// orders are dead-lettered instead. A poison order at 300 s takes 5 deliveries of 2 s on one
// consumer thread while the others go on. At the scenario's seed and three others; bounds from
// the rules, not from one run.
#include <catch2/catch.hpp>
#include <cstdint>

#include "sim/model/message_state.h"
#include "tests/stories/story_support.h"

namespace drainsim::stories {
namespace preset_kafka_share_example_test {
namespace {

TEST_CASE("preset kafka-share example: a database outage archives every order it touches after "
          "5 deliveries; the group's dead-letter topic keeps them",
          "[stories][preset][kafka-share]") {
  const config::Scenario s = LoadStory("preset-kafka-share");
  REQUIRE(s.broker.receive_count_max == 5);
  REQUIRE_FALSE(s.broker.dead_letter_queue);
  config::Scenario with_topic = s;
  with_topic.broker.version = "4.4";
  with_topic.broker.dead_letter_queue = true;
  with_topic.broker.without_dlq = config::WithoutDlq::kFailed;
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results r = Run(s, seed);
    CheckConserved(r);
    const int64_t archived =
        r.broker_lost_by_cause[static_cast<size_t>(model::BrokerLossCause::kArchived)];
    CHECK(archived == r.broker_lost);
    // 40 orders/s for the outage's 120 s (4,800 expected, a Poisson count's 3 sigma is ~210),
    // plus the poison order.
    CHECK(archived >= 4500);
    CHECK(archived <= 5100);
    CHECK(r.human_needed == 0);
    CHECK(r.dlq_inflow == 0);
    // Each archived order was delivered 5 times, each acked one at least once.
    CHECK(r.attempts >= r.acked + 5 * archived);
    CHECK(r.acked + archived + r.not_terminal_end == r.published);

    // The same night with the group's dead-letter topic: the same orders, dead-lettered.
    const model::Results topic = Run(with_topic, seed);
    CheckConserved(topic);
    CHECK(topic.broker_lost == 0);
    CHECK(topic.dlq_inflow == archived);
    CHECK(topic.acked == r.acked);
  }
}

}  // namespace
}  // namespace preset_kafka_share_example_test
}  // namespace drainsim::stories
