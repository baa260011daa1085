// scenarios/preset-sqs-lambda.json: an AWS Lambda event-source mapping (workers.lambda_esm) reads
// an SQS queue for a function of reserved concurrency 50, at 2 thumbnails/s and a burst of 3,000
// at 300 s, each 5-15 s of work, visibility timeout 60 s, maxReceiveCount 5. The ESM's pollers
// outgrow the 50 execution environments, throttled receives count toward maxReceiveCount, and
// thumbnails that never ran land in the DLQ. With MaximumConcurrency 50 the same night throttles
// nothing. At the scenario's seed and three others; bounds from the rules, not from one run.
#include <catch2/catch.hpp>
#include <cstdint>

#include "tests/stories/story_support.h"

namespace drainsim::stories {
namespace preset_sqs_lambda_example_test {
namespace {

TEST_CASE(
    "preset sqs lambda example: a burst past the function's concurrency leaves spurious "
    "DLQ entries; MaximumConcurrency at the concurrency leaves none",
    "[stories][preset][sqs][lambda-esm]") {
  const config::Scenario s = LoadStory("preset-sqs-lambda");
  REQUIRE(s.workers.lambda_esm);
  REQUIRE(s.workers.lambda_esm->function_concurrency == 50);
  REQUIRE_FALSE(s.workers.lambda_esm->maximum_concurrency);
  REQUIRE(s.broker.receive_count_max == 5);
  config::Scenario capped = s;
  capped.workers.lambda_esm->maximum_concurrency = 50;
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results r = Run(s, seed);
    CheckConserved(r);
    // Work (<= 15 s) is shorter than the visibility timeout (60 s) and never fails: nothing
    // runs twice, and every DLQ entry is one that never ran.
    CHECK(r.attempts == r.acked);
    CHECK(r.dlq_end == r.dead_lettered_unprocessed);
    CHECK(r.not_terminal_end == 0);
    // The pollers grow by 5 a second while thumbnails wait, so within 10 s of the burst (from 5
    // at the least) they outnumber the 50 environments; at that instant a free poller throttles
    // every burst thumbnail still visible, and they come back together every 60 s, each return
    // finding at most 50 free environments. Before that instant at most 100 burst thumbnails
    // ran (50 environments, each at most twice in 10 s of 5 s or more of work); the 4 returns
    // (receives 2-5) run at most 4 x 50 more; at the 6th receive the rest are dead-lettered
    // (receive_count_max 5). So at least 3000 - 100 - 200 = 2700 never run.
    CHECK(r.dead_lettered_unprocessed >= 2700);
    CHECK(r.dead_lettered_unprocessed <= r.published - r.acked);
    CHECK(r.throttles >= 5 * r.dead_lettered_unprocessed);  // 5 throttled receives each
    CHECK(r.esm_pollers_end > 50);

    // MaximumConcurrency 50: at most 50 pollers, each waiting for its invocation, so none is
    // throttled, and every thumbnail runs once.
    const model::Results m = Run(capped, seed);
    CheckConserved(m);
    CHECK(m.throttles == 0);
    CHECK(m.dead_lettered_unprocessed == 0);
    CHECK(m.dlq_end == 0);
    CHECK(m.acked == m.published);
    CHECK(m.esm_pollers_end == 50);
  }
}

}  // namespace
}  // namespace preset_sqs_lambda_example_test
}  // namespace drainsim::stories
