// Failure stories from seed 001 and seed 000: poison pills with and without classification, the
// slow-motion outage against a healthy deep queue (age vs depth alerts), and a metastable
// failure with and without a retry budget.
#include <catch2/catch.hpp>
#include <cstdint>

#include "tests/stories/story_support.h"

namespace drainsim::stories {
namespace failure_stories_test {
namespace {

constexpr size_t kTransient = static_cast<size_t>(config::ErrorClass::kTransient);
constexpr size_t kPermanent = static_cast<size_t>(config::ErrorClass::kPermanent);
constexpr size_t kUnknown = static_cast<size_t>(config::ErrorClass::kUnknown);

auto Busy = [](const model::Sample& x) { return static_cast<double>(x.workers_busy); };
auto Depth = [](const model::Sample& x) { return static_cast<double>(x.depth); };
auto DbQueue = [](const model::Sample& x) { return static_cast<double>(x.db_queue); };
auto LiveP99 = [](const model::Sample& x) { return x.live_p99_ms; };

TEST_CASE(
    "poison pills unclassified: 10 pills x 5 attempts x 30 s of worker time, healthy orders wait",
    "[stories][failure]") {
  const config::Scenario s = LoadStory("poison-pills");
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results r = Run(s, seed);
    CheckConserved(r);
    // 10 pills x 5 attempts x 30 s = 1,500 worker-seconds (plus 1 ms of validation each).
    CHECK(r.wasted_worker_s == Approx(10 * 5 * 30.0).margin(0.1));
    CHECK(r.failures_by_class[kUnknown] == 50);
    CHECK(Reason(r, "dlq:max_attempts") == 10);
    CHECK(r.human_needed == 10);
    // The whole fleet of 10 is on pills at once, and healthy orders queue behind them.
    CHECK(MaxOf(r, 600, 900, Busy) == 10);
    CHECK(MaxOf(r, 600, 900, Depth) >= 50);
    const model::KindResults& orders = Kind(r, "order");
    CHECK(MaxS(orders.message_latency_us) >= 20);  // against 0.4 s when nothing is poisoned
    CHECK(QuantileS(orders.message_latency_us, 0.99) >= 10);
    REQUIRE(r.age_alert_first_s);
  }
}

TEST_CASE("poison pills fail fast: permanent at validation, dead-lettered at once, nothing wasted",
          "[stories][failure]") {
  const config::Scenario s = LoadStory("poison-pills-failfast");
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results r = Run(s, seed);
    CheckConserved(r);
    CHECK(r.wasted_worker_s < 0.1);  // 10 validations of 1 ms
    CHECK(r.failures_by_class[kPermanent] == 10);
    CHECK(r.failures_by_class[kUnknown] == 0);
    CHECK(Reason(r, "dlq:not_retryable") == 10);
    CHECK(r.human_needed == 10);
    // Healthy orders never notice: claim + one 200 ms query + 1 ms validation.
    CHECK(MaxS(Kind(r, "order").message_latency_us) < 1);
    CHECK_FALSE(r.age_alert_first_s);
  }
}

TEST_CASE(
    "slow-motion outage: the oldest message ages past the alert while the depth stays unremarkable",
    "[stories][failure]") {
  const config::Scenario s = LoadStory("slow-motion-outage");
  REQUIRE(s.alerts.depth);
  REQUIRE(s.alerts.oldest_age);
  const double age_alert_s = s.alerts.oldest_age->seconds();
  constexpr double kSlowdown = 3600, kSlowdownEnds = 10800;
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results r = Run(s, seed);
    CheckConserved(r);
    // The age alert fires within minutes of the slowdown; the depth alert never does.
    REQUIRE(r.age_alert_first_s);
    CHECK(*r.age_alert_first_s > kSlowdown + age_alert_s);
    CHECK(*r.age_alert_first_s <= kSlowdown + 2 * age_alert_s);
    CHECK_FALSE(r.depth_alert_first_s);
    CHECK(MaxOf(r, 0, 1e9, Depth) < 0.25 * static_cast<double>(*s.alerts.depth));
    CHECK(r.oldest_age_max_s >= 3600);
    // Workers hold connections until the 5 s statement timeout: failing slowly eats over half
    // of the fleet's 10 x 7,200 worker-seconds.
    CHECK(r.db_timeouts > 1000);
    CHECK(r.failures_by_class[kTransient] == r.db_timeouts);
    CHECK(r.wasted_worker_s > 0.5 * 10 * (kSlowdownEnds - kSlowdown));
    CHECK(MinOf(r, kSlowdown + 300, kSlowdownEnds, Busy) == 10);
  }
}

