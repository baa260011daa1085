// M/M/1 and M/M/c: the simulator's waits, sojourns and time-average counts against Erlang C.
//
// Each check runs R replications of T simulated seconds starting empty. The start-up bias of an
// average over a run started empty is about b / T, where b = integral of (E N(t) - L) dt; for
// M/M/1 b = -rho / (mu (1 - rho)^3): -0.4 s at rho 0.5 and -90 s at rho 0.9 (mu = 10 per s), so
// T = 8000 s leaves a relative bias of at most 0.13%, under a tenth of the CI half-width. The
// README has the figures for every configuration.
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "tests/validation/replicate.h"
#include "tests/validation/theory.h"

namespace drainsim::validation {
namespace mmc_test {
namespace {

// Service: exponential with mean 100 ms, mu = 10 per second, in every check.
constexpr double kServiceMeanMs = 100;
constexpr double kMuPerS = 1e3 / kServiceMeanMs;
constexpr int kReplicationsDefault = 30;
constexpr int kReplicationsLong = 40;

std::string Label(int servers, double rho, int replications, double until_s) {
  std::ostringstream out;
  out << "M/M/" << servers << " rho " << rho << " (R " << replications << ", T " << until_s
      << " s)";
  return out.str();
}

void CheckMmc(int servers, double rho, int replications, double until_s) {
  const MmcQueue queue{rho * servers * kMuPerS, kMuPerS, servers};
  QueueScenario q;
  q.name = "validation-mmc";
  q.lambda_per_s = queue.lambda_per_s;
  q.service_mean_ms = kServiceMeanMs;
  q.servers = servers;
  q.until_s = until_s;
  const std::string json = ScenarioJson(q);
  const Eigen::MatrixXd values =
      Replicate(LoadOrFail(json), replications,
                {
                    [](const model::Results& r) {
                      return 1 - static_cast<double>(CountZeros(r.queue_wait_us)) /
                                     static_cast<double>(r.queue_wait_us.count());
                    },
                    [](const model::Results& r) { return r.queue_wait_us.Mean() / 1e6; },
                    [](const model::Results& r) { return r.message_latency_us.Mean() / 1e6; },
                    [](const model::Results& r) { return r.ready_mean; },
                    [](const model::Results& r) { return r.in_system_mean; },
                });
  const std::string label = Label(servers, rho, replications, until_s);
  CheckInsideCi(label + ": P(wait)", ErlangC(queue), values.col(0), json);
  CheckInsideCi(label + ": Wq (s)", MeanWaitInQueue_s(queue), values.col(1), json);
  CheckInsideCi(label + ": W (s)", MeanSojourn_s(queue), values.col(2), json);
  CheckInsideCi(label + ": Lq", MeanInQueue(queue), values.col(3), json);
  CheckInsideCi(label + ": L", MeanInSystem(queue), values.col(4), json);
}

TEST_CASE("M/M/1 at rho 0.5 matches P(wait), Wq, W, Lq and L", "[validation][mm1]") {
  CheckMmc(1, 0.5, kReplicationsDefault, 4000);
}
TEST_CASE("M/M/1 at rho 0.5 matches P(wait), Wq, W, Lq and L, long", "[validation][.long]") {
  CheckMmc(1, 0.5, kReplicationsLong, 40000);
}

TEST_CASE("M/M/1 at rho 0.9 matches P(wait), Wq, W, Lq and L", "[validation][mm1]") {
  CheckMmc(1, 0.9, kReplicationsDefault, 8000);
}
TEST_CASE("M/M/1 at rho 0.9 matches P(wait), Wq, W, Lq and L, long", "[validation][.long]") {
  CheckMmc(1, 0.9, kReplicationsLong, 80000);
}

TEST_CASE("M/M/4 at rho 0.7 matches P(wait), Wq, W, Lq and L", "[validation][mmc]") {
  CheckMmc(4, 0.7, kReplicationsDefault, 2000);
}
TEST_CASE("M/M/4 at rho 0.7 matches P(wait), Wq, W, Lq and L, long", "[validation][.long]") {
  CheckMmc(4, 0.7, kReplicationsLong, 20000);
}

TEST_CASE("M/M/4 at rho 0.9 matches P(wait), Wq, W, Lq and L", "[validation][mmc]") {
  CheckMmc(4, 0.9, kReplicationsDefault, 4000);
}
TEST_CASE("M/M/4 at rho 0.9 matches P(wait), Wq, W, Lq and L, long", "[validation][.long]") {
  CheckMmc(4, 0.9, kReplicationsLong, 40000);
}

TEST_CASE("M/M/10 at rho 0.7 matches P(wait), Wq, W, Lq and L", "[validation][mmc]") {
  CheckMmc(10, 0.7, kReplicationsDefault, 1000);
}
TEST_CASE("M/M/10 at rho 0.7 matches P(wait), Wq, W, Lq and L, long", "[validation][.long]") {
  CheckMmc(10, 0.7, kReplicationsLong, 10000);
}

TEST_CASE("M/M/10 at rho 0.9 matches P(wait), Wq, W, Lq and L", "[validation][mmc]") {
  CheckMmc(10, 0.9, kReplicationsDefault, 2000);
}
TEST_CASE("M/M/10 at rho 0.9 matches P(wait), Wq, W, Lq and L, long", "[validation][.long]") {
  CheckMmc(10, 0.9, kReplicationsLong, 20000);
}

}  // namespace
}  // namespace mmc_test
}  // namespace drainsim::validation
