// sim/base/expected.h: the one error convention. A value or a reason, never both; Status for
// operations without a value.
#include "sim/base/expected.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>

namespace drainsim::base {
namespace expected_test {
namespace {

Expected<int> Half(int n) {
  if (n % 2 != 0) return Failure{std::to_string(n) + " is odd"};
  return n / 2;
}

Status Even(int n) {
  if (n % 2 != 0) return Failure{"odd"};
  return {};
}

TEST_CASE("expected: a value or the reason there is none", "[base][expected]") {
  const Expected<int> half = Half(8);
  REQUIRE(half.ok());
  CHECK(static_cast<bool>(half));
  CHECK(*half == 4);
  const Expected<int> odd = Half(7);
  CHECK_FALSE(odd.ok());
  CHECK_FALSE(static_cast<bool>(odd));
  CHECK(odd.error() == "7 is odd");
}

TEST_CASE("expected: a move-only value moves out", "[base][expected]") {
  Expected<std::unique_ptr<int>> boxed(std::make_unique<int>(3));
  REQUIRE(boxed.ok());
  std::unique_ptr<int> taken = *std::move(boxed);
  CHECK(*taken == 3);
  CHECK(boxed->get() == nullptr);
}

TEST_CASE("status: success or a reason", "[base][expected]") {
  CHECK(Even(2).ok());
  const Status odd = Even(3);
  CHECK_FALSE(odd.ok());
  CHECK(odd.error() == "odd");
}

}  // namespace
}  // namespace expected_test
}  // namespace drainsim::base
