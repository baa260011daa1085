// Processor sharing (`database.cores`): the database's running queries share K CPUs, each at
// min(1, K / running). With many workers and connections every message's time in system is its
// query's, so the run is a processor-sharing queue:
//  - M/G/1-PS (K = 1): W = E[S] / (1 - rho) and L = rho / (1 - rho) for any service
//    distribution (Kleinrock). Constant service tells it from first-come-first-served, whose
//    M/D/1 gives W = E[S] + rho E[S] / (2 (1 - rho)): 0.3 s against PS's 0.5 s at rho 0.8.
//  - M/M/K-PS: with exponential work the number in system is the M/M/K birth-death chain
//    (departure rate mu min(n, K)), so L and W are Erlang C's.
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "tests/validation/replicate.h"
#include "tests/validation/theory.h"

namespace drainsim::validation {
namespace ps_test {
namespace {

constexpr double kServiceMs = 100;  // mu = 10 per second
constexpr int kWorkers = 100;       // never all busy at these loads: P(N >= 100) < 1e-9

Eigen::MatrixXd RunPs(const QueueScenario& q, int replications) {
  return Replicate(LoadOrFail(ScenarioJson(q)), replications,
                   {
                       [](const model::Results& r) { return r.message_latency_us.Mean() / 1e6; },
                       [](const model::Results& r) { return r.in_system_mean; },
                   });
}

QueueScenario PsScenario(double cores, double lambda_per_s, bool exponential, double until_s) {
  QueueScenario q;
  q.name = "validation-ps";
  q.lambda_per_s = lambda_per_s;
  q.service_mean_ms = kServiceMs;
  q.exponential_service = exponential;
  q.servers = kWorkers;
  q.until_s = until_s;
  q.database_cores = cores;
  return q;
}

void CheckMg1Ps(double rho, bool exponential, int replications, double until_s) {
  const double service_s = kServiceMs / 1e3;
  const QueueScenario q = PsScenario(1, rho / service_s, exponential, until_s);
  const Eigen::MatrixXd values = RunPs(q, replications);
  std::ostringstream label;
  label << "M/" << (exponential ? "M" : "D") << "/1-PS rho " << rho << " (R " << replications
        << ", T " << until_s << " s)";
  CheckInsideCi(label.str() + ": W (s)", service_s / (1 - rho), values.col(0), ScenarioJson(q));
  CheckInsideCi(label.str() + ": L", rho / (1 - rho), values.col(1), ScenarioJson(q));
}

TEST_CASE("M/D/1-PS at rho 0.8: W = E[S] / (1 - rho), not FCFS's", "[validation][ps]") {
  CheckMg1Ps(0.8, false, 30, 4000);
}

TEST_CASE("M/M/1-PS at rho 0.8: W = E[S] / (1 - rho)", "[validation][ps]") {
  CheckMg1Ps(0.8, true, 30, 4000);
}

TEST_CASE("M/M/2-PS at rho 0.7: L and W of the M/M/2 chain (Erlang C)", "[validation][ps]") {
  const MmcQueue queue{0.7 * 2 * 1e3 / kServiceMs, 1e3 / kServiceMs, 2};
  const QueueScenario q = PsScenario(2, queue.lambda_per_s, true, 2000);
  const Eigen::MatrixXd values = RunPs(q, 30);
  const std::string label = "M/M/2-PS rho 0.7 (R 30, T 2000 s)";
  CheckInsideCi(label + ": W (s)", MeanSojourn_s(queue), values.col(0), ScenarioJson(q));
  CheckInsideCi(label + ": L", MeanInSystem(queue), values.col(1), ScenarioJson(q));
}

}  // namespace
}  // namespace ps_test
}  // namespace drainsim::validation
