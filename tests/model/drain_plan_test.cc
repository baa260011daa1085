// The drain plans as a component (sim/model/drain_plan.h), against hand-worked sequences: start
// times, the selection, one plan active at a time, the list's count, pacing by bucket and by the
// broker's redrive cap, the adaptive rate's AIMD steps, settling and the figures.
// tests/model/drain_test.cc checks the same rules inside whole runs.
#include "sim/model/drain_plan.h"

#include <catch2/catch.hpp>

namespace drainsim::model {
namespace drain_plan_test {
namespace {

using engine::Duration;
using engine::Instant;

Instant At(double s) { return Instant::Zero() + Duration::Micros(static_cast<int64_t>(s * 1e6)); }

const std::vector<std::string> kKinds = {"email", "purge"};

config::Drain Drip(double start_s, double rate_per_s) {
  config::Drain drain;
  drain.start_at = At(start_s);
  drain.strategy = config::DripDrain{rate_per_s, 1};
  return drain;
}

DlqEntry Entry(uint32_t slot) { return DlqEntry{MessageRef{slot, 0}, 1}; }

TEST_CASE("drain plans: start_after_fix counts from the latest bug fix", "[model][drain]") {
  config::Drain after_fix;
  after_fix.start_after_fix = Duration::Seconds(30);
  std::vector<config::Fault> faults;
  config::BugFault early;
  early.fixed_at = At(100);
  config::BugFault late;
  late.fixed_at = At(250);
  faults.emplace_back(early);
  faults.emplace_back(late);
  faults.emplace_back(config::BugFault{});  // never fixed: no say
  const std::vector<config::Drain> drains = {Drip(5, 1), after_fix};
  const DrainPlans plans(drains, faults, kKinds, std::nullopt, 1);
  REQUIRE(plans.size() == 2);
  CHECK(plans.start_at(0) == At(5));
  CHECK(plans.start_at(1) == At(280));
}

TEST_CASE("drain plans: the selection by reason, error class and kind", "[model][drain]") {
  config::Drain narrow = Drip(0, 1);
  narrow.select.reasons = {config::DlqReason::kMaxAttempts, config::DlqReason::kStalled};
  narrow.select.errors = {config::ErrorClass::kTransient};
  narrow.select.kinds = {"purge"};
  const std::vector<config::Drain> drains = {narrow, Drip(0, 1)};
  const DrainPlans plans(drains, {}, kKinds, std::nullopt, 1);
  Message m;
  m.dlq_reason = config::DlqReason::kStalled;
  m.last_error = config::ErrorClass::kTransient;
  m.kind_index = 1;  // purge
  CHECK(plans.Selected(0, m));
  CHECK(plans.Selected(1, m));  // no lists: everything
  m.kind_index = 0;
  CHECK_FALSE(plans.Selected(0, m));
  CHECK(plans.Selected(1, m));
  m.kind_index = 1;
  m.last_error = config::ErrorClass::kPermanent;
  CHECK_FALSE(plans.Selected(0, m));
  m.last_error = config::ErrorClass::kTransient;
  m.dlq_reason = config::DlqReason::kNotRetryable;
  CHECK_FALSE(plans.Selected(0, m));
  m.dlq_reason = config::DlqReason::kWorkerLost;  // the last reason: every bit is set
  CHECK(plans.Selected(1, m));
}

TEST_CASE("drain plans: one active at a time, in index order among the due", "[model][drain]") {
  const std::vector<config::Drain> drains = {Drip(10, 1), Drip(0, 1)};
  DrainPlans plans(drains, {}, kKinds, std::nullopt, 1);
  CHECK_FALSE(plans.NextToStart());
  plans.MarkDue(1);
  REQUIRE(plans.NextToStart() == 1u);
  plans.Start(1, At(0), std::nullopt);
  CHECK(plans.IsActive(1));
  CHECK(plans.active() == 1);
  CHECK(plans.first_start() == At(0));
  plans.MarkDue(0);
  CHECK_FALSE(plans.NextToStart());  // plan 1 is still active
  CHECK(plans.End(1));
  CHECK_FALSE(plans.End(1));  // once
  CHECK_FALSE(plans.any_active());
  REQUIRE(plans.NextToStart() == 0u);
  plans.Start(0, At(12), std::nullopt);
  CHECK(plans.first_start() == At(0));  // the first start stays
  CHECK_FALSE(plans.NextToStart());
}

TEST_CASE("drain plans: a drip plan takes its listed entries at its rate", "[model][drain]") {
  const std::vector<config::Drain> drains = {Drip(0, 2)};
  DrainPlans plans(drains, {}, kKinds, std::nullopt, 1);
  plans.MarkDue(0);
  plans.Start(0, At(0), std::nullopt);
  for (uint32_t slot = 0; slot < 3; ++slot) plans.List(0, Entry(slot));
  CHECK(plans.listed_count(0) == 3);
  CHECK_FALSE(plans.Pace(0, At(0)));  // the bucket starts full: one token
  CHECK(plans.TakeListed(0, At(0)).ref.slot == 0);
  REQUIRE(plans.Pace(0, At(0)) == At(0.5));
  CHECK(plans.Pace(0, At(0.4)) == At(0.5));
  CHECK_FALSE(plans.Pace(0, At(0.5)));
  CHECK(plans.TakeListed(0, At(0.5)).ref.slot == 1);
  plans.Unlist(0);  // entry 2 expired meanwhile: still on the list, no longer counted
  CHECK(plans.listed_count(0) == 0);
  REQUIRE(plans.NextListed(0) != nullptr);
  plans.DropListed(0);
  CHECK(plans.NextListed(0) == nullptr);
  DrainResults out;
  plans.FillResults(0, At(2), std::nullopt, out);
  CHECK(out.replayed == 2);
  CHECK(out.left == 0);
  CHECK(out.achieved_rate_per_s == Approx(1.0));
  CHECK(out.last_replay_at_s == Approx(0.5));
}

TEST_CASE("drain plans: a bulk plan under the broker's redrive cap starts with an empty bucket",
          "[model][drain]") {
  config::Drain bulk;
  bulk.start_at = At(0);
  bulk.strategy = config::BulkDrain{};
  const std::vector<config::Drain> drains = {bulk};
  DrainPlans capped(drains, {}, kKinds, 4.0, 1);
  capped.MarkDue(0);
  capped.Start(0, At(10), std::nullopt);
  CHECK(capped.Pace(0, At(10)) == At(10.25));  // message k moves at k / rate
  DrainPlans free(drains, {}, kKinds, std::nullopt, 1);
  free.MarkDue(0);
  free.Start(0, At(10), std::nullopt);
  for (int i = 0; i < 100; ++i) CHECK_FALSE(free.Pace(0, At(10)));  // all at once
}

TEST_CASE("drain plans: a bounded plan reaches its limit", "[model][drain]") {
  config::Drain bounded;
  bounded.start_at = At(0);
  bounded.limit = 2;
  bounded.strategy = config::BoundedDrain{};
  const std::vector<config::Drain> drains = {bounded};
  DrainPlans plans(drains, {}, kKinds, std::nullopt, 1);
  plans.MarkDue(0);
  plans.Start(0, At(0), std::nullopt);
  for (uint32_t slot = 0; slot < 3; ++slot) plans.List(0, Entry(slot));
  plans.TakeListed(0, At(0));
  CHECK_FALSE(plans.LimitReached(0));
  plans.TakeListed(0, At(0));
  CHECK(plans.LimitReached(0));
  CHECK(plans.listed_count(0) == 1);
}

TEST_CASE("drain plans: the adaptive rate grows while the database is healthy, backs off else",
          "[model][drain]") {
  config::Drain adaptive;
  adaptive.start_at = At(0);
  config::AdaptiveDrain aimd;
  aimd.rate_min_per_s = 10;
  aimd.rate_max_per_s = 30;
  aimd.increase_per_s = 1;
  aimd.decrease_factor = 0.5;
  aimd.latency_target = Duration::Millis(100);
  aimd.adjust_every = Duration::Seconds(8);
  adaptive.strategy = aimd;
  const std::vector<config::Drain> drains = {adaptive};
  DrainPlans plans(drains, {}, kKinds, std::nullopt, 1);
  plans.MarkDue(0);
  plans.RecordDbLatency(1'000'000);  // before the start: forgotten by Start
  plans.Start(0, At(0), DatabaseTotals{0, 0, 7});
  CHECK(plans.rate_per_s(0) == 10);
  CHECK(plans.Adjust(0, At(8), 7) == Duration::Seconds(8));
  CHECK(plans.rate_per_s(0) == 18);  // + 1/s x 8 s
  plans.RecordDbLatency(50'000);     // within the target
  plans.Adjust(0, At(16), 7);
  CHECK(plans.rate_per_s(0) == 26);
  plans.Adjust(0, At(24), 7);
  CHECK(plans.rate_per_s(0) == 30);  // capped at the maximum
  plans.RecordDbLatency(150'000);    // slow
  plans.Adjust(0, At(32), 7);
  CHECK(plans.rate_per_s(0) == 15);
  plans.Adjust(0, At(40), 8);        // a timeout since the last adjustment
  CHECK(plans.rate_per_s(0) == 10);  // 7.5, floored at the minimum
  plans.Adjust(0, At(48), 8);        // no new timeout, no latency recorded: healthy
  CHECK(plans.rate_per_s(0) == 18);
  // The bucket follows the rate: one token now, the next after 1/18 s.
  CHECK_FALSE(plans.Pace(0, At(48)));
  CHECK(plans.Pace(0, At(48)) == At(48) + Duration::Micros(55'556));
}

TEST_CASE("drain plans: settling, and the catch-up time of each started plan", "[model][drain]") {
  const std::vector<config::Drain> drains = {Drip(0, 100), Drip(0, 100)};
  DrainPlans plans(drains, {}, kKinds, std::nullopt, 1);
  plans.MarkDue(0);
  plans.Start(0, At(0), DatabaseTotals{1, 10, 0});
  plans.List(0, Entry(0));
  CHECK_FALSE(plans.ActiveSettled());
  plans.TakeListed(0, At(0));
  plans.ReplayEntered();
  CHECK(plans.replays_in_pipeline() == 1);
  CHECK_FALSE(plans.ActiveSettled());  // its replay has not settled yet
  plans.NoteMainQueue(1, At(1));
  plans.NoteMainQueue(0, At(3));  // the queue emptied at 3 s: cleared 3 s after the start
  plans.NoteMainQueue(1, At(4));  // once cleared, it stays so
  plans.ReplayLeft();
  CHECK(plans.ActiveSettled());
  CHECK_FALSE(plans.AllSettled());  // plan 1 has not started
  DrainResults out;
  plans.FillResults(0, At(5), DatabaseTotals{4, 20, 0}, out);
  CHECK(out.backlog_cleared_s == Approx(3));
  CHECK(out.db_utilisation == Approx(0.3));  // (4 - 1) / (20 - 10)
  plans.End(0);
  plans.MarkDue(1);
  plans.Start(1, At(5), std::nullopt);
  CHECK(plans.AllSettled());
  plans.List(1, Entry(1));
  CHECK_FALSE(plans.AllSettled());
}

}  // namespace
}  // namespace drain_plan_test
}  // namespace drainsim::model
