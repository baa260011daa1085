// Simulated time: integer microseconds, as two strong types.
//
// Instant is a point on the simulated clock (microseconds since the start of the run);
// Duration is a signed span. Keeping them apart makes "instant + instant" a compile error and
// keeps units out of variable names' business.
//
// Invariants:
//  (1) Every value is an int64 count of microseconds; no floating point is ever stored.
//  (2) Arithmetic that would overflow int64 is a programmer error and fails a check; input
//      values (seconds and milliseconds from a scenario) are converted with the *FromSeconds /
//      *FromMillis functions, which refuse NaN, infinities and out-of-range values instead.
//
// Thread-safety: plain values, safe to copy between threads.
#pragma once

#include <cmath>
#include <compare>
#include <cstdint>
#include <limits>
#include <optional>

#include "sim/base/check.h"

namespace drainsim::engine {

// The largest magnitude accepted from input: 100 years. Far beyond any rehearsal, yet far from
// int64's limit (about 292,000 years of microseconds), so sums of a few input values cannot
// overflow.
inline constexpr int64_t kInputMicrosMax = int64_t{100} * 366 * 24 * 3600 * 1'000'000;

namespace internal {
inline int64_t CheckedAdd(int64_t a, int64_t b) {
  int64_t out = 0;
  DRAINSIM_CHECK(!__builtin_add_overflow(a, b, &out));
  return out;
}
inline int64_t CheckedSub(int64_t a, int64_t b) {
  int64_t out = 0;
  DRAINSIM_CHECK(!__builtin_sub_overflow(a, b, &out));
  return out;
}
inline int64_t CheckedMul(int64_t a, int64_t b) {
  int64_t out = 0;
  DRAINSIM_CHECK(!__builtin_mul_overflow(a, b, &out));
  return out;
}
// Rounds a finite value in units of `micros_per_unit` to the nearest microsecond; nullopt iff
// the value is NaN, infinite, or its magnitude exceeds kInputMicrosMax.
inline std::optional<int64_t> MicrosFrom(double value, double micros_per_unit) {
  if (!std::isfinite(value)) return std::nullopt;
  const double micros = std::nearbyint(value * micros_per_unit);
  if (!(std::fabs(micros) <= static_cast<double>(kInputMicrosMax))) return std::nullopt;
  return static_cast<int64_t>(micros);
}
}  // namespace internal

class Duration {
 public:
  constexpr Duration() = default;
  static constexpr Duration Micros(int64_t us) { return Duration(us); }
  static Duration Millis(int64_t ms) { return Duration(internal::CheckedMul(ms, 1'000)); }
  static Duration Seconds(int64_t s) { return Duration(internal::CheckedMul(s, 1'000'000)); }
  static constexpr Duration Zero() { return Duration(0); }
  // The largest representable span; used as "unbounded" where a bound is optional.
  static constexpr Duration Max() { return Duration(std::numeric_limits<int64_t>::max()); }

  constexpr int64_t micros() const { return us_; }
  double seconds() const { return static_cast<double>(us_) / 1e6; }
  double millis() const { return static_cast<double>(us_) / 1e3; }

  Duration operator+(Duration o) const { return Duration(internal::CheckedAdd(us_, o.us_)); }
  Duration operator-(Duration o) const { return Duration(internal::CheckedSub(us_, o.us_)); }
  Duration operator*(int64_t k) const { return Duration(internal::CheckedMul(us_, k)); }
  Duration& operator+=(Duration o) { return *this = *this + o; }
  Duration& operator-=(Duration o) { return *this = *this - o; }
  constexpr auto operator<=>(const Duration&) const = default;

 private:
  constexpr explicit Duration(int64_t us) : us_(us) {}
  int64_t us_ = 0;
};

class Instant {
 public:
  constexpr Instant() = default;
  static constexpr Instant Micros(int64_t us) { return Instant(us); }
  static constexpr Instant Zero() { return Instant(0); }
  // Later than every instant a run can reach; the "never" of optional deadlines.
  static constexpr Instant Never() { return Instant(std::numeric_limits<int64_t>::max()); }

  constexpr int64_t micros() const { return us_; }
  double seconds() const { return static_cast<double>(us_) / 1e6; }

  Instant operator+(Duration d) const { return Instant(internal::CheckedAdd(us_, d.micros())); }
  Instant operator-(Duration d) const { return Instant(internal::CheckedSub(us_, d.micros())); }
  Duration operator-(Instant o) const { return Duration::Micros(internal::CheckedSub(us_, o.us_)); }
  Instant& operator+=(Duration d) { return *this = *this + d; }
  constexpr auto operator<=>(const Instant&) const = default;

 private:
  constexpr explicit Instant(int64_t us) : us_(us) {}
  int64_t us_ = 0;
};

// Conversions of input values. Each returns nullopt iff the value is NaN, infinite or beyond
// kInputMicrosMax in magnitude; otherwise the value rounded to the nearest microsecond.
inline std::optional<Duration> DurationFromSeconds(double s) {
  auto us = internal::MicrosFrom(s, 1e6);
  if (!us) return std::nullopt;
  return Duration::Micros(*us);
}
inline std::optional<Duration> DurationFromMillis(double ms) {
  auto us = internal::MicrosFrom(ms, 1e3);
  if (!us) return std::nullopt;
  return Duration::Micros(*us);
}
inline std::optional<Instant> InstantFromSeconds(double s) {
  auto us = internal::MicrosFrom(s, 1e6);
  if (!us) return std::nullopt;
  return Instant::Micros(*us);
}

}  // namespace drainsim::engine
