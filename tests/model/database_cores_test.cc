// Processor sharing (`database.cores`): the running queries share the server's CPUs, each at
// min(1, cores / running). Exact timings where the arithmetic is short, then M/G/1-PS theory.
#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/engine/distributions.h"
#include "sim/engine/rng.h"
#include "sim/model/database.h"
#include "tests/model/database_harness.h"

namespace drainsim::model {
namespace database_cores_test {
namespace {

using engine::Duration;
using engine::Instant;
using namespace testing;  // NOLINT: the harness is this test's vocabulary

const Duration kLongTimeout = Duration::Seconds(1000);

TEST_CASE("two equal queries on one CPU both take twice as long", "[database][cores]") {
  Harness h(2, kLongTimeout, 0, 1.0);
  h.db.Submit(1, Duration::Millis(10));
  h.db.Submit(2, Duration::Millis(10));
  CHECK(h.db.busy() == 2);
  h.RunUntilIdle();
  // Equal work, equal shares: both end at 20 ms, in the order they started.
  CheckAllOk(h.done, {1, 2}, {20, 20}, {0, 0});
}

TEST_CASE("the shorter query leaves first and the longer one speeds up", "[database][cores]") {
  Harness h(2, kLongTimeout, 0, 1.0);
  h.db.Submit(1, Duration::Millis(30));
  h.db.Submit(2, Duration::Millis(10));
  h.RunUntilIdle();
  // Half speed each until 2 has done its 10 ms (at 20 ms); 1 then has 20 ms left at full speed.
  CheckAllOk(h.done, {2, 1}, {20, 40}, {0, 0});
}

TEST_CASE("a query that arrives mid-service slows the running one from then on",
          "[database][cores]") {
  Harness h(4, kLongTimeout, 0, 1.0);
  h.db.Submit(1, Duration::Millis(30));
  h.on_other = [&](const Event&) { h.db.Submit(2, Duration::Millis(10)); };
  h.At(Ms(10), Event{EventType::kLiveQuery});
  h.RunUntilIdle();
  // 1 alone for 10 ms (20 left); shared from 10 ms: 2 needs 20 ms (ends at 30), 1 gets 10 of
  // its 20; alone again, 1 ends at 40.
  CheckAllOk(h.done, {2, 1}, {30, 40}, {10, 0});
}

TEST_CASE("fractional CPUs: three queries on 1.5 CPUs run at half speed", "[database][cores]") {
  Harness h(3, kLongTimeout, 0, 1.5);
  for (uint64_t owner = 1; owner <= 3; ++owner) h.db.Submit(owner, Duration::Millis(30));
  h.RunUntilIdle();
  CheckAllOk(h.done, {1, 2, 3}, {60, 60, 60}, {0, 0, 0});
}

TEST_CASE("a query that times out while running gives its CPU share back", "[database][cores]") {
  Harness h(2, Duration::Millis(100), 0, 1.0);
  h.db.Submit(1, Duration::Millis(1000));
  h.on_other = [&](const Event&) { h.db.Submit(2, Duration::Millis(50)); };
  h.At(Ms(60), Event{EventType::kLiveQuery});
  h.RunUntilIdle();
  REQUIRE(h.done.size() == 2);
  // 1 runs past its 100 ms statement timeout; 2 shared from 60 to 100 ms (20 of its 50 ms),
  // alone afterwards: done at 130 ms. Had 1 kept its share, 2 would end at 160 ms.
  CheckDone(h.done[0], 1, QueryOutcome::kTimeout, Ms(100), Duration::Millis(100));
  CheckDone(h.done[1], 2, QueryOutcome::kOk, Ms(130), Duration::Millis(70));
}

TEST_CASE("waiting queries take no CPU: only the running ones share it", "[database][cores]") {
  Harness h(2, kLongTimeout, 0, 1.0);
  for (uint64_t owner = 1; owner <= 4; ++owner) h.db.Submit(owner, Duration::Millis(10));
  h.RunUntilIdle();
  // Two at a time at half speed: 1 and 2 at 20 ms, 3 and 4 at 40 ms.
  CheckAllOk(h.done, {1, 2, 3, 4}, {20, 20, 40, 40}, {0, 0, 0, 0});
}

// A random Poisson workload of `queries` queries with exponential or constant service.
std::vector<Done> RunWorkload(std::optional<double> cores, int64_t connections, double rate_per_s,
                              const engine::Distribution& service_us, int64_t queries,
                              uint64_t seed, std::vector<Duration>* service) {
  Harness h(connections, Duration::Seconds(1'000'000), 0, cores);
  auto rng = engine::Rng::FromSeed(seed);
  const auto gap_us = engine::Distribution::Exponential(1e6 / rate_per_s);
  h.on_other = [&](const Event&) {
    service->push_back(Us(service_us.Sample(rng)));
    h.db.Submit(service->size() - 1, service->back());
    if (static_cast<int64_t>(service->size()) < queries) {
      h.At(h.Now() + Us(gap_us.Sample(rng)), Event{EventType::kLiveQuery});
    }
  };
  h.At(Instant::Zero(), Event{EventType::kLiveQuery});
  h.RunUntilIdle();
  return std::move(h.done);
}

TEST_CASE("as many CPUs as connections: exactly the model without cores", "[database][cores]") {
  const auto service_us = engine::Distribution::Exponential(20'000);
  std::vector<Duration> service_a, service_b;
  const std::vector<Done> plain = RunWorkload(std::nullopt, 8, 300, service_us, 20'000, 9,
                                              &service_a);
  const std::vector<Done> shared = RunWorkload(8.0, 8, 300, service_us, 20'000, 9, &service_b);
  REQUIRE(plain.size() == shared.size());
  int64_t differ = 0;
  for (size_t i = 0; i < plain.size(); ++i) {
    differ += plain[i].at != shared[i].at || plain[i].completion.owner != shared[i].completion.owner;
  }
  CHECK(differ == 0);
}

// M/G/1-PS: the mean time in system is E[S] / (1 - rho) for any service distribution, and a
// query of size x spends x / (1 - rho) on average (Kleinrock). First-come-first-served gives
// constant service E[S] + rho E[S] / (2 (1 - rho)) instead: 0.3 s against PS's 0.5 s here.
TEST_CASE("one CPU shared by every connection is an M/G/1 processor-sharing queue",
          "[database][cores]") {
  constexpr double kRatePerS = 8;
  constexpr double kServiceS = 0.1;  // rho = 0.8
  constexpr int64_t kQueries = 400'000;
  const double rho = kRatePerS * kServiceS;
  for (const bool exponential : {true, false}) {
    INFO((exponential ? "exponential" : "constant") << " service");
    const auto service_us = exponential ? engine::Distribution::Exponential(kServiceS * 1e6)
                                        : engine::Distribution::Constant(kServiceS * 1e6);
    std::vector<Duration> service;
    const std::vector<Done> done =
        RunWorkload(1.0, 100'000, kRatePerS, service_us, kQueries, 17, &service);
    REQUIRE(static_cast<int64_t>(done.size()) == kQueries);
    double latency_s_sum = 0;
    double stretch_sum = 0;  // latency / service
    for (const Done& d : done) {
      REQUIRE(d.completion.outcome == QueryOutcome::kOk);
      const Duration s = service[d.completion.owner];
      latency_s_sum += d.completion.latency.seconds();
      if (s > Duration::Zero()) stretch_sum += d.completion.latency.seconds() / s.seconds();
    }
    // At rho 0.8 the sojourns are strongly correlated: 400k queries leave a standard error of
    // a few per cent on the mean; 6% is about 3 standard errors.
    CHECK(latency_s_sum / kQueries == Approx(kServiceS / (1 - rho)).epsilon(0.06));
    CHECK(stretch_sum / kQueries == Approx(1 / (1 - rho)).epsilon(0.06));
  }
}

}  // namespace
}  // namespace database_cores_test
}  // namespace drainsim::model
