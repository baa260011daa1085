// scenarios/preset-nats.json (scenarios/README.md, "Preset examples"): NATS JetStream's
// MaxAckPending stalls new deliveries silently during an outage, while Nak'd orders burn their
// MaxDeliver 10 and the advisory consumer moves them to a DLQ stream. Asserted at the scenario's
// seed and three others, with the counterfactual without MaxAckPending.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>

#include "tests/stories/story_support.h"

namespace drainsim::stories {
namespace preset_nats_example_test {
namespace {

constexpr double kOutageFromS = 1800;
constexpr double kOutageUntilS = 3000;
constexpr int64_t kAckPendingMax = 1000;

TEST_CASE(
    "preset nats-jetstream example: MaxAckPending stalls new orders silently while Nak'd ones "
    "burn MaxDeliver into the DLQ stream, in batches of 1,000",
    "[stories][preset][nats]") {
  config::Scenario s = LoadStory("preset-nats");
  REQUIRE(s.broker.ack_pending_max == kAckPendingMax);
  REQUIRE(s.broker.receive_count_max == 10);
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results r = Run(s, seed);
    CheckConserved(r);
    // Each order of the outage holds its slot for 10 deliveries 30.05 s apart (a 50 ms failing
    // call, a 30 s Nak delay): 300.5 s, its 10th delivery failing at +270.5 s. At 5/s the 1,000
    // slots fill by about 2000 s; each batch of 1,000 frees the slots for the next as it dies
    // (2100-2300, 2400-2600, 2700-2900 s). The fourth batch, let in from about 2700.5 s, dies
    // only where let in before 3000 - 270.5 = 2729.5 s: about 29 s x 5/s = 145 orders.
    CHECK(r.dlq_inflow > 3 * kAckPendingMax + 80);
    CHECK(r.dlq_inflow < 3 * kAckPendingMax + 220);
    // The stall: at the limit while orders wait in the stream, during the outage only.
    bool stalled = false;
    for (const model::Sample& x : r.series) {
      CHECK(x.ack_pending <= kAckPendingMax);
      if (x.ack_pending == kAckPendingMax && x.depth > 500) {
        stalled = true;
        CHECK(x.t_s > kOutageFromS + 150);
        CHECK(x.t_s <= kOutageUntilS);
      }
    }
    CHECK(stalled);
    // A stalled order waits for minutes (nothing says why), then succeeds after the outage.
    CHECK(r.oldest_age_max_s > 500);
    CHECK(r.oldest_age_max_s < 700);
    CHECK(r.duplicate_executions == 0);
    CHECK(r.acked + r.not_terminal_end == r.published);  // an order may be in flight at the end
    // The replay at 100/s: about 31 s, none dead-lettered again.
    REQUIRE(r.drains.size() == 1);
    CHECK(r.drains[0].replayed == r.dlq_inflow);
    CHECK(r.refilled == 0);
    REQUIRE(r.time_to_empty_s);
    CHECK(*r.time_to_empty_s == Approx(static_cast<double>(r.dlq_inflow) / 100).margin(0.5));
  }
  // Without MaxAckPending nothing stalls and nothing waits: every order published from 1800 s to
  // 2729.5 s fails its 10th delivery during the outage, about 5/s x 929.5 s = 4,648 (sd ~ 68).
  s.broker.ack_pending_max.reset();
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed << ", no MaxAckPending");
    const model::Results r = Run(s, seed);
    CheckConserved(r);
    CHECK(r.dlq_inflow > 4300);
    CHECK(r.dlq_inflow < 5000);
    CHECK(r.oldest_age_max_s < 310);
  }
}

}  // namespace
}  // namespace preset_nats_example_test
}  // namespace drainsim::stories
