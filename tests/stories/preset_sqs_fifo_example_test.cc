// scenarios/preset-sqs-fifo.json: an SQS FIFO queue with one message group per customer. A five-
// minute bug dead-letters one order per customer instead of every order of its first 30 s, but
// each customer's orders wait behind the failing one for maxReceiveCount x the visibility timeout,
// and the redrive puts the dead letters behind later orders of their customers. At the scenario's
// seed and three others, against the same night on a standard queue (message_groups removed).
// Bounds from the rules: receives at t, t + 30, ..., t + 270 fail iff t + 270 < 900 (the fix).
#include <catch2/catch.hpp>
#include <cstdint>

#include "tests/stories/story_support.h"

namespace drainsim::stories {
namespace preset_sqs_fifo_example_test {
namespace {

TEST_CASE(
    "preset sqs fifo example: one dead letter per customer, 300 s holds, and a redrive that "
    "breaks each customer's order",
    "[stories][preset][sqs]") {
  const config::Scenario s = LoadStory("preset-sqs-fifo");
  REQUIRE(s.broker.message_groups == 500);
  config::Scenario standard = s;
  standard.broker.message_groups.reset();
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results fifo = Run(s, seed);
    CheckConserved(fifo);
    // A customer whose first order of the bug came in its first 30 s (600 <= t < 630) loses it
    // to the DLQ after exactly 300 s; at 50 orders/s over 500 customers, about 95% of them do.
    CHECK(fifo.group_hold_max_s == 300.0);
    CHECK(fifo.dlq_inflow >= 430);
    CHECK(fifo.dlq_inflow <= 500);
    CHECK(fifo.human_needed == 0);
    // Every redriven order is acked after later orders of its customer.
    CHECK(fifo.replays == fifo.dlq_inflow);
    CHECK(fifo.ordering_violations == fifo.replays);
    // Behind the held groups the queue fills: the depth alert (5,000) fires.
    REQUIRE(fifo.depth_alert_first_s);
    CHECK(*fifo.depth_alert_first_s < 900);

    const model::Results plain = Run(standard, seed);
    CheckConserved(plain);
    CHECK(plain.message_groups == 0);
    // Standard queue: every order of the bug's first 30 s is dead-lettered (50/s: ~1,500), and
    // nothing waits behind them.
    CHECK(plain.dlq_inflow >= 1350);
    CHECK(plain.dlq_inflow <= 1650);
    CHECK_FALSE(plain.depth_alert_first_s);
  }
}

}  // namespace
}  // namespace preset_sqs_fifo_example_test
}  // namespace drainsim::stories
