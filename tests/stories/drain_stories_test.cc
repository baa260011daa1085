// Drain stories: the monthly rehearsal, the 02:00 cleanup and its morning drain, and seed 001's
// 50,000-message redrive done with the console button (bulk) and with a drip-feed.
#include <catch2/catch.hpp>
#include <cstdint>

#include "tests/stories/story_support.h"

namespace drainsim::stories {
namespace drain_stories_test {
namespace {

TEST_CASE("monthly rehearsal: 500 synthetic failures dead-lettered, then drained at 20/s, at most 500",
          "[stories][drain]") {
  const config::Scenario s = LoadStory("monthly-rehearsal");
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results r = Run(s, seed);
    CheckConserved(r);
    REQUIRE(r.drains.size() == 1);
    const model::DrainResults& drain = r.drains[0];
    // The DLQ held the 500 synthetic failures and last month's 12 poison purges.
    CHECK(Reason(r, "parked:drain") == 12);
    CHECK(drain.parked == 12);
    CHECK(drain.replayed == 500);
    CHECK(drain.left == 0);
    CHECK(r.refilled == 0);
    CHECK(r.human_needed == 12);
    CHECK(r.dlq_end == 0);
    // A drip at 20/s: 500 replays take 500 / 20 = 25 s.
    CHECK(drain.achieved_rate_per_s == Approx(20).epsilon(0.10));
    REQUIRE(drain.started_at_s);
    REQUIRE(drain.ended_at_s);
    CHECK(*drain.ended_at_s - *drain.started_at_s == Approx(500.0 / 20).epsilon(0.10));
    REQUIRE(r.time_to_empty_s);
    CHECK(*r.time_to_empty_s <= 1800);  // the scenario's expectation
    // Claim rows stop every duplicate purge; emails have none, so lost acks show.
    CHECK(Kind(r, "purge").duplicate_executions == 0);
    CHECK(Kind(r, "purge").duplicates_suppressed > 0);
    CHECK(r.visible_duplicates == Kind(r, "email").visible_duplicates);
    // The drain costs live traffic nothing it would notice.
    CHECK(QuantileMs(drain.live_latency_us, 0.99) <= 250);
  }
}

TEST_CASE("cleanup at 02:00: the slowdown dead-letters purges and the 90k course, the 08:00 drip replays them all",
          "[stories][drain]") {
  const config::Scenario s = LoadStory("cleanup-0200");
  constexpr double kSweep = 7200, kSlowdownEnds = 9000, kDrain = 28800;
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results r = Run(s, seed);
    CheckConserved(r);
    CHECK(r.published == 3001);
    // Statement timeouts during the slowdown, and the dead letters they leave by morning.
    CHECK(r.db_timeouts > 100);
    const double dlq_before_drain = MaxOf(r, kSlowdownEnds, kDrain, [](const model::Sample& x) {
      return static_cast<double>(x.dlq_depth);
    });
    CHECK(dlq_before_drain >= 20);
    // Course 4812 (90 batches) fails five times and succeeds on its replay.
    CHECK(Kind(r, "purge-90k").attempts == 6);
    CHECK(Kind(r, "purge-90k").acked == 1);
    // The sweep's oldest purge waits past the 15-minute age alert, during the slowdown.
    REQUIRE(r.age_alert_first_s);
    CHECK(*r.age_alert_first_s > kSweep);
    CHECK(*r.age_alert_first_s < kSlowdownEnds);
    // The morning drain replays exactly what was dead-lettered, and it all succeeds.
    REQUIRE(r.drains.size() == 1);
    CHECK(r.drains[0].replayed == static_cast<int64_t>(dlq_before_drain));
    CHECK(r.refilled == 0);
    CHECK(r.human_needed == 0);
    CHECK(r.dlq_end == 0);
    CHECK(r.acked == r.published);
    REQUIRE(r.time_to_empty_s);
    CHECK(*r.time_to_empty_s <= 600);
    // The worker killed between commit and ack: its purge comes back and stops at the claim row.
    CHECK(r.duplicate_executions == 0);
    CHECK(r.duplicates_suppressed >= 1);
    CHECK(QuantileMs(r.drains[0].live_latency_us, 0.99) <= 250);
  }
}

TEST_CASE("bulk redrive of 50,000: the database overloads, live p99 jumps, fresh orders fail and the DLQ refills",
          "[stories][drain]") {
  const config::Scenario s = LoadStory("bulk-vs-drip-bulk");
  REQUIRE(s.database);
  CHECK(s.database->overload_factor > 0);
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results r = Run(s, seed);
    CheckConserved(r);
    REQUIRE(r.drains.size() == 1);
    const model::DrainResults& drain = r.drains[0];
    CHECK(drain.replayed == 50000);
    CHECK(r.db_timeouts > 10000);
    CHECK(drain.db_utilisation > 0.95);
    // Live traffic: p99 during the drain at least 3x the pre-drain baseline (it is ~60x).
    const double baseline_p99_ms = QuantileMs(r.live_latency_before_drains_us, 0.99);
    const double during_p99_ms = QuantileMs(drain.live_latency_us, 0.99);
    INFO("live p99 before " << baseline_p99_ms << " ms, during " << during_p99_ms << " ms");
    CHECK(baseline_p99_ms < 100);
    CHECK(during_p99_ms >= 3 * baseline_p99_ms);
    CHECK(r.live_errors > 0);
    // Replays that time out three times go back to the DLQ, and so do fresh orders.
    CHECK(r.refilled >= 5000);
    CHECK(drain.refilled == r.refilled);
    CHECK(Kind(r, "order").acked < Kind(r, "order").published);
    CHECK(r.dlq_end > r.refilled);
    // And the button is not even fast: slower than the 500 s drip of the same backlog.
    REQUIRE(r.time_to_empty_s);
    CHECK(*r.time_to_empty_s > 2 * 500);
  }
}

TEST_CASE("drip redrive of 50,000 at 100/s: no timeouts, no refill, live p99 as before, empty in backlog / rate",
          "[stories][drain]") {
  const config::Scenario s = LoadStory("bulk-vs-drip-drip");
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results r = Run(s, seed);
    CheckConserved(r);
    REQUIRE(r.drains.size() == 1);
    const model::DrainResults& drain = r.drains[0];
    CHECK(drain.replayed == 50000);
    CHECK(r.refilled == 0);
    CHECK(r.db_timeouts == 0);
    CHECK(r.live_errors == 0);
    CHECK(drain.db_utilisation < 0.5);
    const double baseline_p99_ms = QuantileMs(r.live_latency_before_drains_us, 0.99);
    const double during_p99_ms = QuantileMs(drain.live_latency_us, 0.99);
    INFO("live p99 before " << baseline_p99_ms << " ms, during " << during_p99_ms << " ms");
    CHECK(during_p99_ms <= 1.5 * baseline_p99_ms);
    // Time to empty: backlog / rate = 50,000 / 100 = 500 s, within 10%.
    REQUIRE(r.time_to_empty_s);
    CHECK(*r.time_to_empty_s == Approx(50000.0 / 100).epsilon(0.10));
    CHECK(drain.achieved_rate_per_s == Approx(100).epsilon(0.10));
    CHECK(r.dlq_end == 0);
    CHECK(r.acked + r.not_terminal_end == r.published);  // an order may be in flight at the end
  }
}

}  // namespace
}  // namespace drain_stories_test
}  // namespace drainsim::stories
