// scenarios/preset-rabbitmq-delayed-retry.json: RabbitMQ 4.3's delayed retry carries a reject
// loop through a database outage that the delivery limit would otherwise turn into dead letters.
// At the scenario's seed and three others, with the counterfactuals its description names (no
// delayed retry; a longer outage at min 1 s and at min 2 s), changed in C++ on the loaded scenario.
// Bounds from the rule: the n-th counted reject waits n x min_s, and the 21st dead-letters.
#include <catch2/catch.hpp>
#include <cstdint>
#include <variant>

#include "tests/stories/story_support.h"

namespace drainsim::stories {
namespace preset_delayed_retry_example_test {
namespace {

constexpr double kOutageFromS = 300;
constexpr double kOutageUntilS = 480;

// The scenario's db_outage window set to end at `until_s`.
config::Scenario WithOutageUntil(config::Scenario s, double until_s) {
  REQUIRE(s.faults.size() == 1);
  auto* outage = std::get_if<config::DbOutageFault>(&s.faults[0]);
  REQUIRE(outage != nullptr);
  outage->window.until = engine::Instant::Micros(static_cast<int64_t>(until_s * 1e6));
  return s;
}

TEST_CASE(
    "preset rabbitmq delayed-retry example: a 180 s outage fits 20 growing waits, and without them "
    "every order of the outage is dead-lettered",
    "[stories][preset][rabbitmq]") {
  const config::Scenario s = LoadStory("preset-rabbitmq-delayed-retry");
  REQUIRE(s.broker.delayed_retry.has_value());
  REQUIRE(s.broker.delivery_limit == 20);
  SECTION("delayed retry, min 1 s: the waits sum to 210 s > 180 s, nothing dead-lettered") {
    for (const uint64_t seed : StorySeeds(s)) {
      INFO("seed " << seed);
      const model::Results r = Run(s, seed);
      CheckConserved(r);
      CHECK(r.dlq_inflow == 0);
      CHECK(r.human_needed == 0);
      CHECK(r.dlq_end == 0);
      CHECK(r.parked == 0);
      CHECK(r.not_terminal_end <= 2);  // published in the run's last moments
      // An order that arrived as the outage began waits it out, plus at most its last wait (the
      // 19th, 19 s: 1 + ... + 19 = 190 s >= 180 s).
      CHECK(r.oldest_age_max_s >= kOutageUntilS - kOutageFromS - 1);
      CHECK(r.oldest_age_max_s <= kOutageUntilS - kOutageFromS + 19 + 1);
      REQUIRE(r.age_alert_first_s);
    }
  }
  SECTION("without delayed retry: each order of the outage is rejected 21 times in moments") {
    config::Scenario plain = s;
    plain.broker.delayed_retry.reset();
    for (const uint64_t seed : StorySeeds(s)) {
      INFO("seed " << seed);
      const model::Results r = Run(plain, seed);
      CheckConserved(r);
      // 20/s over 180 s: about 3,600 (Poisson, sd 60), all by the delivery limit.
      CHECK(r.dlq_inflow >= 3300);
      CHECK(r.dlq_inflow <= 3900);
      CHECK(Reason(r, "dlq:delivery_limit") == r.dlq_inflow);
      // The trap: the main queue never ages, so the age alert stays silent.
      CHECK(r.oldest_age_max_s < 1);
      CHECK_FALSE(r.age_alert_first_s);
    }
  }
  SECTION("a 240 s outage: 210 s of waits are not enough at min 1 s, at min 2 s (420 s) they are") {
    const config::Scenario longer = WithOutageUntil(s, kOutageFromS + 240);
    config::Scenario doubled = longer;
    doubled.broker.delayed_retry->min = engine::Duration::Seconds(2);
    for (const uint64_t seed : StorySeeds(s)) {
      INFO("seed " << seed);
      const model::Results r1 = Run(longer, seed);
      CheckConserved(r1);
      // Orders of roughly the first 30 s of the outage run out of returns before it ends.
      CHECK(r1.dlq_inflow > 0);
      CHECK(r1.dlq_inflow < 20 * (240 - 210 + 10));
      CHECK(Reason(r1, "dlq:delivery_limit") == r1.dlq_inflow);
      const model::Results r2 = Run(doubled, seed);
      CheckConserved(r2);
      CHECK(r2.dlq_inflow == 0);
    }
  }
}

}  // namespace
}  // namespace preset_delayed_retry_example_test
}  // namespace drainsim::stories
