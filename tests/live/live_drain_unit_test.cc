// Drains for real without a broker: which drains `drainsim live` accepts and refuses, the plan's
// DLQ backlog, the wall-clock pacer, and what a drain selects on in a DLQ message.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "live/drainer.h"
#include "live/drainer_busy.h"
#include "live/plan.h"
#include "sim/scenario/load.h"

namespace live_drain_unit_test {
namespace {

using drainsim::live::AmqpMessage;
using drainsim::live::WallPacer;
namespace sc = drainsim::scenario;
namespace config = drainsim::config;

config::Scenario LoadLiveDrain() {
  auto loaded =
      sc::LoadScenarioFile(std::string(DRAINSIM_SOURCE_DIR) + "/scenarios/live-drain.json");
  REQUIRE(loaded.ok());
  return *loaded.scenario;
}

bool HasProblem(const std::vector<sc::Problem>& problems, const std::string& pointer,
                const std::string& text) {
  for (const auto& p : problems) {
    if (p.pointer == pointer && p.message.find(text) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("live drain: a drip drain and a DLQ backlog are supported, the rest refused by pointer",
          "[live]") {
  config::Scenario s = LoadLiveDrain();
  CHECK(drainsim::live::CheckLiveSupport(s).empty());
  s.drains.push_back(s.drains[0]);
  s.drains[0].strategy = config::AdaptiveDrain{
      1, 10, 1, 0.5, config::Duration::Millis(50), config::Duration::Seconds(1)};
  s.backlog.push_back(s.backlog[0]);
  s.backlog.back().where = config::BacklogWhere::kDelayed;
  s.broker.dlq_retention = config::Duration::Seconds(60);  // expires within the 150 s run
  const auto problems = drainsim::live::CheckLiveSupport(s);
  CHECK(HasProblem(problems, "/drains/0/strategy", "an adaptive drain"));
  CHECK(HasProblem(problems, "/drains/1", "more than one drain plan"));
  CHECK(HasProblem(problems, "/backlog/2/where", "delay queue"));
  CHECK(HasProblem(problems, "/broker/dlq_retention_s", "DLQ retention"));
  CHECK_FALSE(HasProblem(problems, "/backlog/0/where", ""));
  CHECK(problems.size() == 4);
}

TEST_CASE("live drain: the plan holds the DLQ backlog with the simulation's ids, kinds, keys",
          "[live]") {
  const config::Scenario s = LoadLiveDrain();
  const drainsim::live::Plan plan = drainsim::live::MakePlan(s, s.seed);
  REQUIRE(plan.messages.size() == 5020);
  CHECK(plan.dlq_count() == 5020);
  CHECK(plan.simulated.published == 5020);
  CHECK(plan.simulated.replays == 5000);
  CHECK(plan.simulated.human_needed == 25);
  int fated = 0;
  for (const auto& m : plan.messages) {
    REQUIRE(m.dlq);
    const bool invoice = m.id < 20;  // the first backlog entry
    CHECK(m.kind == (invoice ? "invoice" : "order"));
    CHECK(m.key == m.kind + ":" + std::to_string(m.id));
    CHECK(m.dlq->error ==
          (invoice ? config::ErrorClass::kPermanent : config::ErrorClass::kTransient));
    CHECK(m.dlq->reason ==
          (invoice ? config::DlqReason::kNotRetryable : config::DlqReason::kMaxAttempts));
    CHECK(m.dlq->attempts == (invoice ? 1 : 5));
    if (m.fate) {
      ++fated;
      CHECK((m.id >= 20 && m.id < 25));  // the first 5 orders: the poison fault's count
    }
  }
  CHECK(fated == 5);
}

TEST_CASE("live drain: the pacer spaces replays as the simulation's token bucket", "[live]") {
  WallPacer strict(50.0, 1);  // drip 50/s, burst 1: one every 20 ms from the start
  CHECK(strict.Take(0) == 0);
  CHECK(strict.Take(0) == 20'000);
  CHECK(strict.Take(5'000) == 40'000);  // a caller early is made to wait
  CHECK(strict.Take(41'000) == 60'000);
  // After an idle second the bucket is full with one token, not fifty.
  CHECK(strict.Take(1'060'000) == 1'060'000);
  CHECK(strict.Take(1'060'000) == 1'080'000);
  WallPacer burst(50.0, 3);
  CHECK(burst.Take(0) == 0);
  CHECK(burst.Take(0) == 0);
  CHECK(burst.Take(0) == 0);
  CHECK(burst.Take(0) == 20'000);
  WallPacer bulk(std::nullopt, 1);  // unpaced: now, never earlier than a previous answer
  CHECK(bulk.Take(7) == 7);
  CHECK(bulk.Take(3) == 7);
  // 5,000 at 50/s: the last replay 99.98 s after the start, as the simulation's.
  WallPacer drip = WallPacer::For(LoadLiveDrain().drains[0]);
  int64_t last_us = 0;
  for (int i = 0; i < 5000; ++i) last_us = drip.Take(last_us);
  CHECK(last_us == 99'980'000);
}

TEST_CASE("live drain: what a drain selects on, read from a DLQ message", "[live]") {
  const config::Scenario s = LoadLiveDrain();
  const config::DrainSelect& select = s.drains[0].select;  // errors: [transient]
  AmqpMessage backlog;  // put there before the run: the backlog's headers, no x-death
  backlog.headers = {{"x-drainsim-kind", std::string("invoice")},
                     {"x-drainsim-dlq-reason", std::string("not_retryable")},
                     {"x-drainsim-error", std::string("permanent")}};
  auto view = drainsim::live::ViewOf(backlog, s);
  CHECK(view.kind == "invoice");
  CHECK(view.reason == config::DlqReason::kNotRetryable);
  CHECK(view.error == config::ErrorClass::kPermanent);
  CHECK_FALSE(drainsim::live::Selected(select, view));
  backlog.headers["x-drainsim-error"] = std::string("transient");
  CHECK(drainsim::live::Selected(select, drainsim::live::ViewOf(backlog, s)));

  AmqpMessage rejected;  // dead-lettered live: x-death, and the fate's class
  rejected.death_reason = "rejected";
  rejected.headers = {{"x-drainsim-kind", std::string("order")},
                      {"x-drainsim-fail", std::string("permanent")},
                      {"x-drainsim-dlq-reason", std::string("max_attempts")}};
  view = drainsim::live::ViewOf(rejected, s);
  CHECK(view.error == config::ErrorClass::kPermanent);
  CHECK(view.reason == config::DlqReason::kNotRetryable);  // permanent: dead_letter at once
  rejected.headers.erase("x-drainsim-fail");           // no fate: a database failure
  view = drainsim::live::ViewOf(rejected, s);
  CHECK(view.error == config::ErrorClass::kTransient);
  CHECK(view.reason == config::DlqReason::kMaxAttempts);
  rejected.death_reason = "delivery_limit";
  CHECK(drainsim::live::ViewOf(rejected, s).reason == config::DlqReason::kDeliveryLimit);
}

TEST_CASE("live drain: a replay's attempts start over, or go on with redrive_attempts keep",
          "[live]") {
  using drainsim::live::ReplayLifeBase;
  const auto reset = config::RedriveAttempts::kReset;
  const auto keep = config::RedriveAttempts::kKeep;
  // worker.cc: attempt = deliveries after this one - life base.
  auto next_attempt = [](int64_t deliveries, int64_t base) { return deliveries + 1 - base; };
  // A backlog message put into the DLQ with attempts 5 (life base -5), never delivered live.
  CHECK(next_attempt(0, ReplayLifeBase(0, -5, reset)) == 1);
  CHECK(next_attempt(0, ReplayLifeBase(0, -5, keep)) == 5);  // Sidekiq: 5 - 1 kept, then 5th
  // Dead-lettered live after 6 deliveries in its first life (base 0).
  CHECK(next_attempt(6, ReplayLifeBase(6, 0, reset)) == 1);
  CHECK(next_attempt(6, ReplayLifeBase(6, 0, keep)) == 6);
  // A second replay counts only the second life's deliveries (6 -> 9: 3 attempts).
  CHECK(next_attempt(9, ReplayLifeBase(9, 6, reset)) == 1);
  CHECK(next_attempt(9, ReplayLifeBase(9, 6, keep)) == 3);
  // A life with no attempt (attempts 0 in the backlog) keeps none.
  CHECK(next_attempt(0, ReplayLifeBase(0, 0, keep)) == 1);
}

namespace {

using drainsim::live::DrainerBusy;
using drainsim::live::SummariseDrainerBusy;

TEST_CASE("drainer busy time: stalls beyond the bucket's slack, and a table the loader accepts",
          "[live][drain]") {
  // 995 quick replays of 0.5 ms and 5 stalls of 120 ms, against a 20 ms token interval.
  std::vector<double> busy(995, 0.5);
  for (int i = 0; i < 5; ++i) busy.push_back(120.0);
  const DrainerBusy b = SummariseDrainerBusy(busy, 20.0);
  CHECK(b.count == 1000);
  CHECK(b.p50_ms == 0.5);
  CHECK(b.p99_ms == 0.5);
  CHECK(b.max_ms == 120.0);
  CHECK(b.stalls == 5);
  CHECK(b.stalled_s == Approx(5 * 0.100));
  // The table, pasted into live-drain.json's drain, loads and gives the simulation the stalls.
  std::ifstream in(std::string(DRAINSIM_SOURCE_DIR) + "/scenarios/live-drain.json");
  nlohmann::json j = nlohmann::json::parse(in);
  j["drains"][0]["replay_ms"] = b.replay_ms;
  const auto loaded = sc::LoadScenarioText(j.dump());
  REQUIRE(loaded.ok());
  REQUIRE(loaded.scenario->drains.at(0).replay_ms);
  const auto& table = b.replay_ms.at("empirical");
  CHECK(table.back().at(0).get<double>() == 1.0);
  CHECK(table.back().at(1).get<double>() == 120.0);
  // Nothing measured: no table.
  CHECK(SummariseDrainerBusy({}, 20.0).replay_ms.is_null());
  CHECK(SummariseDrainerBusy({}, 20.0).count == 0);
}

TEST_CASE("drainer busy time: the slack is burst token intervals", "[live][drain]") {
  config::Scenario s = LoadLiveDrain();
  CHECK(drainsim::live::BucketSlackMs(s.drains.at(0)) == Approx(20.0));  // 50/s, burst 1
  std::get<config::DripDrain>(s.drains.at(0).strategy).burst = 5;
  CHECK(drainsim::live::BucketSlackMs(s.drains.at(0)) == Approx(100.0));
  s.drains.at(0).strategy = config::BulkDrain{};
  CHECK(drainsim::live::BucketSlackMs(s.drains.at(0)) == 0.0);
}

}  // namespace

}  // namespace live_drain_unit_test