TEST_CASE("healthy deep queue: the depth alert fires and the age alert does not",
          "[stories][failure]") {
  const config::Scenario s = LoadStory("healthy-deep-queue");
  REQUIRE(s.alerts.oldest_age);
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results r = Run(s, seed);
    CheckConserved(r);
    REQUIRE(r.depth_alert_first_s);
    CHECK(*r.depth_alert_first_s == Approx(7200).margin(10));
    CHECK(MaxOf(r, 0, 1e9, Depth) > 10000);
    CHECK_FALSE(r.age_alert_first_s);
    CHECK(r.oldest_age_max_s < s.alerts.oldest_age->seconds());
    CHECK(r.acked == 12000);
    CHECK(r.attempts == 12000);
    REQUIRE(r.time_to_quiet_s);
    CHECK(*r.time_to_quiet_s < 7200 + 900);
  }
}

// The trigger: a 60 s slowdown from 600 s to 660 s. "Long after" is 10 minutes after it ends.
constexpr double kTriggerStarts = 600, kTriggerEnds = 660, kLongAfter = kTriggerEnds + 600;

TEST_CASE(
    "metastable without a retry budget: still saturated and failing 10 minutes after a 60 s "
    "trigger",
    "[stories][failure]") {
  const config::Scenario s = LoadStory("metastable-no-budget");
  const int64_t slots = s.workers.count * s.workers.concurrency;
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results r = Run(s, seed);
    CheckConserved(r);
    // Healthy before the trigger: nothing waits for the database, live p99 is tens of ms.
    CHECK(MaxOf(r, 0, kTriggerStarts, DbQueue) <= 2);
    CHECK(MaxOf(r, 60, kTriggerStarts, LiveP99) < 200);
    // From 10 minutes after the trigger ended to the end of the run: every worker slot busy,
    // dozens of queries waiting, live queries at the 2 s timeout, the backlog growing.
    const double end = r.ended_at_s;
    CHECK(MinOf(r, kLongAfter, end, Busy) == static_cast<double>(slots));
    CHECK(MinOf(r, kLongAfter, end, DbQueue) >= 40);
    CHECK(MinOf(r, kLongAfter, end, LiveP99) >= 1000);
    CHECK(MaxOf(r, end - 60, end, Depth) > MaxOf(r, kLongAfter, kLongAfter + 60, Depth) + 500);
    CHECK(r.db_timeouts > 20000);
    CHECK(Reason(r, "dlq:max_attempts") > 1000);
  }
}

TEST_CASE("metastable with a retry budget: recovered within a minute of the trigger ending",
          "[stories][failure]") {
  const config::Scenario s = LoadStory("metastable-budget");
  REQUIRE(s.retry.budget);
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results r = Run(s, seed);
    CheckConserved(r);
    // During the trigger it hurts as much...
    CHECK(MaxOf(r, kTriggerStarts, kTriggerEnds, DbQueue) >= 10);
    // ...but a minute after it ends nothing waits for the database and nothing queues.
    const double end = r.ended_at_s;
    CHECK(MaxOf(r, kTriggerEnds + 60, end, DbQueue) == 0);
    CHECK(MaxOf(r, kTriggerEnds + 60, end, Depth) <= 5);
    CHECK(MaxOf(r, kTriggerEnds + 60, end, LiveP99) < 500);
    CHECK(r.db_timeouts < 5000);
    // The price: the refused retries are in the DLQ, for a drain at a safe rate later.
    CHECK(Reason(r, "dlq:retry_budget") > 0);
    CHECK(Reason(r, "dlq:retry_budget") == r.dlq_end);
    CHECK(r.dlq_end < r.published / 10);
  }
}

TEST_CASE(
    "dlq full: at-most-once dead-lettering loses what a capped DLQ refuses; at least once, none",
    "[stories][failure][broker_lost]") {
  config::Scenario s = LoadStory("dlq-full");
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results most = Run(s, seed);
    CheckConserved(most);
    // Half of 30 minutes of orders at 2/s fail: about 1,800 dead letters; the DLQ keeps 1,000.
    CHECK(most.dlq_inflow == 1000);
    CHECK(most.broker_lost ==
          most.broker_lost_by_cause[static_cast<size_t>(model::BrokerLossCause::kDlqFull)]);
    CHECK(most.broker_lost > 600);
    CHECK(most.broker_lost < 1100);
    CHECK(most.drains[0].replayed == 1000);  // the drain replays only what was kept
    CHECK(most.acked + most.broker_lost == most.published);
  }
  s.broker.dead_letter_strategy = config::DeadLetterStrategy::kAtLeastOnce;
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed << ", at least once");
    const model::Results least = Run(s, seed);
    CheckConserved(least);
    CHECK(least.broker_lost == 0);
    CHECK(least.acked == least.published);  // the refused waited, and the drain made room
    CHECK(least.drains[0].replayed > 1000);
    CHECK(least.dead_letter_waiting_end == 0);
  }
}

}  // namespace
}  // namespace failure_stories_test
}  // namespace drainsim::stories
