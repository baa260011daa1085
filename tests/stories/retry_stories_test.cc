// Retry stories: a retry storm with and without jitter, a consumer that sleeps through its
// backoff against one that re-publishes, and what lost acks do to three kinds of work.
#include <catch2/catch.hpp>
#include <cstdint>

#include "tests/stories/story_support.h"

namespace drainsim::stories {
namespace retry_stories_test {
namespace {

constexpr size_t kRateLimited = static_cast<size_t>(config::ErrorClass::kRateLimited);
constexpr size_t kTransient = static_cast<size_t>(config::ErrorClass::kTransient);

TEST_CASE("retry storm: full jitter makes fewer calls and gets fewer 429s than no jitter",
          "[stories][retry]") {
  const config::Scenario none = LoadStory("retry-storm-no-jitter");
  const config::Scenario full = LoadStory("retry-storm-full-jitter");
  REQUIRE(none.seed == full.seed);
  for (const uint64_t seed : StorySeeds(none)) {
    INFO("seed " << seed);
    const model::Results a = Run(none, seed);
    const model::Results b = Run(full, seed);
    CheckConserved(a);
    CheckConserved(b);
    INFO("no jitter: " << a.downstream_calls << " calls, " << a.downstream_429s
                       << " 429s; full jitter: " << b.downstream_calls << " calls, "
                       << b.downstream_429s << " 429s");
    // Every failure is a 429 and every attempt one call.
    CHECK(a.failures_by_class[kRateLimited] == a.downstream_429s);
    CHECK(b.failures_by_class[kRateLimited] == b.downstream_429s);
    CHECK(a.downstream_calls == a.attempts);
    // Without jitter each wave of retries lands in one instant: one bucket's worth (20) gets
    // through per wave, 10 waves, and the rest are dead-lettered after 10 attempts.
    CHECK(a.acked <= 10 * 20 + 20);
    CHECK(a.dlq_end >= 2500);
    // Full jitter spreads them: at least a quarter fewer 429s and calls, nearly all delivered.
    CHECK(static_cast<double>(b.downstream_429s) <= 0.75 * static_cast<double>(a.downstream_429s));
    CHECK(b.downstream_calls < a.downstream_calls);
    CHECK(b.acked >= 2900);
    CHECK(b.dlq_end <= 100);
  }
}

TEST_CASE("sleeping consumer: reports prefetched behind a sleeping consumer wait, re-published retries do not",
          "[stories][retry]") {
  const config::Scenario sleep = LoadStory("sleeping-consumer-sleep");
  const config::Scenario republish = LoadStory("sleeping-consumer-republish");
  REQUIRE(sleep.seed == republish.seed);
  for (const uint64_t seed : StorySeeds(sleep)) {
    INFO("seed " << seed);
    const model::Results a = Run(sleep, seed);
    const model::Results b = Run(republish, seed);
    CheckConserved(a);
    CheckConserved(b);
    // The same webhooks fail the same attempts in both (per-message random streams).
    CHECK(a.failures_by_class[kTransient] == b.failures_by_class[kTransient]);
    CHECK(a.failures_by_class[kTransient] > 1000);
    // Reports never fail, yet behind a sleeping consumer their p99 is seconds.
    const double sleep_p99_s = QuantileS(Kind(a, "report").message_latency_us, 0.99);
    const double republish_p99_s = QuantileS(Kind(b, "report").message_latency_us, 0.99);
    INFO("report p99: sleeping " << sleep_p99_s << " s, re-published " << republish_p99_s << " s");
    CHECK(sleep_p99_s >= 2);
    CHECK(republish_p99_s < 0.5);
    CHECK(sleep_p99_s >= 20 * republish_p99_s);
    CHECK(MaxS(Kind(a, "report").message_latency_us) >= 10);
    CHECK(MaxS(Kind(b, "report").message_latency_us) < 1);
  }
}

TEST_CASE("lost acks: claim rows stop duplicates, deletes converge, emails go out twice",
          "[stories][retry]") {
  const config::Scenario s = LoadStory("lost-acks");
  for (const uint64_t seed : StorySeeds(s)) {
    INFO("seed " << seed);
    const model::Results r = Run(s, seed);
    CheckConserved(r);
    const model::KindResults& purge = Kind(r, "purge");
    const model::KindResults& del = Kind(r, "delete");
    const model::KindResults& email = Kind(r, "email");
    // Both sources of redelivery after a commit are at work.
    CHECK(r.duplicates_by_cause[static_cast<size_t>(model::DuplicateCause::kLostAck)] > 0);
    CHECK(r.duplicates_by_cause[static_cast<size_t>(model::DuplicateCause::kCrashAfterCommit)] > 0);
    CHECK(r.duplicates_suppressed + r.duplicate_executions > 100);
    // claim: the claim row stops every duplicate.
    CHECK(purge.duplicate_executions == 0);
    CHECK(purge.duplicates_suppressed > 0);
    CHECK(r.duplicates_suppressed == purge.duplicates_suppressed);
    // converge: the delete runs again, at a cost, with nothing visible.
    CHECK(del.duplicate_executions > 0);
    CHECK(del.visible_duplicates == 0);
    // none: every duplicate execution is a second email.
    CHECK(email.visible_duplicates > 0);
    CHECK(email.visible_duplicates == email.duplicate_executions);
    CHECK(r.visible_duplicates == email.visible_duplicates);
    CHECK(r.duplicate_executions == del.duplicate_executions + email.duplicate_executions);
    CHECK(r.dlq_end == 0);
  }
}

}  // namespace
}  // namespace retry_stories_test
}  // namespace drainsim::stories
