#include "sim/model/token_bucket.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "sim/engine/rng.h"
#include "tests/engine/death.h"

namespace drainsim::model {
namespace token_bucket_test {
namespace {

using engine::Duration;
using engine::Instant;
using engine::testing::DiesOfFailedCheck;

Instant At(int64_t micros) { return Instant::Micros(micros); }
Instant AtSeconds(int64_t seconds) { return Instant::Zero() + Duration::Seconds(seconds); }

// Takes at every NextAvailable up to `end`; returns how many were taken.
int64_t TakeGreedily(TokenBucket& bucket, Instant end) {
  int64_t taken = 0;
  for (Instant t = bucket.NextAvailable(Instant::Zero()); t <= end; t = bucket.NextAvailable(t)) {
    REQUIRE(bucket.TryTake(t));
    ++taken;
  }
  return taken;
}

TEST_CASE("a bucket takes at exactly its rate, without drift", "[model][token_bucket]") {
  TokenBucket bucket(20, 1);
  Instant t = Instant::Zero();
  for (int i = 0; i < 2000; ++i) {
    t = bucket.NextAvailable(t);
    REQUIRE(t == At(int64_t{50'000} * i));  // exactly 50 ms apart, from 0
    if (i > 0) {
      TokenBucket early = bucket;
      REQUIRE_FALSE(early.TryTake(t - Duration::Micros(1)));
    }
    REQUIRE(bucket.TryTake(t));
  }
  CHECK(t == At(99'950'000));  // the 2000th take: 99.95 s
  CHECK(bucket.NextAvailable(t) == AtSeconds(100));
}

TEST_CASE("a greedy taker gets burst + floor(rate * T) tokens", "[model][token_bucket]") {
  struct Case {
    double rate_per_s;
    int64_t burst;
    int64_t window_s;
  };
  const Case cases[] = {{20, 2, 100}, {0.3, 5, 1000},   {0.3, 2, 999},
                        {7.5, 3, 61}, {1234.5, 10, 10}, {1.0 / 3, 2, 3000}};
  for (const Case& c : cases) {
    INFO("rate " << c.rate_per_s << ", burst " << c.burst << ", T " << c.window_s);
    TokenBucket bucket(c.rate_per_s, c.burst);
    const int64_t taken = TakeGreedily(bucket, AtSeconds(c.window_s));
    // Exact against the quantized rate, in integer arithmetic: nano-tokens/s * µs / 10^15.
    const auto rate_nano = static_cast<__int128>(std::llround(c.rate_per_s * 1e9));
    const auto accrued =
        static_cast<int64_t>(rate_nano * c.window_s * 1'000'000 / 1'000'000'000'000'000);
    CHECK(taken == c.burst + accrued);
    const double nominal = c.burst + std::floor(c.rate_per_s * c.window_s);
    CHECK(std::fabs(static_cast<double>(taken) - nominal) <= 1);
  }
  // 1/3 per second is quantized to 0.333333333: after 3000 s, 999.999999 tokens, not 1000.
  TokenBucket third(1.0 / 3, 2);
  CHECK(third.rate_per_s() == 0.333333333);
  CHECK(TakeGreedily(third, AtSeconds(3000)) == 2 + 999);
  CHECK(TokenBucket(0.3, 1).rate_per_s() == 0.3);
}

TEST_CASE("fractional rates: tokens at the exact microsecond", "[model][token_bucket]") {
  // 0.3/s: a token every 3,333,333.33 µs. With burst 2 the k-th token comes at ceil(k / 0.3 s).
  TokenBucket bucket(0.3, 2);
  CHECK(bucket.TryTake(Instant::Zero()));
  CHECK(bucket.TryTake(Instant::Zero()));
  CHECK_FALSE(bucket.TryTake(Instant::Zero()));
  Instant t = Instant::Zero();
  for (int64_t k = 1; k <= 300; ++k) {
    t = bucket.NextAvailable(t);
    const int64_t expected_us = (k * 10'000'000 + 2) / 3;  // ceil(k * 10^7 / 3)
    REQUIRE(t == At(expected_us));
    REQUIRE(bucket.TryTake(t));
  }
  CHECK(t == AtSeconds(1000));  // 300 tokens at 0.3/s: exactly 1000 s, no drift

  // Burst 1 promises strict spacing; on a microsecond clock that is ceil(1 / rate).
  TokenBucket strict(0.3, 1);
  Instant s = Instant::Zero();
  for (int64_t k = 0; k <= 300; ++k) {
    s = strict.NextAvailable(s);
    REQUIRE(s == At(3'333'334 * k));
    REQUIRE(strict.TryTake(s));
  }
}

TEST_CASE("a bucket starts full and a full bucket stops accruing", "[model][token_bucket]") {
  TokenBucket bucket(1, 5);
  CHECK(bucket.WholeTokens(Instant::Zero()) == 5);
  for (int i = 0; i < 5; ++i) CHECK(bucket.TryTake(Instant::Zero()));
  CHECK_FALSE(bucket.TryTake(Instant::Zero()));
  CHECK(bucket.NextAvailable(Instant::Zero()) == AtSeconds(1));
  CHECK(bucket.WholeTokens(At(2'500'000)) == 2);
  // Idle for 100 s: full at 5, no more; then spaced 1 s apart again.
  const Instant later = AtSeconds(100);
  CHECK(bucket.WholeTokens(later) == 5);
  for (int i = 0; i < 5; ++i) CHECK(bucket.TryTake(later));
  CHECK_FALSE(bucket.TryTake(later));
  CHECK(bucket.NextAvailable(later) == AtSeconds(101));
  // NextAvailable does not change the bucket.
  CHECK(bucket.NextAvailable(later) == AtSeconds(101));
}

TEST_CASE("huge and tiny rates stay exact", "[model][token_bucket]") {
  TokenBucket fast(TokenBucket::kRatePerSecondMax, 1000);  // 1000 tokens per µs
  for (int i = 0; i < 1000; ++i) REQUIRE(fast.TryTake(Instant::Zero()));
  CHECK_FALSE(fast.TryTake(Instant::Zero()));
  CHECK(fast.NextAvailable(Instant::Zero()) == At(1));
  CHECK(fast.WholeTokens(At(1)) == 1000);
  // A very long idle period at the highest rate: no overflow, just full.
  const Instant far = At(int64_t{1} << 62);
  CHECK(fast.WholeTokens(far) == 1000);
  CHECK(fast.TryTake(far));

  TokenBucket big(TokenBucket::kRatePerSecondMax, TokenBucket::kBurstMax);
  CHECK(big.WholeTokens(Instant::Zero()) == TokenBucket::kBurstMax);

  TokenBucket slow(TokenBucket::kRatePerSecondMin, 1);  // one token per 10^9 s
  CHECK(slow.TryTake(Instant::Zero()));
  CHECK(slow.NextAvailable(Instant::Zero()) == At(1'000'000'000'000'000));
  CHECK_FALSE(slow.TryTake(At(999'999'999'999'999)));
  CHECK(slow.TryTake(At(1'000'000'000'000'000)));
}

TEST_CASE("SetRate keeps what accrued, capped at the new burst", "[model][token_bucket]") {
  TokenBucket bucket(10, 10);
  for (int i = 0; i < 10; ++i) REQUIRE(bucket.TryTake(Instant::Zero()));
  const Instant half = At(500'000);
  CHECK(bucket.WholeTokens(half) == 5);
  bucket.SetRate(half, 1, 3);  // a rate-limit fault: fewer tokens, a smaller bucket
  CHECK(bucket.burst() == 3);
  CHECK(bucket.WholeTokens(half) == 3);
  for (int i = 0; i < 3; ++i) CHECK(bucket.TryTake(half));
  CHECK_FALSE(bucket.TryTake(half));
  CHECK(bucket.NextAvailable(half) == At(1'500'000));

  // A partly accrued token is kept: half a token at 1/s, then the rest at 2/s.
  TokenBucket partial(1, 1);
  REQUIRE(partial.TryTake(Instant::Zero()));
  partial.SetRate(half, 2, 1);
  CHECK(partial.NextAvailable(half) == At(750'000));
  CHECK_FALSE(partial.TryTake(At(749'999)));
  CHECK(partial.TryTake(At(750'000)));

  // A bigger bucket does not invent tokens.
  TokenBucket grown(1, 1);
  grown.SetRate(Instant::Zero(), 1, 10);
  CHECK(grown.WholeTokens(Instant::Zero()) == 1);
  CHECK(grown.WholeTokens(AtSeconds(4)) == 5);
}

TEST_CASE("NextAvailable is the earliest instant a take succeeds", "[model][token_bucket]") {
  auto rng = engine::Rng::FromSeed(2026);
  TokenBucket bucket(3.7, 4);
  Instant now = Instant::Zero();
  for (int step = 0; step < 20'000; ++step) {
    now += Duration::Micros(static_cast<int64_t>(rng.UniformInt(400'000)));
    if (rng.Bernoulli(1, 500)) {
      const double rate_per_s = 0.05 + rng.NextDouble() * 50;
      bucket.SetRate(now, rate_per_s, 1 + static_cast<int64_t>(rng.UniformInt(6)));
    }
    const Instant next = bucket.NextAvailable(now);
    REQUIRE(next >= now);
    REQUIRE((bucket.WholeTokens(now) > 0) == (next == now));
    TokenBucket at_next = bucket;
    REQUIRE(at_next.TryTake(next));
    if (next > now) {
      TokenBucket just_before = bucket;
      REQUIRE_FALSE(just_before.TryTake(next - Duration::Micros(1)));
    }
    REQUIRE(bucket.TryTake(now) == (next == now));
  }
}

TEST_CASE("token bucket preconditions are checked", "[model][token_bucket]") {
  CHECK(DiesOfFailedCheck([] { TokenBucket b(0, 1); }));
  CHECK(DiesOfFailedCheck([] { TokenBucket b(std::nan(""), 1); }));
  CHECK(DiesOfFailedCheck([] { TokenBucket b(TokenBucket::kRatePerSecondMax * 2, 1); }));
  CHECK(DiesOfFailedCheck([] { TokenBucket b(1, 0); }));
  CHECK(DiesOfFailedCheck([] { TokenBucket b(1, TokenBucket::kBurstMax + 1); }));
  CHECK(DiesOfFailedCheck([] {
    TokenBucket b(1, 1);
    (void)b.TryTake(AtSeconds(5));
    (void)b.TryTake(AtSeconds(4));  // time went backwards
  }));
  CHECK(DiesOfFailedCheck([] {
    TokenBucket b(1, 1);
    (void)b.TryTake(AtSeconds(5));
    b.SetRate(AtSeconds(4), 2, 2);
  }));
  CHECK(DiesOfFailedCheck([] {
    TokenBucket b(1, 1);
    b.SetRate(Instant::Zero(), -1, 2);
  }));
}

}  // namespace
}  // namespace token_bucket_test
}  // namespace drainsim::model
