// A mistake is reported once, where it is: a bad drain or alert does not also fail every
// expectation that reads it. Regression: a bad /drains/0 field also gave "/expect/0/metric:
// needs a drain" and "/expect/5/during: 'drains' needs at least one drain".
#include <catch2/catch.hpp>

#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace cascade_test {
namespace {

using testing::Json;

Json Monthly() {
  return Json::parse(testing::ReadFile(testing::SourcePath("scenarios/monthly-rehearsal.json")));
}

// Every problem's pointer starts with `prefix`.
void CheckOnlyUnder(const LoadResult& result, const std::string& prefix) {
  INFO(testing::Describe(result));
  REQUIRE_FALSE(result.ok());
  for (const Problem& problem : result.problems) CHECK(problem.pointer.starts_with(prefix));
}

TEST_CASE("a bad drain field is the only problem reported", "[scenario][cascade]") {
  CheckOnlyUnder(testing::Load(testing::With(Monthly(), "/drains/0/rate_per_s", -5)),
                 "/drains/0/rate_per_s");
  CheckOnlyUnder(testing::Load(testing::With(Monthly(), "/drains/0/strategy", "sideways")),
                 "/drains/0/strategy");
  CheckOnlyUnder(testing::Load(testing::With(Monthly(), "/drains", "all of them")), "/drains");
}

TEST_CASE("a bad alert is the only problem reported", "[scenario][cascade]") {
  Json doc = testing::With(Monthly(), "/alerts/depth", -1);
  doc["expect"].push_back({{"metric", "depth_alert_first_s"}, {"max", 100}});
  CheckOnlyUnder(testing::Load(doc), "/alerts/depth");
}

TEST_CASE("expectations on a section that is really missing are still refused",
          "[scenario][cascade]") {
  const LoadResult no_drains = testing::Load(testing::Without(Monthly(), "/drains"));
  CHECK(testing::HasProblem(no_drains, "/expect/0/metric", "needs a drain"));
  CHECK(testing::HasProblem(no_drains, "/expect/4/during", "needs at least one drain"));
  const LoadResult empty_drains = testing::Load(testing::With(Monthly(), "/drains", Json::array()));
  CHECK(testing::HasProblem(empty_drains, "/expect/0/metric", "needs a drain"));
  Json doc = testing::Without(Monthly(), "/alerts/depth");
  doc["expect"].push_back({{"metric", "depth_alert_first_s"}, {"max", 100}});
  CHECK(testing::HasProblem(testing::Load(doc), "/expect/8/metric", "needs alerts.depth"));
}

}  // namespace
}  // namespace cascade_test
}  // namespace drainsim::scenario
