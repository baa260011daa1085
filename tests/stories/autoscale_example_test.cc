// scenarios/autoscale.json: 12,000 purges of one database query each, fanned out at 60 s, on a
// database of 20 connections shared with 50 live queries a second; workers autoscaled on queue
// depth (target 200 a worker, 10 to 60). The autoscaler grows the pool far past the database's
// connections, so the drain queues at the database: it ends later than a fixed pool of 10, live
// queries wait seconds, and purge queries time out. At the scenario's seed and three others;
// bounds from the rules, not from one run.
#include <catch2/catch.hpp>
#include <cstdint>

#include "tests/stories/story_support.h"

namespace drainsim::stories {
namespace autoscale_example_test {
namespace {

TEST_CASE(
    "autoscale example: scaling a drain on depth overruns the database; a fixed pool does not",
    "[stories][autoscale]") {
  const config::Scenario s = LoadStory("autoscale");
  REQUIRE(s.workers.autoscale);
  REQUIRE(s.workers.autoscale->max == 60);
  REQUIRE(s.database);
  REQUIRE(s.database->connections == 20);
  config::Scenario fixed = s;
  fixed.workers.autoscale.reset();  // workers.count 10 for the whole run
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results a = Run(s, seed);
    CheckConserved(a);
    CHECK(a.acked == 12000);
    // 12,000 / 200 = 60 proposed: from 10 the HPA doubles (limit max(2 x 10, 14) = 20, then 40),
    // then takes the proposal, ceil(depth / 200) <= 60, once the first workers have drained
    // some. More than twice the database's connections, whatever the seed.
    CHECK(a.autoscale_scale_ups >= 3);
    CHECK(a.autoscale_workers_max > 40);
    CHECK(a.autoscale_workers_max <= 60);
    CHECK(a.db_timeouts > 0);
    REQUIRE(a.backlog_cleared_s);

    const model::Results f = Run(fixed, seed);
    CheckConserved(f);
    CHECK(f.acked == 12000);
    CHECK_FALSE(f.autoscale);
    CHECK(f.db_timeouts == 0);
    REQUIRE(f.backlog_cleared_s);
    // The lesson: more workers than connections make the drain slower, not faster, and the
    // live traffic pays (a p99 ten times the fixed pool's at least).
    CHECK(*a.backlog_cleared_s > *f.backlog_cleared_s);
    CHECK(a.live_latency_us.Quantile(0.99) > 10 * f.live_latency_us.Quantile(0.99));
    CHECK(a.autoscale_worker_s > 3 * 10 * *f.backlog_cleared_s);
  }
}

}  // namespace
}  // namespace autoscale_example_test
}  // namespace drainsim::stories
