// Time to empty: a backlog worked off with and without arrivals, and the exact deterministic
// drain.
//
// time_to_quiet_s is the instant after which the queues stay empty, not the first instant they
// empty: with arrivals continuing it is reset by every later arrival. So the M/M/1 drains with
// arrivals check backlog_cleared_s (the first emptiness), and the pure drains, where the two
// coincide, use time_to_quiet_s.
#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>
#include <string>

#include "sim/model/simulation.h"
#include "tests/validation/replicate.h"
#include "tests/validation/theory.h"

namespace drainsim::validation {
namespace drain_test {
namespace {

constexpr double kServiceMeanMs = 100;
constexpr double kMuPerS = 1e3 / kServiceMeanMs;

// M/M/1 from n queued with arrivals at lambda and service at mu: the first time the queue is
// empty has mean n / (mu - lambda) (a first passage of the birth-death chain from n to 0) and
// variance n (mu + lambda) / (mu - lambda)^3. backlog_cleared_s is that instant, exactly.
struct FirstEmptyCase {
  int64_t backlog;
  double lambda_per_s;
  double service_mean_ms;
};

void CheckMm1FirstEmpty(const FirstEmptyCase& c, int replications) {
  const double mu_per_s = 1e3 / c.service_mean_ms;
  const double mean_s = Mm1MeanTimeToEmpty_s(c.backlog, c.lambda_per_s, mu_per_s);
  const double sd_s = std::sqrt(static_cast<double>(c.backlog) * (mu_per_s + c.lambda_per_s) /
                                std::pow(mu_per_s - c.lambda_per_s, 3));
  QueueScenario q;
  q.name = "validation-mm1-backlog-cleared";
  q.lambda_per_s = c.lambda_per_s;
  q.service_mean_ms = c.service_mean_ms;
  q.backlog = c.backlog;
  // The mean plus 10 standard deviations: every replication clears well before the end.
  q.until_s = mean_s + 10 * sd_s;
  const std::string json = ScenarioJson(q);
  const Eigen::MatrixXd values =
      Replicate(LoadOrFail(json), replications, {[](const model::Results& r) {
                  REQUIRE(r.backlog_cleared_s.has_value());
                  return *r.backlog_cleared_s;
                }});
  std::ostringstream label;
  label << "M/M/1 from n " << c.backlog << ", lambda " << c.lambda_per_s << ", mu " << mu_per_s
        << ": backlog_cleared_s (R " << replications << ")";
  CheckInsideCi(label.str(), mean_s, values.col(0), json);
}

// The case: n 40, lambda 0.6, mu 1: mean 100 s (sd 31.6 s).
TEST_CASE("M/M/1 from 40 messages at rho 0.6 clears its backlog after 100 s on average",
          "[validation][drain]") {
  CheckMm1FirstEmpty({40, 0.6, 1000}, 40);
}
TEST_CASE("M/M/1 from 40 messages at rho 0.6 clears its backlog after 100 s on average, long",
          "[validation][.long]") {
  CheckMm1FirstEmpty({40, 0.6, 1000}, 400);
}

// n 2000, lambda 5, mu 10: mean 400 s (sd 15.5 s).
TEST_CASE("M/M/1 from 2000 messages first empties after n over mu minus lambda",
          "[validation][drain]") {
  CheckMm1FirstEmpty({2000, 5, kServiceMeanMs}, 30);
}
TEST_CASE("M/M/1 from 2000 messages first empties after n over mu minus lambda, long",
          "[validation][.long]") {
  CheckMm1FirstEmpty({2000, 5, kServiceMeanMs}, 200);
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
}  // namespace drain_test
}  // namespace drainsim::validation
