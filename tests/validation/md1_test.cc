// M/D/1: constant service, where Pollaczek-Khinchine halves the M/M/1 wait.
//
// With service exactly D = 1 / mu: Wq = rho / (2 mu (1 - rho)), W = Wq + D, and by Little's
// law Lq = lambda Wq, L = lambda W; P(wait) = rho (PASTA: an arrival sees the server busy with
// the time-average probability rho).
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "tests/validation/replicate.h"
#include "tests/validation/theory.h"

namespace drainsim::validation {
namespace md1_test {
namespace {

void CheckMd1(double rho, int replications, double until_s) {
  constexpr double kServiceMs = 100;
  const double service_s = kServiceMs / 1e3;
  const double lambda_per_s = rho / service_s;
  QueueScenario q;
  q.name = "validation-md1";
  q.lambda_per_s = lambda_per_s;
  q.service_mean_ms = kServiceMs;
  q.exponential_service = false;
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
  std::ostringstream label;
  label << "M/D/1 rho " << rho << " (R " << replications << ", T " << until_s << " s)";
  const double wq_s = Md1MeanWaitInQueue_s(lambda_per_s, service_s);
  CheckInsideCi(label.str() + ": P(wait)", rho, values.col(0), json);
  CheckInsideCi(label.str() + ": Wq (s)", wq_s, values.col(1), json);
  CheckInsideCi(label.str() + ": W (s)", wq_s + service_s, values.col(2), json);
  CheckInsideCi(label.str() + ": Lq", lambda_per_s * wq_s, values.col(3), json);
  CheckInsideCi(label.str() + ": L", lambda_per_s * (wq_s + service_s), values.col(4), json);
}

TEST_CASE("M/D/1 at rho 0.8 matches Pollaczek-Khinchine", "[validation][md1]") {
  CheckMd1(0.8, 30, 4000);
}
TEST_CASE("M/D/1 at rho 0.8 matches Pollaczek-Khinchine, long", "[validation][.long]") {
  CheckMd1(0.8, 40, 40000);
}

}  // namespace
}  // namespace md1_test
}  // namespace drainsim::validation
