// broker_restart for drainsim live, without a broker (live/broker_restart.h, live/reconnect.h):
// the clients' reconnect schedule, the refusal with --amqp, the node-side
// program and the parsing of what rabbitmqctl prints, the side-by-side's extra row.
#include "live/broker_restart.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "live/plan.h"
#include "live/reconnect.h"
#include "live/side_by_side.h"
#include "sim/scenario/load.h"

namespace broker_restart_test {
namespace {

using drainsim::live::ReconnectDelayMs;
using drainsim::live::ReconnectPolicy;
using drainsim::live::ReconnectSchedule;

drainsim::config::Scenario LoadScenario(const std::string& name) {
  auto loaded =
      drainsim::scenario::LoadScenarioFile(std::string(DRAINSIM_SOURCE_DIR) + "/scenarios/" + name);
  REQUIRE(loaded.ok());
  return *loaded.scenario;
}

int64_t Sum(const std::vector<int64_t>& v) {
  int64_t s = 0;
  for (int64_t x : v) s += x;
  return s;
}

}  // namespace

TEST_CASE("live reconnect: the delay doubles from first_ms up to cap_ms and never overflows",
          "[live]") {
  const ReconnectPolicy p;  // 25 ms doubling, capped at 250 ms
  CHECK(ReconnectDelayMs(p, 0) == 25);
  CHECK(ReconnectDelayMs(p, 1) == 50);
  CHECK(ReconnectDelayMs(p, 2) == 100);
  CHECK(ReconnectDelayMs(p, 3) == 200);
  CHECK(ReconnectDelayMs(p, 4) == 250);
  CHECK(ReconnectDelayMs(p, 5) == 250);
  CHECK(ReconnectDelayMs(p, 1'000'000) == 250);
  for (int n = 0; n < 100; ++n) CHECK(ReconnectDelayMs(p, n + 1) >= ReconnectDelayMs(p, n));
}

TEST_CASE("live reconnect: the schedule is bounded in tries and in time", "[live]") {
  const std::vector<int64_t> all = ReconnectSchedule(ReconnectPolicy{});
  CHECK(Sum(all) == 60000);  // the default: a minute of waiting at most
  CHECK(all.size() <= 399);
  CHECK(all.front() == 25);
  // Bounded by the tries: attempts_max 3 is the first try and two retries.
  CHECK(ReconnectSchedule(ReconnectPolicy{25, 250, 3, 60000}) == std::vector<int64_t>{25, 50});
  // Bounded by the time: the last wait is cut so the sum is total_max_ms exactly.
  CHECK(ReconnectSchedule(ReconnectPolicy{25, 250, 100, 100}) == std::vector<int64_t>{25, 50, 25});
  CHECK(ReconnectSchedule(ReconnectPolicy{25, 250, 1, 60000}).empty());
}

TEST_CASE("live reconnect: OpenWithRetry gives up after its tries, or at once when told to",
          "[live]") {
  int tries = -1;
  // Port 1 on loopback: refused at once, so the three tries cost the two 1 ms waits.
  auto c = drainsim::live::OpenWithRetry(
      "amqp://guest:guest@127.0.0.1:1", "test", ReconnectPolicy{1, 1, 3, 1000}, {},
      [] { return false; }, &tries);
  REQUIRE_FALSE(c.ok());
  CHECK(tries == 3);
  CHECK(c.error().find("test: no connection after 3 tries: cannot connect to 127.0.0.1:1") !=
        std::string::npos);
  c = drainsim::live::OpenWithRetry(
      "amqp://guest:guest@127.0.0.1:1", "test", ReconnectPolicy{}, {}, [] { return true; }, &tries);
  REQUIRE_FALSE(c.ok());
  CHECK(tries == 0);
  CHECK(c.error().find("no connection after 0 tries") != std::string::npos);
}

TEST_CASE(
    "live broker_restart: accepted on the private broker, beside a drain too, refused with "
    "--amqp",
    "[live]") {
  const auto s = LoadScenario("live-restart.json");
  CHECK(drainsim::live::CheckLiveSupport(s).empty());
  CHECK(drainsim::live::CheckLiveSupport(LoadScenario("live-restart-drain.json")).empty());
  CHECK(drainsim::live::BrokerRestartProblems(s, /*external_broker=*/false).empty());
  const auto refused = drainsim::live::BrokerRestartProblems(s, /*external_broker=*/true);
  REQUIRE(refused.size() == 1);
  CHECK(refused[0].pointer == "/faults/0/type");
  CHECK(refused[0].message.find("not --amqp") != std::string::npos);
  // The pointer is the fault's own index among the others.
  const auto drain =
      drainsim::live::BrokerRestartProblems(LoadScenario("live-restart-drain.json"), true);
  REQUIRE(drain.size() == 1);
  CHECK(drain[0].pointer == "/faults/1/type");
  CHECK(drainsim::live::BrokerRestartProblems(LoadScenario("live-crash.json"), true).empty());
}

TEST_CASE("live broker_restart: the restarts by instant, the node-side program, its output",
          "[live]") {
  const auto restarts = drainsim::live::BrokerRestarts(LoadScenario("live-restart.json"));
  REQUIRE(restarts.size() == 1);
  CHECK(restarts[0].fault_index == 0);
  CHECK(restarts[0].at_s == 5.2);
  CHECK(restarts[0].downtime_s == 2.0);
  CHECK(drainsim::live::BrokerRestarts(LoadScenario("live-crash.json")).empty());
  // recovery_s is carried for the report; the node is stopped for downtime_s only.
  const auto retry = drainsim::live::BrokerRestarts(LoadScenario("live-restart-retry.json"));
  REQUIRE(retry.size() == 1);
  CHECK(retry[0].downtime_s == 1.5);
  CHECK(retry[0].recovery_s == 1.1);
  CHECK(restarts[0].recovery_s == 0);

  const std::string e = drainsim::live::RestartExpression(1'700'000'000'000'000, 2'000'000);
  CHECK(e.find("Wait(1700000000000000)") != std::string::npos);
  CHECK(e.find("Wait(1700000002000000)") != std::string::npos);
  CHECK(e.find("rabbit:stop()") < e.find("rabbit:start()"));

  // The CLI's term printer wraps long terms: any whitespace is accepted.
  const auto t = drainsim::live::ParseRestartOutput(
      "{drainsim_restart,ok,ok,1700000000001000,1700000000070000,\n"
      "                  1700000002000500,1700000002900000}\n");
  REQUIRE(t);
  CHECK(t->stop_called_us == 1700000000001000);
  CHECK(t->stop_returned_us == 1700000000070000);
  CHECK(t->start_called_us == 1700000002000500);
  CHECK(t->start_returned_us == 1700000002900000);
  CHECK_FALSE(drainsim::live::ParseRestartOutput(
      "{drainsim_restart,{error,timeout},ok,1,2,3,4}"));  // the stop failed
  CHECK_FALSE(drainsim::live::ParseRestartOutput("Error: unable to perform an operation on node"));
  CHECK_FALSE(drainsim::live::ParseRestartOutput("{drainsim_restart,ok,ok,1,2,3}"));
}

TEST_CASE("live broker_restart: the side-by-side compares the claim kinds' suppressions",
          "[live]") {
  const auto with = drainsim::live::ComparedFigures(LoadScenario("live-restart.json"));
  CHECK(std::find(with.begin(), with.end(), "duplicates_suppressed") != with.end());
  const auto without = drainsim::live::ComparedFigures(LoadScenario("live-crash.json"));
  CHECK(std::find(without.begin(), without.end(), "duplicates_suppressed") == without.end());
}

TEST_CASE("live broker_restart: each restart's first consumer back, for its measured recovery",
          "[live]") {
  drainsim::live::RestartFigures f;
  drainsim::live::RestartRecord a, b;
  a.stop_called_s = 5.0, a.start_called_s = 7.0, a.up_s = 7.6;
  b.stop_called_s = 12.0, b.start_called_s = 13.0, b.up_s = 13.5;
  f.restarts = {a, b};
  // In any order; one before the first restart (a crash's) does not count.
  drainsim::live::AttachConsumerReconnects({13.9, 2.0, 8.1, 7.98, 14.2}, &f);
  REQUIRE(f.restarts[0].first_consumer_s);
  CHECK(*f.restarts[0].first_consumer_s == 7.98);
  CHECK(*f.restarts[0].measured_recovery_s() == Approx(0.98));
  REQUIRE(f.restarts[1].first_consumer_s);
  CHECK(*f.restarts[1].first_consumer_s == 13.9);
  // A restart no consumer came back from: none, not the next restart's.
  drainsim::live::AttachConsumerReconnects({13.9}, &f);
  CHECK_FALSE(f.restarts[0].first_consumer_s);
  CHECK_FALSE(f.restarts[0].measured_recovery_s());
  CHECK(*f.restarts[1].first_consumer_s == 13.9);
}

}  // namespace broker_restart_test
