// Recovery after faults (reports/recovery.h): the shipped metastable pair, one stuck after its
// trigger is gone and one that recovers thanks to its retry budget; and the definition on a
// hand-made series.
#include "reports/recovery.h"

#include <catch2/catch.hpp>

#include "reports/expectations.h"
#include "sim/model/simulation.h"
#include "tests/chaos/chaos_support.h"

namespace drainsim::chaos {
namespace recovery_test {
namespace {

using testing::LoadShipped;

TEST_CASE("recovery: metastable-no-budget stays stuck, metastable-budget comes back",
          "[recovery]") {
  const config::Scenario stuck = LoadShipped("metastable-no-budget.json");
  const model::Results a = model::RunSimulation(stuck, stuck.seed, {});
  const reports::Recovery ra = reports::RecoveryOf(a);
  INFO(reports::RecoveryText(ra, a));
  CHECK(ra.metastable == std::optional<bool>(true));
  CHECK_FALSE(ra.time_to_recover_s.has_value());
  CHECK(ra.last_window_end_s == 660);

  const config::Scenario budget = LoadShipped("metastable-budget.json");
  const model::Results b = model::RunSimulation(budget, budget.seed, {});
  const reports::Recovery rb = reports::RecoveryOf(b);
  INFO(reports::RecoveryText(rb, b));
  CHECK(rb.metastable == std::optional<bool>(false));
  REQUIRE(rb.time_to_recover_s.has_value());
  CHECK(*rb.time_to_recover_s <= reports::kHorizonS);
}

// The bar: each scenario classified correctly over 20 seeds, not only its own.
TEST_CASE("recovery: the metastable pair is classified the same over 20 seeds", "[recovery]") {
  const config::Scenario stuck = LoadShipped("metastable-no-budget.json");
  const config::Scenario budget = LoadShipped("metastable-budget.json");
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    INFO("seed " << seed);
    const model::Results a = model::RunSimulation(stuck, seed, {});
    const reports::Recovery ra = reports::RecoveryOf(a);
    INFO(reports::RecoveryText(ra, a));
    CHECK(ra.metastable == std::optional<bool>(true));
    const model::Results b = model::RunSimulation(budget, seed, {});
    const reports::Recovery rb = reports::RecoveryOf(b);
    INFO(reports::RecoveryText(rb, b));
    CHECK(rb.metastable == std::optional<bool>(false));
  }
}

TEST_CASE("recovery: time_to_recover_s is an expectation metric, never reached when metastable",
          "[recovery]") {
  config::MetricExpectation e;
  e.metric = config::RunMetric::kTimeToRecover;
  e.bounds.max = reports::kHorizonS;
  const config::Scenario budget = LoadShipped("metastable-budget.json");
  const reports::Verdict back =
      reports::Evaluate(model::RunSimulation(budget, budget.seed, {}), e);
  INFO(back.reason);
  CHECK(back.passed);
  CHECK(back.measured.has_value());
  const config::Scenario stuck = LoadShipped("metastable-no-budget.json");
  const reports::Verdict never = reports::Evaluate(model::RunSimulation(stuck, stuck.seed, {}), e);
  INFO(never.reason);
  CHECK_FALSE(never.passed);
  CHECK_FALSE(never.measured.has_value());
}

model::Sample Row(double t_s, int64_t depth, double age_s, double live_p99_ms) {
  model::Sample s;
  s.t_s = t_s;
  s.depth = depth;
  s.oldest_age_s = age_s;
  s.live_p99_ms = live_p99_ms;
  return s;
}

model::Results Hand(double ended_at_s) {
  model::Results r;
  r.has_live_traffic = true;
  r.ended_at_s = ended_at_s;
  r.fault_windows.push_back({0, "db_slowdown", 100, 200, 0, 0});
  // Baseline (0, 100]: work 4, age 2 s, live p99 40 ms; limits 14, 4 s, 80 ms.
  r.series = {Row(0, 0, 0, 0),     Row(50, 4, 2, 30),   Row(100, 1, 1, 40), Row(150, 900, 60, 2000),
              Row(250, 20, 3, 50), Row(300, 14, 4, 80), Row(350, 2, 1, 79)};
  return r;
}

TEST_CASE("recovery: back from the first sample that stays within the limits", "[recovery]") {
  model::Results r = Hand(350);
  reports::Recovery rec = reports::RecoveryOf(r);
  CHECK(rec.baseline_work == 4);
  CHECK(rec.baseline_age_s == 2);
  CHECK(rec.baseline_live_p99_ms == 40);
  REQUIRE(rec.time_to_recover_s.has_value());
  CHECK(*rec.time_to_recover_s == 100);  // from 300 s (work 14 <= 14), window ended at 200 s
  // The run ended 150 s after the window; back within 300 s already decides it.
  CHECK(rec.metastable == std::optional<bool>(false));

  r.series.back().live_p99_ms = 81;  // the last row is not back: never recovered
  rec = reports::RecoveryOf(r);
  CHECK_FALSE(rec.time_to_recover_s.has_value());
  CHECK_FALSE(rec.metastable.has_value());  // too short to tell
  CHECK(rec.why == "the run ended less than 300 s after the last fault window");
  r.ended_at_s = 500;
  r.series.push_back(Row(500, 200, 1, 40));
  rec = reports::RecoveryOf(r);
  CHECK(rec.metastable == std::optional<bool>(true));

  model::Results open = Hand(190);
  CHECK(reports::RecoveryOf(open).why == "a fault window was still open when the run ended");
  model::Results none = Hand(350);
  none.fault_windows.clear();
  CHECK(reports::RecoveryOf(none).why == "no fault window");
}

}  // namespace
}  // namespace recovery_test
}  // namespace drainsim::chaos
