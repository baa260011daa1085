// RunOptions::pending_messages_max (simulation.h (6), memory_cost.h): the run stops at the
// message that would exceed the cap, deterministically, and a cap the run never reaches changes
// nothing.
#include <catch2/catch.hpp>
#include <string>

#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace pending_cap_test {
namespace {

using testing::LoadOrFail;

// `backlog` jobs waiting at t = 0, then 10 jobs/s for 100 s, into one worker that takes 1 s a
// job: the queue grows by about 9 messages a second until 100 s.
std::string Growing(int backlog) {
  return R"({"format_version": 1, "name": "growing", "seed": 3, "run": {"until_s": 2000},
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1000}}}},
    "producers": [{"kind": "job", "constant": {"rate_per_s": 10, "until_s": 100}}],
    "backlog": [)" +
         (backlog > 0
              ? R"({"where": "main", "kind": "job", "count": )" + std::to_string(backlog) + "}"
              : std::string()) +
         R"(],
    "workers": {"count": 1, "prefetch": 1}})";
}

Results RunWithCap(const config::Scenario& scenario, int64_t cap) {
  RunOptions options;
  options.audit_every_event = true;
  options.pending_messages_max = cap;
  return RunSimulation(scenario, 7, options);
}

// The message of the PendingMessagesMaxExceeded that a run with `cap` throws, or "" if none.
std::string StopMessage(const config::Scenario& scenario, int64_t cap) {
  try {
    RunWithCap(scenario, cap);
  } catch (const PendingMessagesMaxExceeded& e) {
    CHECK(e.pending_messages_max() == cap);
    return e.what();
  }
  return "";
}

TEST_CASE("the default cap is 16 GiB at the measured cost of a pending message", "[model][cap]") {
  CHECK(RunOptions{}.pending_messages_max == kPendingMessagesMaxDefault);
  CHECK(kPendingMessagesMaxDefault == 81'808'900);
  CHECK(static_cast<double>(kPendingMessagesMaxDefault) * kBytesPerPendingMessage <=
        16.0 * (1ull << 30));
}

TEST_CASE("a run that stays under the cap gives the same results as without one",
          "[model][cap]") {
  const config::Scenario s = LoadOrFail(Growing(0));
  const Results free = RunWithCap(s, kPendingMessagesMaxDefault);
  // Published 1000, acked one a second from t = 0: at most about 900 are pending at once.
  REQUIRE(free.published == 1000);
  REQUIRE(free.acked == 1000);
  const Results capped = RunWithCap(s, 1000);
  CHECK(capped.fingerprint == free.fingerprint);
  CHECK(capped.acked == free.acked);
  CHECK(capped.ended_at_s == free.ended_at_s);
}

TEST_CASE("a run that would exceed the cap stops at the same message every time",
          "[model][cap]") {
  const config::Scenario s = LoadOrFail(Growing(0));
  const std::string first = StopMessage(s, 500);
  INFO(first);
  REQUIRE_FALSE(first.empty());
  CHECK(first == StopMessage(s, 500));  // deterministic, instant included
  CHECK(first.find("more than 500 messages pending at once (the cap: about 105 kB at 210 "
                   "bytes a message) in the run of scenario 'growing' with seed 7, at ") == 0);
  // 10 published a second, one acked a second: the 501st pending message comes at about 55 s.
  const size_t at = first.find(", at ");
  const double at_s = std::stod(first.substr(at + 5));
  CHECK(at_s > 50);
  CHECK(at_s < 60);
  // A higher cap stops later; a cap above the peak not at all.
  const std::string later = StopMessage(s, 800);
  REQUIRE_FALSE(later.empty());
  CHECK(std::stod(later.substr(later.find(", at ") + 5)) > at_s);
  CHECK(StopMessage(s, 1000).empty());
}

TEST_CASE("a backlog larger than the cap stops the run at t = 0", "[model][cap]") {
  const config::Scenario s = LoadOrFail(Growing(300));
  const std::string stop = StopMessage(s, 299);
  INFO(stop);
  CHECK(stop.find("more than 299 messages pending at once") == 0);
  CHECK(stop.find(", at 0.000000 s simulated") != std::string::npos);
  // Room for the backlog and all the producer publishes: it runs to the end.
  CHECK(StopMessage(s, 1300).empty());
}

}  // namespace
}  // namespace pending_cap_test
}  // namespace drainsim::model
