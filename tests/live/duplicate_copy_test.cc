// Republished copies across a broker restart, the parts that need no broker: the delay queues'
// arguments (live/topology.h: quorum with at-least-once dead-lettering where the main queue is a
// quorum queue, classic otherwise) and the worker's test for a copy received twice
// (live/duplicate_copy.h). The broker's side is tests/live/live_test.py restartretry.
#include "live/duplicate_copy.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <string>
#include <thread>
#include <vector>

#include "live/topology.h"
#include "sim/scenario/load.h"

namespace duplicate_copy_test {
namespace {

using drainsim::live::AmqpHeaders;
using drainsim::live::CopyKey;
using drainsim::live::IsDuplicateCopy;

drainsim::config::Scenario Load(const std::string& name) {
  auto loaded =
      drainsim::scenario::LoadScenarioFile(std::string(DRAINSIM_SOURCE_DIR) + "/scenarios/" + name);
  REQUIRE(loaded.ok());
  return *loaded.scenario;
}

TEST_CASE("delay queues of a quorum main queue are quorum, at-least-once, reject-publish") {
  const drainsim::config::Scenario s = Load("live-restart-retry.json");
  const drainsim::live::Topology t = drainsim::live::MakeTopology(s);
  REQUIRE(t.quorum);
  REQUIRE(t.delay_queues.count(1500) == 1);  // the first retry's level
  const AmqpHeaders args = drainsim::live::DelayQueueArgs(t);
  CHECK(args == AmqpHeaders{{"x-queue-type", std::string("quorum")},
                            {"x-dead-letter-strategy", std::string("at-least-once")},
                            {"x-overflow", std::string("reject-publish")},
                            {"x-dead-letter-exchange", std::string()},
                            {"x-dead-letter-routing-key", t.main_queue}});
  CHECK(std::string(drainsim::live::DelayDeadLetterStrategy(t)) == "at-least-once");
}

TEST_CASE("delay queues of a classic main queue stay classic, at-most-once") {
  drainsim::config::Scenario s = Load("live-restart-retry.json");
  s.broker.delivery_limit.reset();
  s.broker.preset.reset();
  const drainsim::live::Topology t = drainsim::live::MakeTopology(s);
  REQUIRE_FALSE(t.quorum);
  CHECK(drainsim::live::DelayQueueArgs(t) ==
        AmqpHeaders{{"x-dead-letter-exchange", std::string()},
                    {"x-dead-letter-routing-key", t.main_queue}});
  CHECK(std::string(drainsim::live::DelayDeadLetterStrategy(t)) == "at-most-once");
}

TEST_CASE("only republished copies have a copy key, growing with the life and the attempt") {
  CHECK_FALSE(CopyKey({}));
  CHECK_FALSE(CopyKey({{"x-drainsim-attempt", int64_t{1}}}));  // the producer's, or its resend
  const auto a2 = CopyKey({{"x-drainsim-attempt", int64_t{2}}});
  const auto a3 = CopyKey({{"x-drainsim-attempt", int64_t{3}}});
  const auto replay_a2 =
      CopyKey({{"x-drainsim-attempt", int64_t{2}}, {"x-drainsim-life-base", int64_t{4}}});
  REQUIRE((a2 && a3 && replay_a2));
  CHECK(*a2 < *a3);
  CHECK(*a3 < *replay_a2);  // a drain's replay starts a new life: never an earlier life's copy
}

TEST_CASE("a copy received again is a duplicate unless the broker redelivers it") {
  std::atomic<int64_t> seen{0};
  CHECK_FALSE(IsDuplicateCopy(seen, 2, false));  // attempt 2's copy, first received
  CHECK(IsDuplicateCopy(seen, 2, false));        // the same copy again: at-least-once
  CHECK_FALSE(IsDuplicateCopy(seen, 2, true));   // a redelivery (crash, restart) runs
  CHECK_FALSE(IsDuplicateCopy(seen, 3, false));  // the next attempt's copy
  CHECK(IsDuplicateCopy(seen, 2, false));        // a late second copy of attempt 2
  CHECK(seen.load() == 3);
}

TEST_CASE("of one copy received by several workers at once exactly one is the first") {
  for (int round = 0; round < 50; ++round) {
    std::atomic<int64_t> seen{2};
    std::atomic<int> firsts{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; ++i) {
      threads.emplace_back([&] {
        if (!IsDuplicateCopy(seen, 3, false)) ++firsts;
      });
    }
    for (std::thread& t : threads) t.join();
    CHECK(firsts.load() == 1);
  }
}

}  // namespace

}  // namespace duplicate_copy_test
