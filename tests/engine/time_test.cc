#include "sim/engine/time.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "tests/engine/death.h"

namespace drainsim::engine {
namespace time_test {
namespace {

using testing::DiesOfFailedCheck;

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
// kInputMicrosMax in whole seconds (3,162,240,000): exact in a double.
constexpr double kInputSecondsMax = static_cast<double>(kInputMicrosMax / 1'000'000);
static_assert(kInputMicrosMax % 1'000'000 == 0);

TEST_CASE("Input conversions round to the nearest microsecond", "[time]") {
  CHECK(DurationFromSeconds(1.5)->micros() == 1'500'000);
  CHECK(DurationFromSeconds(0.0)->micros() == 0);
  CHECK(DurationFromSeconds(2.4e-6)->micros() == 2);
  CHECK(DurationFromSeconds(2.6e-6)->micros() == 3);
  CHECK(DurationFromSeconds(-2.4e-6)->micros() == -2);
  CHECK(DurationFromSeconds(-2.6e-6)->micros() == -3);
  CHECK(DurationFromSeconds(1e-9)->micros() == 0);
  CHECK(DurationFromMillis(250.0)->micros() == 250'000);
  CHECK(DurationFromMillis(0.0024)->micros() == 2);
  CHECK(DurationFromMillis(0.0026)->micros() == 3);
  CHECK(DurationFromMillis(-1.5)->micros() == -1'500);
  CHECK(InstantFromSeconds(3600.25)->micros() == 3'600'250'000);
  CHECK(InstantFromSeconds(7.0000004)->micros() == 7'000'000);
  CHECK(InstantFromSeconds(7.0000006)->micros() == 7'000'001);
}

TEST_CASE("Input conversions reject NaN, infinities and huge values", "[time]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (double bad : {nan, inf, -inf, 1e300, -1e300, 1e20, std::numeric_limits<double>::max()}) {
    CAPTURE(bad);
    CHECK_FALSE(DurationFromSeconds(bad).has_value());
    CHECK_FALSE(DurationFromMillis(bad).has_value());
    CHECK_FALSE(InstantFromSeconds(bad).has_value());
  }
}

TEST_CASE("Input conversions accept exactly up to kInputMicrosMax", "[time]") {
  CHECK(DurationFromSeconds(kInputSecondsMax)->micros() == kInputMicrosMax);
  CHECK(DurationFromSeconds(-kInputSecondsMax)->micros() == -kInputMicrosMax);
  CHECK(InstantFromSeconds(kInputSecondsMax)->micros() == kInputMicrosMax);
  CHECK(DurationFromMillis(kInputSecondsMax * 1e3)->micros() == kInputMicrosMax);
  // One second beyond, either side, is refused.
  CHECK_FALSE(DurationFromSeconds(kInputSecondsMax + 1).has_value());
  CHECK_FALSE(DurationFromSeconds(-kInputSecondsMax - 1).has_value());
  CHECK_FALSE(InstantFromSeconds(kInputSecondsMax + 1).has_value());
  CHECK_FALSE(DurationFromMillis((kInputSecondsMax + 1) * 1e3).has_value());
  // One second inside is accepted.
  CHECK(DurationFromSeconds(kInputSecondsMax - 1)->micros() == kInputMicrosMax - 1'000'000);
  // Sums of a few accepted inputs stay far from int64's limit: the reason for the bound.
  CHECK(kInputMicrosMax < kInt64Max / 1000);
}

TEST_CASE("Durations are signed and compare by value", "[time]") {
  const Duration d = Duration::Seconds(2) - Duration::Seconds(3);
  CHECK(d.micros() == -1'000'000);
  CHECK(d < Duration::Zero());
  CHECK(d.seconds() == -1.0);
  CHECK(Duration::Millis(1500).millis() == 1500.0);
  CHECK(Duration::Millis(1) == Duration::Micros(1000));
  CHECK(Duration::Micros(1) != Duration::Micros(2));
  CHECK(Duration::Micros(1) < Duration::Micros(2));
  CHECK(Duration::Micros(-5) * 3 == Duration::Micros(-15));
  Duration sum = Duration::Zero();
  sum += Duration::Seconds(1);
  sum -= Duration::Millis(250);
  CHECK(sum == Duration::Micros(750'000));
  CHECK(Duration() == Duration::Zero());
}

TEST_CASE("Instants subtract to durations and move by durations", "[time]") {
  const Instant a = Instant::Micros(5'000'000);
  const Instant b = Instant::Micros(2'000'000);
  CHECK(a - b == Duration::Seconds(3));
  CHECK(b - a == Duration::Seconds(-3));
  CHECK(b + Duration::Seconds(3) == a);
  CHECK(a - Duration::Seconds(3) == b);
  CHECK(b < a);
  CHECK(a.seconds() == 5.0);
  Instant c = b;
  c += Duration::Micros(1);
  CHECK(c > b);
  CHECK(c.micros() == 2'000'001);
  CHECK(Instant::Zero() < a);
  CHECK(a < Instant::Never());
  CHECK(Instant() == Instant::Zero());
}

TEST_CASE("Arithmetic is accepted up to the int64 boundary", "[time]") {
  CHECK((Instant::Micros(kInt64Max - 5) + Duration::Micros(5)) == Instant::Never());
  CHECK((Duration::Max() - Duration::Micros(1) + Duration::Micros(1)) == Duration::Max());
  CHECK((Duration::Micros(kInt64Min + 1) - Duration::Micros(1)).micros() == kInt64Min);
  CHECK((Instant::Never() - Instant::Zero()) == Duration::Max());
  CHECK(Duration::Seconds(kInt64Max / 1'000'000).micros() == kInt64Max / 1'000'000 * 1'000'000);
  CHECK((Duration::Micros(kInt64Max / 2) * 2).micros() == kInt64Max - 1);
}

TEST_CASE("Arithmetic that would overflow fails a check", "[time][death]") {
  CHECK(DiesOfFailedCheck([] { (void)(Instant::Never() + Duration::Micros(1)); }));
  CHECK(DiesOfFailedCheck([] { (void)(Duration::Max() + Duration::Micros(1)); }));
  CHECK(DiesOfFailedCheck([] { (void)(Duration::Micros(kInt64Min) - Duration::Micros(1)); }));
  CHECK(DiesOfFailedCheck([] { (void)(Instant::Micros(kInt64Min) - Instant::Micros(1)); }));
  CHECK(DiesOfFailedCheck([] { (void)(Duration::Micros(kInt64Max / 2 + 1) * 2); }));
  CHECK(DiesOfFailedCheck([] { (void)Duration::Seconds(kInt64Max / 1'000'000 + 1); }));
  CHECK(DiesOfFailedCheck([] { (void)Duration::Millis(kInt64Max / 1'000 + 1); }));
  // The helper itself: a function that does not fail a check is not reported as dying.
  CHECK_FALSE(DiesOfFailedCheck([] { (void)(Instant::Zero() + Duration::Micros(1)); }));
}

}  // namespace
}  // namespace time_test
}  // namespace drainsim::engine
