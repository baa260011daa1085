#include "sim/model/backoff.h"

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <variant>
#include <vector>

#include "tests/engine/death.h"

namespace drainsim::model {
namespace backoff_test {
namespace {

using config::JitterKind;
using engine::Duration;
using engine::Rng;
using engine::testing::DiesOfFailedCheck;

config::Backoff Policy(config::Backoff::Curve curve, JitterKind kind, double low = 0,
                       double high = 0) {
  config::Backoff policy;
  policy.curve = curve;
  policy.jitter = {kind, low, high};
  return policy;
}

const config::ExponentialBackoff kExponential{Duration::Seconds(1), 2, Duration::Seconds(300)};

Duration Ceiling(const config::Backoff::Curve& curve, int64_t attempts_made) {
  return BackoffCeiling(curve, attempts_made, 0);
}

TEST_CASE("ceilings of constant, linear and exponential curves are exact", "[model][backoff]") {
  CHECK(Ceiling(config::ConstantBackoff{Duration::Millis(1500)}, 1) == Duration::Millis(1500));
  CHECK(Ceiling(config::ConstantBackoff{Duration::Millis(1500)}, 99) == Duration::Millis(1500));

  const config::LinearBackoff linear{Duration::Seconds(2), Duration::Seconds(3),
                                     Duration::Seconds(20)};
  const int64_t linear_s[] = {2, 5, 8, 11, 14, 17, 20, 20, 20};
  for (int n = 1; n <= 9; ++n) CHECK(Ceiling(linear, n) == Duration::Seconds(linear_s[n - 1]));
  CHECK(Ceiling(linear, std::numeric_limits<int64_t>::max()) == Duration::Seconds(20));
  const config::LinearBackoff flat{Duration::Seconds(2), Duration::Zero(), Duration::Seconds(20)};
  CHECK(Ceiling(flat, 1'000'000) == Duration::Seconds(2));

  const int64_t exponential_s[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300};
  for (int n = 1; n <= 11; ++n) {
    CHECK(Ceiling(kExponential, n) == Duration::Seconds(exponential_s[n - 1]));
  }
  const config::ExponentialBackoff three{Duration::Micros(1), 3, Duration::Seconds(1'000'000'000)};
  CHECK(Ceiling(three, 30) == Duration::Micros(68'630'377'364'883));  // 3^29, exact
  const config::ExponentialBackoff half{Duration::Seconds(2), 1.5, Duration::Seconds(1000)};
  CHECK(Ceiling(half, 4) == Duration::Micros(6'750'000));    // 2 * 1.5^3
  CHECK(Ceiling(half, 10) == Duration::Micros(76'886'719));  // 2 * 1.5^9 = 76.88671875 s
  const config::ExponentialBackoff equal_ends{Duration::Seconds(5), 2, Duration::Seconds(5)};
  CHECK(Ceiling(equal_ends, 1) == Duration::Seconds(5));
  CHECK(Ceiling(equal_ends, 7) == Duration::Seconds(5));
}

TEST_CASE("the exponential ceiling is capped before it can overflow", "[model][backoff]") {
  const int64_t huge = std::numeric_limits<int64_t>::max();
  CHECK(Ceiling(kExponential, huge) == Duration::Seconds(300));
  const config::ExponentialBackoff steep{Duration::Micros(1), 100, Duration::Seconds(60)};
  CHECK(Ceiling(steep, 4) == Duration::Seconds(1));   // 100^3 µs
  CHECK(Ceiling(steep, 5) == Duration::Seconds(60));  // 100^4 µs = 100 s, over the cap
  CHECK(Ceiling(steep, huge) == Duration::Seconds(60));
  const config::ExponentialBackoff one{Duration::Seconds(3), 1, Duration::Seconds(60)};
  CHECK(Ceiling(one, huge) == Duration::Seconds(3));
}

TEST_CASE("sidekiq delays are count^4 + 15 + rand(10) * (count + 1) seconds", "[model][backoff]") {
  const auto policy = Policy(config::SidekiqBackoff{}, JitterKind::kNone);
  auto rng = Rng::FromSeed(42);
  std::array<int64_t, 10> rand_seen = {};
  for (int64_t count = 0; count <= 24; ++count) {
    const int64_t low_s = count * count * count * count + 15;
    CHECK(BackoffCeiling(policy.curve, count + 1, 0) == Duration::Seconds(low_s));
    CHECK(BackoffCeiling(policy.curve, count + 1, 9) == Duration::Seconds(low_s + 9 * (count + 1)));
    for (int i = 0; i < 2000; ++i) {
      BackoffState state;
      const Duration delay = BackoffDelay(policy, count + 1, state, rng);
      const int64_t extra_us = (delay - Duration::Seconds(low_s)).micros();
      REQUIRE(extra_us >= 0);
      REQUIRE(extra_us <= 9 * (count + 1) * 1'000'000);
      REQUIRE(extra_us % ((count + 1) * 1'000'000) == 0);  // whole multiples of (count + 1) s
      ++rand_seen[static_cast<size_t>(extra_us / ((count + 1) * 1'000'000))];
    }
  }
  // 50,000 draws: each of the ten values about 5,000 times (SD 67; allow 6 SD).
  for (int64_t seen : rand_seen) {
    CHECK(seen > 5000 - 400);
    CHECK(seen < 5000 + 400);
  }
}

TEST_CASE("sidekiq's 25 retries take at least 1,763,395 s", "[model][backoff]") {
  const auto policy = Policy(config::SidekiqBackoff{}, JitterKind::kNone);
  constexpr int64_t kMinimum = 1'763'395;  // sum over count 0..24 of count^4 + 15
  constexpr int64_t kSpread = 9 * 325;     // 9 * sum over count 0..24 of (count + 1)
  Duration lowest, highest;
  for (int64_t n = 1; n <= 25; ++n) {
    lowest += BackoffCeiling(policy.curve, n, 0);
    highest += BackoffCeiling(policy.curve, n, 9);
  }
  CHECK(lowest == Duration::Seconds(kMinimum));
  CHECK(highest == Duration::Seconds(kMinimum + kSpread));
  auto rng = Rng::FromSeed(3);
  for (int trial = 0; trial < 100; ++trial) {
    BackoffState state;
    Duration total;
    for (int64_t n = 1; n <= 25; ++n) total += BackoffDelay(policy, n, state, rng);
    CHECK(total >= Duration::Seconds(kMinimum));
    CHECK(total <= Duration::Seconds(kMinimum + kSpread));
    CHECK(total != Duration::Seconds(kMinimum));  // 25 zero draws: probability 1e-25
  }
}

const config::SidekiqBackoff kSidekiq8{config::SidekiqRandomTerm::kFullRange};

TEST_CASE("sidekiq 8.x: count^4 + 15 + rand(10 * (count + 1)), every second of the range",
          "[model][backoff]") {
  const auto stepped = Policy(config::SidekiqBackoff{}, JitterKind::kNone);
  const auto full = Policy(kSidekiq8, JitterKind::kNone);
  for (int64_t count : {0, 1, 4, 12, 24}) {
    INFO("count " << count);
    const int64_t n = count + 1;
    const int64_t low_s = count * count * count * count + 15;
    CHECK(SidekiqRandCount(stepped.curve, n) == 10);
    CHECK(SidekiqRandCount(full.curve, n) == 10 * (count + 1));
    // Minimum and maximum of both formulas.
    CHECK(BackoffCeiling(stepped.curve, n, 0) == Duration::Seconds(low_s));
    CHECK(BackoffCeiling(stepped.curve, n, 9) == Duration::Seconds(low_s + 9 * (count + 1)));
    CHECK(BackoffCeiling(full.curve, n, 0) == Duration::Seconds(low_s));
    CHECK(BackoffCeiling(full.curve, n, 10 * (count + 1) - 1) ==
          Duration::Seconds(low_s + 10 * (count + 1) - 1));
    // 8.x reaches values 7.x never does (not multiples of count + 1).
    if (count > 0) CHECK(BackoffCeiling(full.curve, n, 1) == Duration::Seconds(low_s + 1));
    // Through BackoffDelay: in range, whole seconds, and (count 0..4) every value seen.
    auto rng = Rng::FromSeed(7 + static_cast<uint64_t>(count));
    std::vector<int64_t> seen(static_cast<size_t>(10 * (count + 1)), 0);
    constexpr int kDraws = 20000;
    double sum_s = 0;
    for (int i = 0; i < kDraws; ++i) {
      BackoffState state;
      const int64_t extra_us =
          (BackoffDelay(full, n, state, rng) - Duration::Seconds(low_s)).micros();
      REQUIRE(extra_us >= 0);
      REQUIRE(extra_us <= (10 * (count + 1) - 1) * 1'000'000);
      REQUIRE(extra_us % 1'000'000 == 0);
      ++seen[static_cast<size_t>(extra_us / 1'000'000)];
      sum_s += static_cast<double>(extra_us) / 1e6;
    }
    if (count <= 4) {
      for (int64_t k : seen) CHECK(k > 0);
    }
    // Mean 5 (count + 1) - 0.5; the term is uniform on m = 10 (count + 1) values, variance
    // (m^2 - 1) / 12: allow 5 standard errors.
    const double m = 10.0 * static_cast<double>(count + 1);
    const double tolerance = 5 * std::sqrt((m * m - 1) / 12 / kDraws);
    CHECK(sum_s / kDraws == Approx(5.0 * static_cast<double>(count + 1) - 0.5).margin(tolerance));
  }
}

TEST_CASE("the two sidekiq random terms take r from the same single output", "[model][backoff]") {
  // Same generator state: the stepped term is r7 * (count + 1), the full-range one r8, with r7 =
  // floor(bits * 10 / 2^64) and r8 = floor(bits * 10 (count + 1) / 2^64), so r7 (count + 1) <=
  // r8 < (r7 + 1)(count + 1); both leave the generator at the same state (two draws).
  const auto stepped = Policy(config::SidekiqBackoff{}, JitterKind::kNone);
  const auto full = Policy(kSidekiq8, JitterKind::kNone);
  auto a = Rng::FromSeed(11);
  auto b = Rng::FromSeed(11);
  for (int i = 0; i < 1000; ++i) {
    const int64_t n = 1 + i % 25;
    const int64_t c = n - 1;
    const int64_t base_s = c * c * c * c + 15;
    BackoffState sa, sb;
    const int64_t t7 = BackoffDelay(stepped, n, sa, a).micros() / 1'000'000 - base_s;
    const int64_t t8 = BackoffDelay(full, n, sb, b).micros() / 1'000'000 - base_s;
    REQUIRE(t7 % (c + 1) == 0);
    CHECK(t7 <= t8);
    CHECK(t8 < t7 + (c + 1));
    REQUIRE(a.NextU64() == b.NextU64());
  }
}

TEST_CASE("sidekiq 8.x's 25 retries: at most 3,225 s of random terms, 1,612.5 s on average",
          "[model][backoff]") {
  const auto full = Policy(kSidekiq8, JitterKind::kNone);
  Duration lowest, highest;
  double mean_s = 0;
  for (int64_t n = 1; n <= 25; ++n) {
    lowest += BackoffCeiling(full.curve, n, 0);
    highest += BackoffCeiling(full.curve, n, SidekiqRandCount(full.curve, n) - 1);
    mean_s += (static_cast<double>(SidekiqRandCount(full.curve, n)) - 1) / 2;
  }
  CHECK(lowest == Duration::Seconds(1'763'395));
  CHECK(highest == Duration::Seconds(1'763'395 + 3'225));
  CHECK(mean_s == 1612.5);  // expected time to death 1,765,007.5 s (7.x: 4.5 x 325 = 1,462.5)
}

// Draws kDraws delays at a fixed attempt and checks the documented range and the analytic mean.
struct JitterCase {
  JitterKind kind;
  double low;                  // proportional only
  double high;                 // proportional only
  double range_low_fraction;   // of the ceiling
  double range_high_fraction;  // of the ceiling
};

TEST_CASE("each jitter kind stays in its range and has the analytic mean", "[model][backoff]") {
  constexpr int kDraws = 100'000;
  const double d = 8e6;  // attempt 4 of kExponential: 8 s
  const JitterCase cases[] = {
      {JitterKind::kNone, 0, 0, 1, 1},
      {JitterKind::kFull, 0, 0, 0, 1},
      {JitterKind::kEqual, 0, 0, 0.5, 1},
      {JitterKind::kProportional, 0.5, 1.0, 0.5, 1},
      {JitterKind::kProportional, 0.2, 3.0, 0.2, 3},
  };
  for (const JitterCase& c : cases) {
    INFO("jitter " << static_cast<int>(c.kind) << " [" << c.low << ", " << c.high << "]");
    const auto policy = Policy(kExponential, c.kind, c.low, c.high);
    auto rng = Rng::FromSeed(1234);
    BackoffState state;
    const double lowest_allowed = d * c.range_low_fraction;
    const double highest_allowed = d * c.range_high_fraction;
    double sum = 0, lowest = 1e300, highest = -1;
    for (int i = 0; i < kDraws; ++i) {
      const auto delay = static_cast<double>(BackoffDelay(policy, 4, state, rng).micros());
      lowest = std::min(lowest, delay);
      highest = std::max(highest, delay);
      sum += delay;
    }
    CHECK(lowest >= lowest_allowed);
    CHECK(highest <= highest_allowed);
    // The whole range is used: both ends are approached within 0.1% of its width.
    const double width = highest_allowed - lowest_allowed;
    CHECK(lowest <= lowest_allowed + width * 1e-3);
    CHECK(highest >= highest_allowed - width * 1e-3);
    // Uniform on the range: mean in the middle, SD width / sqrt(12). Six standard errors: the
    // seed is fixed, and a wrong formula (e.g. equal jitter's mean at d / 2) is hundreds away.
    const double mean_expected = (lowest_allowed + highest_allowed) / 2;
    const double tolerance = 6 * width / std::sqrt(12.0) / std::sqrt(double{kDraws}) + 1;
    CHECK(std::fabs(sum / kDraws - mean_expected) <= tolerance);
  }
}

TEST_CASE("celery's retry_backoff: min(600, factor * 2^retries) with full jitter in whole seconds",
          "[model][backoff][celery]") {
  // retry_backoff = 3 (the factor), retry_backoff_max = 600: base 3 s, factor 2, cap 600 s.
  const auto policy =
      Policy(config::ExponentialBackoff{Duration::Seconds(3), 2, Duration::Seconds(600)},
             JitterKind::kFullWholeSeconds);
  auto rng = Rng::FromSeed(99);
  for (int64_t retries = 0; retries < 10; ++retries) {
    INFO("retries " << retries);
    const int64_t countdown_s = std::min<int64_t>(600, 3 * (int64_t{1} << retries));
    std::vector<int64_t> seen(static_cast<size_t>(countdown_s) + 1, 0);
    constexpr int kDraws = 20'000;
    BackoffState state;
    for (int i = 0; i < kDraws; ++i) {
      const Duration delay = BackoffDelay(policy, retries + 1, state, rng);
      REQUIRE(delay.micros() % 1'000'000 == 0);  // whole seconds: randrange(countdown + 1)
      const int64_t s = delay.micros() / 1'000'000;
      REQUIRE(s >= 0);
      REQUIRE(s <= countdown_s);
      ++seen[static_cast<size_t>(s)];
    }
    // Uniform over 0..countdown: each value's count within 6 binomial sd of its mean.
    const double p = 1.0 / static_cast<double>(countdown_s + 1);
    const double mean = kDraws * p;
    const double sd = std::sqrt(kDraws * p * (1 - p));
    for (int64_t count : seen) CHECK(std::fabs(static_cast<double>(count) - mean) <= 6 * sd + 1);
  }
}

TEST_CASE("decorrelated jitter stays within [base, cap] and grows from the previous delay",
          "[model][backoff]") {
  const config::ExponentialBackoff curve{Duration::Seconds(1), 2, Duration::Seconds(60)};
  const auto policy = Policy(curve, JitterKind::kDecorrelated);
  auto rng = Rng::FromSeed(99);
  double first_sum = 0;
  constexpr int kMessages = 10'000;
  bool reached_cap = false;
  for (int message = 0; message < kMessages; ++message) {
    BackoffState state;
    for (int64_t n = 1; n <= 10; ++n) {
      const Duration previous = std::max(state.previous, curve.base);
      const Duration delay = BackoffDelay(policy, n, state, rng);
      REQUIRE(delay >= curve.base);
      REQUIRE(delay <= curve.cap);
      REQUIRE(delay <= previous * kDecorrelatedGrowth);
      REQUIRE(state.previous == delay);
      if (n == 1) first_sum += delay.seconds();
      reached_cap = reached_cap || delay == curve.cap;
    }
  }
  CHECK(reached_cap);
  // The first delay is uniform on [base, 3 base]: mean 2 s, SD 0.577 s; 6 standard errors.
  CHECK(std::fabs(first_sum / kMessages - 2.0) <= 6 * 0.578 / std::sqrt(double{kMessages}));

  // Same generator state, different memory: the result depends on state.previous.
  const Rng start = Rng::FromSeed(5);
  Rng a = start, b = start;
  BackoffState fresh;
  BackoffState grown{Duration::Seconds(15)};
  const Duration from_fresh = BackoffDelay(policy, 3, fresh, a);
  const Duration from_grown = BackoffDelay(policy, 3, grown, b);
  CHECK(from_fresh <= Duration::Seconds(3));
  CHECK(from_grown > from_fresh);
  CHECK(from_grown <= Duration::Seconds(45));
}

TEST_CASE("every call draws exactly two generator outputs", "[model][backoff]") {
  const config::Backoff::Curve curves[] = {
      config::ConstantBackoff{Duration::Seconds(2)},
      config::LinearBackoff{Duration::Seconds(1), Duration::Seconds(1), Duration::Seconds(9)},
      kExponential, config::SidekiqBackoff{}};
  const JitterKind kinds[] = {JitterKind::kNone, JitterKind::kFull, JitterKind::kEqual,
                              JitterKind::kProportional, JitterKind::kDecorrelated};
  for (const auto& curve : curves) {
    for (JitterKind kind : kinds) {
      if (kind == JitterKind::kDecorrelated &&
          !std::holds_alternative<config::ExponentialBackoff>(curve)) {
        continue;  // decorrelated jitter needs the exponential curve
      }
      const auto policy = Policy(curve, kind, 0.5, 1.5);
      for (int64_t n : {int64_t{1}, int64_t{7}, int64_t{500}}) {
        Rng used = Rng::FromSeed(static_cast<uint64_t>(n));
        Rng expected = used;
        BackoffState state{Duration::Seconds(4)};
        (void)BackoffDelay(policy, n, state, used);
        for (int i = 0; i < kBackoffDrawsPerCall; ++i) (void)expected.NextU64();
        INFO("curve " << curve.index() << ", jitter " << static_cast<int>(kind) << ", n " << n);
        CHECK(used == expected);
      }
    }
  }
}

TEST_CASE("the same generator state gives the same delays", "[model][backoff]") {
  const auto policy = Policy(kExponential, JitterKind::kFull);
  auto run = [&](uint64_t seed) {
    auto rng = Rng::FromSeed(seed);
    BackoffState state;
    std::vector<int64_t> delays;
    for (int64_t n = 1; n <= 200; ++n)
      delays.push_back(BackoffDelay(policy, n, state, rng).micros());
    return delays;
  };
  CHECK(run(11) == run(11));
  CHECK(run(11) != run(12));
}

TEST_CASE("delays are clamped at kBackoffDelayMax", "[model][backoff]") {
  const auto sidekiq = Policy(config::SidekiqBackoff{}, JitterKind::kNone);
  CHECK(BackoffCeiling(sidekiq.curve, 238, 0) < kBackoffDelayMax);  // count 237
  CHECK(BackoffCeiling(sidekiq.curve, 239, 0) == kBackoffDelayMax);
  CHECK(BackoffCeiling(sidekiq.curve, std::numeric_limits<int64_t>::max(), 9) == kBackoffDelayMax);
  const config::ExponentialBackoff wide{Duration::Seconds(1), 2, kBackoffDelayMax};
  const auto stretched = Policy(wide, JitterKind::kProportional, 50, 100);
  auto rng = Rng::FromSeed(8);
  BackoffState state;
  CHECK(BackoffDelay(stretched, 200, state, rng) == kBackoffDelayMax);
}

TEST_CASE("backoff preconditions are checked", "[model][backoff]") {
  auto delay = [](const config::Backoff& policy, int64_t n) {
    auto rng = Rng::FromSeed(1);
    BackoffState state;
    (void)BackoffDelay(policy, n, state, rng);
  };
  CHECK(DiesOfFailedCheck([&] { delay(Policy(kExponential, JitterKind::kFull), 0); }));
  CHECK(DiesOfFailedCheck(
      [&] { delay(Policy(config::ConstantBackoff{}, JitterKind::kDecorrelated), 1); }));
  CHECK(DiesOfFailedCheck([&] {
    const config::ExponentialBackoff inverted{Duration::Seconds(9), 2, Duration::Seconds(1)};
    delay(Policy(inverted, JitterKind::kNone), 1);
  }));
  CHECK(DiesOfFailedCheck([&] {
    const config::ExponentialBackoff shrinking{Duration::Seconds(1), 0.5, Duration::Seconds(9)};
    delay(Policy(shrinking, JitterKind::kNone), 1);
  }));
  CHECK(
      DiesOfFailedCheck([&] { delay(Policy(kExponential, JitterKind::kProportional, 2, 1), 1); }));
  CHECK(DiesOfFailedCheck([] { (void)BackoffCeiling(config::SidekiqBackoff{}, 1, 10); }));
  // The valid neighbours survive, so the checks above fail for the stated reason.
  delay(Policy(kExponential, JitterKind::kProportional, 1, 1), 1);
  delay(Policy(kExponential, JitterKind::kDecorrelated), 1);
}

}  // namespace
}  // namespace backoff_test
}  // namespace drainsim::model
