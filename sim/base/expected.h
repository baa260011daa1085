// The one error convention for what can fail on input (issue 15 step 6): a value or the reason
// there is none. Replaces `std::optional<T>` + `std::string* error` and "empty string means
// success" (C++20 has no std::expected).
//
//   Expected<Constraint> c = ParseConstraint(text);
//   if (!c) return UsageError(c.error());
//   Use(*c);
//
//   Status s = CheckEnds(...);   // Expected<void>: success or a reason
//   if (!s) ...
//
// A function returns a value (`return constraint;`) or `return Failure{"why"};`.
//
// Contract:
//  (1) Exactly one of a value and an error: ok() iff constructed from a value (or Status{}).
//  (2) error() is the reason as the caller prints it (a sentence; may span lines); REQUIRES
//      !ok(). value(), *, -> REQUIRE ok() (a DRAINSIM_CHECK: reading a missing value is a
//      programmer error, never an input error).
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "sim/base/check.h"

namespace drainsim::base {

// The reason an operation failed; converts to any Expected<T> and to Status.
struct Failure {
  std::string message;
};

template <typename T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : value_(std::move(value)) {}                    // NOLINT: a value is a success
  Expected(Failure failure) : error_(std::move(failure.message)) {}  // NOLINT: likewise

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }

  const T& value() const& {
    DRAINSIM_CHECK(ok());
    return *value_;
  }
  T& value() & {
    DRAINSIM_CHECK(ok());
    return *value_;
  }
  T&& value() && {
    DRAINSIM_CHECK(ok());
    return std::move(*value_);
  }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

  const std::string& error() const {
    DRAINSIM_CHECK(!ok());
    return error_;
  }

 private:
  std::optional<T> value_;
  std::string error_;
};

// Success or a reason: Expected without a value.
template <>
class [[nodiscard]] Expected<void> {
 public:
  Expected() = default;                                                             // success
  Expected(Failure failure) : failed_(true), error_(std::move(failure.message)) {}  // NOLINT

  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const std::string& error() const {
    DRAINSIM_CHECK(!ok());
    return error_;
  }

 private:
  bool failed_ = false;
  std::string error_;
};

using Status = Expected<void>;

}  // namespace drainsim::base
