// Time to empty: a backlog worked off with and without arrivals, and the exact deterministic
// drain.
//
// time_to_quiet_s is the instant after which the queues stay empty, not the first instant they
// empty: with arrivals continuing it is reset by every later arrival. So the M/M/1 drain with
// arrivals reads its first emptiness off the sampled series instead (the first sample with
// nothing ready and nothing in flight), and the pure drains, where the two coincide, use
// time_to_quiet_s.
#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>
#include <string>

#include "sim/model/simulation.h"
#include "tests/validation/replicate.h"
#include "tests/validation/theory.h"

namespace drainsim::validation {
namespace {

constexpr double kServiceMeanMs = 100;
constexpr double kMuPerS = 1e3 / kServiceMeanMs;

// M/M/1 from n = 2000 with lambda = 5, mu = 10 per s: mean n / (mu - lambda) = 400 s. The
// first empty sample comes at most one sample period after the first emptiness, unless the
// first idle period (mean 1 / lambda = 0.2 s) falls between two samples: with a period of
// 0.02 s that happens with probability about lambda * period / 2 = 5% and then costs about one
// more busy cycle (1 / (mu - lambda) + 1 / lambda = 0.4 s). The bias is therefore about
// 0.01 + 0.05 * 0.4 = 0.03 s, 1e-4 of the mean, against a CI half-width of about 1.5%.
void CheckMm1TimeToEmpty(int replications) {
  constexpr int64_t kBacklog = 2000;
  constexpr double kLambdaPerS = 5;
  constexpr double kSampleEveryS = 0.02;
  QueueScenario q;
  q.name = "validation-mm1-time-to-empty";
  q.lambda_per_s = kLambdaPerS;
  q.service_mean_ms = kServiceMeanMs;
  q.backlog = kBacklog;
  // 520 s is the mean plus 7 standard deviations (sd about 15.5 s).
  q.until_s = 520;
  q.sample_every_s = kSampleEveryS;
  const std::string json = ScenarioJson(q);
  const Eigen::MatrixXd values =
      Replicate(LoadOrFail(json), replications, {[](const model::Results& r) {
                  for (const model::Sample& s : r.series) {
                    if (s.t_s > 0 && s.depth == 0 && s.in_flight == 0) return s.t_s;
                  }
                  FAIL("the queue never emptied before run.until_s");
                  return 0.0;
                }});
  std::ostringstream label;
  label << "M/M/1 from n " << kBacklog << ", lambda " << kLambdaPerS << ", mu " << kMuPerS
        << ": first empty (s) (R " << replications << ")";
  CheckInsideCi(label.str(), Mm1MeanTimeToEmpty_s(kBacklog, kLambdaPerS, kMuPerS), values.col(0),
                json);
}

TEST_CASE("M/M/1 from 2000 messages first empties after n over mu minus lambda",
          "[validation][drain]") {
  CheckMm1TimeToEmpty(30);
}
TEST_CASE("M/M/1 from 2000 messages first empties after n over mu minus lambda, long",
          "[validation][.long]") {
  CheckMm1TimeToEmpty(200);
}

void CheckPureDrain(int64_t backlog, int servers, int replications) {
  QueueScenario q;
  q.name = "validation-pure-drain";
  q.service_mean_ms = kServiceMeanMs;
  q.servers = servers;
  q.backlog = backlog;
  // Far beyond the drain (mean + 50 sd): the run ends by itself once the last message is acked.
  q.until_s = PureDrainMeanTime_s(backlog, servers, kMuPerS) +
              50 * std::sqrt(PureDrainTimeVariance_s2(backlog, servers, kMuPerS));
  const std::string json = ScenarioJson(q);
  const Eigen::MatrixXd values =
      Replicate(LoadOrFail(json), replications, {[&](const model::Results& r) {
                  REQUIRE(r.acked == backlog);
                  REQUIRE(r.time_to_quiet_s.has_value());
                  return *r.time_to_quiet_s;
                }});
  std::ostringstream label;
  label << "pure drain, B " << backlog << ", c " << servers << ", exponential: time (s) (R "
        << replications << ")";
  CheckInsideCi(label.str(), PureDrainMeanTime_s(backlog, servers, kMuPerS), values.col(0), json);
}

TEST_CASE("a pure drain on exponential servers takes its phase-sum mean", "[validation][drain]") {
  CheckPureDrain(2000, 1, 40);
  CheckPureDrain(2000, 4, 40);
  CheckPureDrain(2000, 10, 40);
}
TEST_CASE("a pure drain on exponential servers takes its phase-sum mean, long",
          "[validation][.long]") {
  CheckPureDrain(2000, 1, 400);
  CheckPureDrain(2000, 4, 400);
  CheckPureDrain(2000, 10, 400);
}

TEST_CASE("a pure drain on constant-time servers takes ceil(B over c) x D to the microsecond",
          "[validation][drain]") {
  struct Case {
    int64_t backlog;
    int servers;
    int64_t service_us;
  };
  for (const Case& c : {Case{1000, 7, 37'000}, Case{1000, 1, 1'500}, Case{999, 10, 250'125},
                        Case{2000, 4, 100'000}}) {
    QueueScenario q;
    q.name = "validation-deterministic-drain";
    q.service_mean_ms = static_cast<double>(c.service_us) / 1e3;
    q.exponential_service = false;
    q.servers = c.servers;
    q.backlog = c.backlog;
    q.until_s = 1e6;
    const std::string json = ScenarioJson(q);
    INFO(json);
    const model::Results r = model::RunSimulation(LoadOrFail(json), 1);
    REQUIRE(r.acked == c.backlog);
    REQUIRE(r.time_to_quiet_s.has_value());
    const int64_t expected_us = DeterministicDrainTime_us(c.backlog, c.servers, c.service_us);
    const int64_t quiet_us = std::llround(*r.time_to_quiet_s * 1e6);
    std::ostringstream label;
    label << "pure drain, B " << c.backlog << ", c " << c.servers << ", constant D " << c.service_us
          << " us: time (us)";
    PrintExactRow(label.str(), static_cast<double>(expected_us), static_cast<double>(quiet_us),
                  quiet_us == expected_us);
    CHECK(quiet_us == expected_us);
    CHECK_FALSE(r.reached_until);
  }
}

// MODEL.md: "A run ends ... earlier when no event that could change a message's fate is
// pending." After the last ack nothing can: the run must not wait for stale visibility
// timers (a regression test: it once ended one visibility timeout late).
TEST_CASE("a pure drain run ends at its last ack", "[validation][drain]") {
  QueueScenario q;
  q.name = "validation-deterministic-drain";
  q.service_mean_ms = 100;
  q.exponential_service = false;
  q.servers = 4;
  q.backlog = 2000;
  q.until_s = 1e6;
  const std::string json = ScenarioJson(q);
  INFO(json);
  const model::Results r = model::RunSimulation(LoadOrFail(json), 1);
  REQUIRE(r.time_to_quiet_s.has_value());
  CHECK(std::llround(*r.time_to_quiet_s * 1e6) == 50'000'000);
  // Today: 79.9 s, the last delivery (49.9 s) plus the visibility timeout.
  CHECK(std::llround(r.ended_at_s * 1e6) == 50'000'000);
}

}  // namespace
}  // namespace drainsim::validation
