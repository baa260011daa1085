// db_slowdown and db_connections for drainsim live, without a database (live/db_faults.h): the
// schedule of factors and pool limits is the model's (product of the active slowdowns, the
// highest-index connections fault), the pool's size, and what is refused.
#include "live/db_faults.h"

#include <catch2/catch.hpp>
#include <string>

#include "live/plan.h"
#include "sim/scenario/load.h"

namespace db_faults_test {
namespace {

namespace live = drainsim::live;
namespace scenario = drainsim::scenario;
namespace config = drainsim::config;

config::Scenario WithFaults(const std::string& faults) {
  auto loaded = scenario::LoadScenarioText(
      R"({"format_version": 1, "name": "t", "seed": 1, "run": {"until_s": 20},
    "kinds": {"order": {"idempotency": "none",
                        "handler": {"db_ops": 1, "db_op_ms": {"constant": 5}}}},
    "producers": [{"kind": "order", "constant": {"rate_per_s": 10, "until_s": 5}}],
    "workers": {"count": 2, "prefetch": 5, "concurrency": 2},
    "database": {"connections": 4, "timeout_ms": 100, "overload_factor": 0},
    "retry": {"delivery": "requeue"},
    "faults": )" +
      faults + "}");
  REQUIRE(loaded.ok());
  return *loaded.scenario;
}

}  // namespace

TEST_CASE("live db faults: the schedule is the model's, edge by edge", "[live]") {
  const config::Scenario s = WithFaults(R"([
      {"type": "db_slowdown", "from_s": 2, "until_s": 6, "factor": 3},
      {"type": "db_slowdown", "from_s": 4, "until_s": 8, "factor": 5},
      {"type": "db_connections", "from_s": 3, "until_s": 9, "connections": 2},
      {"type": "db_connections", "from_s": 5, "until_s": 7, "connections": 8},
      {"type": "db_outage", "from_s": 10, "until_s": 11}])");
  REQUIRE(live::CheckLiveSupport(s).empty());
  const std::vector<live::DbFaultStep> want = {
      {2, 3, 4},   // the first slowdown
      {3, 3, 2},   // the pool shrinks
      {4, 15, 2},  // overlapping slowdowns multiply
      {5, 15, 8},  // the higher index wins the pool, as the model's loop over the faults
      {6, 5, 8},   // the first slowdown ends
      {7, 5, 2},   // back to the lower index's 2
      {8, 1, 2},   // no slowdown
      {9, 1, 4},   // the scenario's pool again
  };
  CHECK(live::DbFaultSchedule(s) == want);
  CHECK(live::PoolSizeMax(s) == 8);
  CHECK(live::HasDbSlowdown(s));
}

TEST_CASE("live db faults: a window from 0 is a step at 0, one to the run's end closes there",
          "[live]") {
  const config::Scenario s = WithFaults(R"([
      {"type": "db_slowdown", "from_s": 0, "until_s": 20, "factor": 2},
      {"type": "db_connections", "from_s": 1, "until_s": 2, "connections": 4}])");
  // The connections fault changes nothing (the pool is 4 already): no step for it.
  const std::vector<live::DbFaultStep> want = {{0, 2, 4}, {20, 1, 4}};
  CHECK(live::DbFaultSchedule(s) == want);
  CHECK(live::PoolSizeMax(s) == 4);
  const config::Scenario none = WithFaults("[]");
  CHECK(live::DbFaultSchedule(none).empty());
  CHECK_FALSE(live::HasDbSlowdown(none));
}

TEST_CASE("live db faults: a pool beyond kLivePoolMax is refused at its pointer", "[live]") {
  const config::Scenario s = WithFaults(R"([
      {"type": "db_connections", "from_s": 1, "until_s": 2, "connections": 201}])");
  const auto problems = live::CheckLiveSupport(s);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].pointer == "/faults/0/connections");
  CHECK(problems[0].message.find("above 200") != std::string::npos);
}

}  // namespace db_faults_test
