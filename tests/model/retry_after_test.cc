#include "sim/model/retry_after.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "sim/engine/rng.h"
#include "tests/engine/death.h"

namespace drainsim::model {
namespace retry_after_test {
namespace {

using config::RetryAfterFormat;
using engine::Duration;
using engine::Instant;
using engine::testing::DiesOfFailedCheck;

constexpr RetryAfterFormat kSeconds = RetryAfterFormat::kSeconds;
constexpr RetryAfterFormat kHttpDate = RetryAfterFormat::kHttpDate;

Instant At(int64_t micros) { return Instant::Micros(micros); }
Duration Us(int64_t micros) { return Duration::Micros(micros); }

TEST_CASE("without skew neither format is early, nor a second late", "[model][retry_after]") {
  auto rng = engine::Rng::FromSeed(429);
  for (int i = 0; i < 100'000; ++i) {
    const Instant now = At(static_cast<int64_t>(rng.UniformInt(10'000'000'000)));
    // Mostly ahead by a sub-second amount, sometimes already past.
    const Duration ahead = Us(static_cast<int64_t>(rng.UniformInt(12'000'000)) - 2'000'000);
    const Instant ready_at = now + ahead;
    const Duration late_max = std::max(Duration::Zero(), ahead) + Duration::Seconds(1);
    for (RetryAfterFormat format : {kSeconds, kHttpDate}) {
      const RetryAfterAnswer answer = AnswerRetryAfter(format, now, ready_at, Duration::Zero());
      INFO("format " << static_cast<int>(format) << ", now " << now.micros() << ", ready_at "
                     << ready_at.micros() << ", wait " << answer.wait.micros());
      REQUIRE(answer.wait >= Duration::Zero());
      REQUIRE(now + answer.wait >= ready_at);
      REQUIRE(answer.wait < late_max);
      REQUIRE(ClientWaitForRetryAfter(format, now, ready_at, Duration::Zero()) == answer.wait);
    }
  }
}

TEST_CASE("seconds: the remaining time rounded up to whole seconds", "[model][retry_after]") {
  const Instant now = At(10'900'000);
  auto answer = [&](int64_t ahead_us) {
    return AnswerRetryAfter(kSeconds, now, now + Us(ahead_us), Duration::Zero());
  };
  CHECK(answer(200'000).header_value_s == 1);
  CHECK(answer(200'000).wait == Duration::Seconds(1));
  CHECK(answer(3'000'000).wait == Duration::Seconds(3));  // exact seconds stay exact
  CHECK(answer(3'000'001).wait == Duration::Seconds(4));
  CHECK(answer(1).wait == Duration::Seconds(1));
  CHECK(answer(0).wait == Duration::Zero());
  CHECK(answer(-2'500'000).header_value_s == 0);  // delay-seconds is never negative
  CHECK(answer(-2'500'000).wait == Duration::Zero());
  // The server subtracts two readings of its own clock: the skew cancels.
  for (int64_t skew_s : {-86'400, -3, 2, 86'400}) {
    CHECK(ClientWaitForRetryAfter(kSeconds, now, now + Us(200'000), Duration::Seconds(skew_s)) ==
          Duration::Seconds(1));
  }
}

TEST_CASE("http_date: rounding depends on the absolute instant", "[model][retry_after]") {
  // Ready 0.3 s ahead: the date is 12 s, so the client waits 1.1 s ("seconds" would say 1 s).
  const RetryAfterAnswer late =
      AnswerRetryAfter(kHttpDate, At(10'900'000), At(11'200'000), Duration::Zero());
  CHECK(late.header_value_s == 12);
  CHECK(late.wait == Us(1'100'000));
  CHECK(ClientWaitForRetryAfter(kSeconds, At(10'900'000), At(11'200'000), Duration::Zero()) ==
        Duration::Seconds(1));
  // The same 0.3 s from a whole second: the date is 11 s, a 1 s wait.
  CHECK(ClientWaitForRetryAfter(kHttpDate, At(10'000'000), At(10'300'000), Duration::Zero()) ==
        Duration::Seconds(1));
  // Ready 0.8 s ahead, at a whole second: the date is exact, the wait shorter than "seconds".
  CHECK(ClientWaitForRetryAfter(kHttpDate, At(10'200'000), At(11'000'000), Duration::Zero()) ==
        Us(800'000));
  CHECK(ClientWaitForRetryAfter(kSeconds, At(10'200'000), At(11'000'000), Duration::Zero()) ==
        Duration::Seconds(1));
}

TEST_CASE("http_date: a server clock ahead makes clients late", "[model][retry_after]") {
  const Instant now = At(10'900'000);
  const Instant ready_at = At(11'200'000);
  const RetryAfterAnswer ahead = AnswerRetryAfter(kHttpDate, now, ready_at, Duration::Seconds(2));
  CHECK(ahead.header_value_s == 14);
  CHECK(ahead.wait == Us(3'100'000));  // 2 s later than with no skew
  // A sub-second skew may or may not cross a whole second.
  CHECK(ClientWaitForRetryAfter(kHttpDate, now, ready_at, Us(500'000)) == Us(1'100'000));
  CHECK(ClientWaitForRetryAfter(kHttpDate, now, ready_at, Us(900'000)) == Us(2'100'000));
  // The wait never shrinks as the skew grows.
  Duration previous = Duration::Zero();
  for (int64_t skew_ms = -5000; skew_ms <= 5000; skew_ms += 50) {
    const Duration wait =
        ClientWaitForRetryAfter(kHttpDate, now, ready_at, Duration::Millis(skew_ms));
    CHECK(wait >= previous);
    previous = wait;
  }
}

TEST_CASE("http_date: a server clock behind makes clients early, never negative",
          "[model][retry_after]") {
  const Instant now = At(10'000'000);
  const Instant ready_at = At(12'000'000);
  // The server's clock reads 10.5 s when it will be ready: date 11 s, a 1 s wait, 1 s early.
  const Duration early = ClientWaitForRetryAfter(kHttpDate, now, ready_at, Us(-1'500'000));
  CHECK(early == Duration::Seconds(1));
  CHECK(now + early < ready_at);
  // Far behind: the date is already past by our clock; the wait is clamped at zero.
  const RetryAfterAnswer past = AnswerRetryAfter(kHttpDate, now, ready_at, Duration::Seconds(-5));
  CHECK(past.header_value_s == 7);
  CHECK(past.wait == Duration::Zero());
  // Before the epoch on the server's clock: the ceiling of a negative instant.
  const RetryAfterAnswer negative =
      AnswerRetryAfter(kHttpDate, At(0), At(500'000), Duration::Seconds(-2));
  CHECK(negative.header_value_s == -1);
  CHECK(negative.wait == Duration::Zero());

  // Whatever the skew, an unclamped wait ends at ready_at + skew, up to 1 s after it.
  auto rng = engine::Rng::FromSeed(31);
  int early_count = 0;
  for (int i = 0; i < 20'000; ++i) {
    const Instant t = At(static_cast<int64_t>(rng.UniformInt(1'000'000'000)));
    const Instant ready = t + Us(static_cast<int64_t>(rng.UniformInt(30'000'000)));
    const Duration skew = Us(static_cast<int64_t>(rng.UniformInt(20'000'001)) - 10'000'000);
    const Duration wait = ClientWaitForRetryAfter(kHttpDate, t, ready, skew);
    REQUIRE(wait >= Duration::Zero());
    if (wait > Duration::Zero()) {
      const Duration after_skewed = (t + wait) - (ready + skew);
      REQUIRE(after_skewed >= Duration::Zero());
      REQUIRE(after_skewed < Duration::Seconds(1));
    }
    if (t + wait < ready) ++early_count;
  }
  CHECK(early_count > 0);
}

TEST_CASE("a missing header is not answered here", "[model][retry_after]") {
  CHECK(DiesOfFailedCheck(
      [] { (void)AnswerRetryAfter(RetryAfterFormat::kNone, At(0), At(1), Duration::Zero()); }));
}

}  // namespace
}  // namespace retry_after_test
}  // namespace drainsim::model
