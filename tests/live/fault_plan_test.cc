// Worker crashes and lost acks for drainsim live, without a broker (live/fault_plan.h): what is
// accepted and refused, and the plan's fates taken from the simulation (same seed, same fates;
// the same count of crashes, lost acks and the duplicates that followed them).
#include "live/fault_plan.h"

#include <catch2/catch.hpp>
#include <string>

#include "live/db_outage.h"
#include "live/plan.h"
#include "sim/model/results.h"
#include "sim/scenario/load.h"

namespace fault_plan_test {
namespace {

drainsim::config::Scenario LoadScenario(const std::string& name) {
  auto loaded =
      drainsim::scenario::LoadScenarioFile(std::string(DRAINSIM_SOURCE_DIR) + "/scenarios/" + name);
  REQUIRE(loaded.ok());
  return *loaded.scenario;
}

int64_t Cause(const drainsim::model::Results& r, drainsim::model::DuplicateCause cause) {
  return r.duplicates_by_cause[static_cast<size_t>(cause)];
}

}  // namespace

using drainsim::live::SuccessFault;

TEST_CASE("live faults: worker crashes and lost acks are supported, a lost ack needs close_channel",
          "[live]") {
  CHECK(drainsim::live::CheckLiveSupport(LoadScenario("live-crash.json")).empty());
  // The monthly rehearsal's crash is accepted; its lost acks are refused: its broker redelivers
  // a timed-out message alone, which RabbitMQ does not do.
  const auto problems = drainsim::live::CheckLiveSupport(LoadScenario("monthly-rehearsal.json"));
  bool crash_refused = false, ack_loss_refused = false;
  for (const auto& p : problems) {
    crash_refused = crash_refused || p.pointer == "/faults/2/type";
    ack_loss_refused = ack_loss_refused || (p.pointer == "/broker/on_visibility_timeout" &&
                                            p.message.find("close_channel") != std::string::npos);
  }
  CHECK_FALSE(crash_refused);
  CHECK(ack_loss_refused);
  CHECK(drainsim::live::ConsumerTimeoutMs(LoadScenario("live-crash.json")) == 3000);
  CHECK_FALSE(drainsim::live::ConsumerTimeoutMs(LoadScenario("live-poison.json")).has_value());
}

TEST_CASE("live faults: the plan's crashes and lost acks are the simulation's, the same every time",
          "[live]") {
  const auto scenario = LoadScenario("live-crash.json");
  const drainsim::live::Plan plan = drainsim::live::MakePlan(scenario, scenario.seed);
  const drainsim::model::Results& sim = plan.simulated;
  REQUIRE(plan.faults.active);
  // Every crash the simulation drew: one at 5 s and two at 12 s between commit and ack (each
  // strikes at the worker's next commit), one anywhere at 8 s.
  REQUIRE(plan.crashes.size() == 4);
  CHECK(plan.faults.crashes == 4);
  int anywhere = 0;
  for (const auto& c : plan.crashes) {
    CHECK(c.worker < 4);
    if (c.after_commit) {
      CHECK(c.message_id >= 0);
      CHECK(c.at_s >= 5.0);
    } else {
      ++anywhere;
      CHECK(c.at_s == 8.0);
      CHECK(c.message_id == -1);
    }
  }
  CHECK(anywhere == 1);
  CHECK(plan.faults.crash_after_commit == 3);
  // The fates per message add up to the figures, and each crash between commit and ack is the
  // fate of the message whose commit it followed.
  int64_t crash_fates = 0, lost_fates = 0;
  for (const auto& m : plan.messages) {
    int previous = 0;
    for (const auto& f : m.success_fates) {
      CHECK(f.success >= previous);
      previous = f.success;
      CHECK(f.fault_index >= 0);
      if (f.what == SuccessFault::kCrashAfterCommit) {
        ++crash_fates;
        bool listed = false;
        for (const auto& c : plan.crashes) listed = listed || c.message_id == int64_t(m.id);
        CHECK(listed);
      } else {
        ++lost_fates;
      }
    }
  }
  CHECK(crash_fates == plan.faults.crash_after_commit);
  CHECK(lost_fates == plan.faults.acks_lost);
  CHECK(lost_fates > 0);
  // Here every duplicate follows a crash or a lost ack: the plan's duplicates after a fault are
  // the simulation's duplicate executions by those causes, and its suppressions all of its
  // suppressions.
  using drainsim::model::DuplicateCause;
  CHECK(plan.faults.duplicates_after_fault ==
        Cause(sim, DuplicateCause::kCrashAfterCommit) + Cause(sim, DuplicateCause::kLostAck));
  CHECK(plan.faults.duplicates_after_fault == sim.duplicate_executions);
  CHECK(plan.faults.suppressed_after_fault == sim.duplicates_suppressed);
  CHECK(sim.duplicate_executions > 0);
  CHECK(sim.duplicates_suppressed > 0);
  // Same scenario, same seed: the same fates.
  const drainsim::live::Plan again = drainsim::live::MakePlan(scenario, scenario.seed);
  REQUIRE(again.messages.size() == plan.messages.size());
  for (size_t i = 0; i < plan.messages.size(); ++i) {
    const auto& a = plan.messages[i].success_fates;
    const auto& b = again.messages[i].success_fates;
    REQUIRE(a.size() == b.size());
    for (size_t k = 0; k < a.size(); ++k) {
      CHECK(a[k].success == b[k].success);
      CHECK(a[k].what == b[k].what);
    }
  }
  REQUIRE(again.crashes.size() == plan.crashes.size());
  for (size_t i = 0; i < plan.crashes.size(); ++i) {
    CHECK(again.crashes[i].worker == plan.crashes[i].worker);
    CHECK(again.crashes[i].at_s == plan.crashes[i].at_s);
    CHECK(again.crashes[i].message_id == plan.crashes[i].message_id);
  }
}

TEST_CASE(
    "live faults: a database outage is supported, its windows merged as the model composes them",
    "[live]") {
  auto scenario = LoadScenario("live-db-outage.json");
  CHECK(drainsim::live::CheckLiveSupport(scenario).empty());
  using Pairs = std::vector<std::pair<double, double>>;
  CHECK(drainsim::live::DbOutageWindows(scenario) == Pairs{{5.0, 7.0}});
  // Overlapping or touching windows are one outage; a separate one stays apart.
  auto window = [](double from_s, double until_s) {
    drainsim::config::DbOutageFault f;
    f.window.from = drainsim::engine::Instant::Micros(static_cast<int64_t>(from_s * 1e6));
    f.window.until = drainsim::engine::Instant::Micros(static_cast<int64_t>(until_s * 1e6));
    return drainsim::config::Fault(f);
  };
  scenario.faults = {window(10, 12), window(6, 8), window(11, 14), window(1, 2), window(8, 9)};
  CHECK(drainsim::live::DbOutageWindows(scenario) == Pairs{{1, 2}, {6, 9}, {10, 14}});
  CHECK(drainsim::live::DbOutageWindows(LoadScenario("live-crash.json")).empty());
}

}  // namespace fault_plan_test
