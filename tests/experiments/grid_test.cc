// Sweep grids: --vary parsing, grid order, and every point checked by the scenario loader.
#include "experiments/grid.h"

#include <catch2/catch.hpp>

#include "reports/sweep_report.h"
#include "tests/experiments/small_scenario.h"

namespace drainsim::experiments {
namespace grid_test {
namespace {

using reports::SweepCell;

using nlohmann::json;

Axis MustParse(const std::string& text) {
  base::Expected<Axis> axis = ParseVary(text);
  INFO((axis.ok() ? "" : axis.error()));
  REQUIRE(axis.ok());
  return *axis;
}

std::string ErrorOf(const std::string& text) {
  const base::Expected<Axis> axis = ParseVary(text);
  REQUIRE_FALSE(axis.ok());
  return axis.error();
}

TEST_CASE("vary ranges are inclusive, integer or rounded to 6 decimals", "[experiments][grid]") {
  Axis a = MustParse("/drains/0/rate_per_s=5:200:5");
  CHECK(a.pointer == "/drains/0/rate_per_s");
  REQUIRE(a.values.size() == 40);
  CHECK(a.values.front() == json(5));
  CHECK(a.values.back() == json(200));
  CHECK(a.values[1].is_number_integer());

  a = MustParse("/x=0.1:0.3:0.1");
  REQUIRE(a.values.size() == 3);  // 0.1 + 2 * 0.1 is 0.30000000000000004: within the tolerance
  CHECK(a.values[2].get<double>() == 0.3);
  CHECK(a.values[1].is_number_float());

  a = MustParse("/x=1:10:4");  // 1, 5, 9: STOP need not be on the grid
  CHECK(a.values == std::vector<json>{1, 5, 9});
}

TEST_CASE("vary lists hold JSON values or plain words", "[experiments][grid]") {
  const Axis a = MustParse("/retry/backoff/jitter/kind=none,full,\"equal\"");
  CHECK(a.values == std::vector<json>{"none", "full", "equal"});
  const Axis b = MustParse("/x=1,2.5,true");
  CHECK(b.values == std::vector<json>{1, 2.5, true});
  const Axis c = MustParse("/x=7");
  CHECK(c.values == std::vector<json>{7});
}

TEST_CASE("vary refuses what is not PATH=VALUES", "[experiments][grid]") {
  CHECK(ErrorOf("drains/0/rate_per_s=5").find("not PATH=VALUES") != std::string::npos);
  CHECK(ErrorOf("/x=").find("no values") != std::string::npos);
  CHECK(ErrorOf("/x=5:1:1").find("START <= STOP") != std::string::npos);
  CHECK(ErrorOf("/x=1:5:0").find("STEP > 0") != std::string::npos);
  CHECK(ErrorOf("/x=1,,2").find("empty value") != std::string::npos);
  CHECK(ErrorOf("/x=0:1000000:1").find("more than") != std::string::npos);
}

TEST_CASE("the grid is row-major, the first axis outermost", "[experiments][grid]") {
  Experiment e;
  e.axes = {MustParse("/a=1,2"), MustParse("/b=x,y,z")};
  REQUIRE(e.PointCount() == 6);
  CHECK(e.PointValues(0) == std::vector<json>{1, "x"});
  CHECK(e.PointValues(1) == std::vector<json>{1, "y"});
  CHECK(e.PointValues(3) == std::vector<json>{2, "x"});
  CHECK(e.PointValues(5) == std::vector<json>{2, "z"});
}

TEST_CASE("BuildPoints validates every point through the loader", "[experiments][grid]") {
  const json base = json::parse(testing::kSmallScenario);
  std::vector<std::string> errors;
  std::optional<std::vector<config::Scenario>> points = BuildPoints(
      base, {MustParse("/workers/count=1,4"), MustParse("/faults/0/probability=0,0.5")}, &errors);
  REQUIRE(points.has_value());
  REQUIRE(points->size() == 4);
  CHECK((*points)[0].workers.count == 1);
  CHECK((*points)[3].workers.count == 4);

  errors.clear();
  CHECK_FALSE(BuildPoints(base, {MustParse("/workers/count=2,0")}, &errors).has_value());
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].rfind("--vary /workers/count=0: /workers/count: ", 0) == 0);

  errors.clear();
  CHECK_FALSE(BuildPoints(base, {MustParse("/drains/0/rate_per_s=1")}, &errors).has_value());
  REQUIRE(errors.size() == 1);
  CHECK(errors[0] ==
        "--vary /drains/0/rate_per_s: no such place in the scenario (the scenario has no "
        "'drains')");
}

TEST_CASE("vary refuses a range with a bad step and lists or grids beyond their limits",
          "[experiments][grid]") {
  CHECK(ErrorOf("/x=1:5:a") == "'/x=1:5:a': START:STOP:STEP needs three numbers");
  CHECK(ErrorOf("/x=1:5:inf") == "'/x=1:5:inf': START:STOP:STEP needs three numbers");
  std::string list = "/x=0";
  for (int v = 1; v < kAxisValuesMax; ++v) (list += ',') += std::to_string(v);
  CHECK(MustParse(list).values.size() == static_cast<size_t>(kAxisValuesMax));
  CHECK(ErrorOf(list + ",1") == "'" + list + ",1': more than 10000 values");

  // 1000 x 101 points: refused before any point is edited or loaded.
  const json base = json::parse(testing::kSmallScenario);
  std::vector<std::string> errors;
  CHECK_FALSE(BuildPoints(base, {MustParse("/a=1:1000:1"), MustParse("/b=0:100:1")}, &errors));
  CHECK(errors == std::vector<std::string>{"the grid has 101000 points, more than 100000"});
}

TEST_CASE("BuildPoints lists at most errors_max problems, then how many more",
          "[experiments][grid]") {
  const json base = json::parse(testing::kSmallScenario);
  std::vector<std::string> errors;
  CHECK_FALSE(BuildPoints(base, {MustParse("/workers/count=0,1,-1,-2")}, &errors, 2));
  REQUIRE(errors.size() == 3);
  CHECK(errors[0].rfind("--vary /workers/count=0: /workers/count: ", 0) == 0);
  CHECK(errors[1].rfind("--vary /workers/count=-1: /workers/count: ", 0) == 0);
  CHECK(errors[2] == "... and 1 more problems");
}

}  // namespace
}  // namespace grid_test
}  // namespace drainsim::experiments

namespace drainsim::experiments {
namespace grid_test {
namespace {

using reports::SweepCell;

// Regression (issue 13, defect 7's spirit in sweep): a point whose runs never reached an
// instant printed "(3 undef)", as if the figure were missing; never is the worst outcome.
TEST_CASE("a sweep cell counts runs that never reached an instant as never, others as undef",
          "[experiments][sweep]") {
  Statistics s;
  s.runs = 30;
  s.undefined = 3;
  s.count = 27;
  s.mean = 1689.5;
  s.half_width = 12.25;
  CHECK(SweepCell(s, true) == "1689.5 ±12.25 (never in 3 of 30)");
  CHECK(SweepCell(s, false) == "1689.5 ±12.25 (3 undef)");
  s.undefined = 30;
  s.count = 0;
  CHECK(SweepCell(s, true) == "never (30 of 30)");
  CHECK(SweepCell(s, false) == "undefined");
  s.undefined = 0;
  s.count = 30;
  CHECK(SweepCell(s, true) == "1689.5 ±12.25");
}

}  // namespace
}  // namespace grid_test
}  // namespace drainsim::experiments
