// M/M/c/K: a queue with a finite waiting room (broker.max_length with overflow reject_publish)
// against the stationary distribution of its birth-death chain, solved with Eigen.
//
// With prefetch 1 each worker holds at most one message, and a publish is refused only when
// every worker is busy and max_length messages wait, so the system is M/M/c/K with
// K = c + max_length. By PASTA a Poisson arrival finds the system full with probability pi(K):
// the share of publishes refused estimates it. The time-average number in the system
// (in_system_mean) estimates sum n pi(n). The start-up bias of a run started empty is of the
// order of the relaxation time over T (a few seconds over thousands here), far below the CI.
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "tests/validation/replicate.h"
#include "tests/validation/theory.h"

namespace drainsim::validation {
namespace mmck_test {
namespace {

constexpr double kServiceMeanMs = 100;
constexpr double kMuPerS = 1e3 / kServiceMeanMs;

void CheckMmck(int servers, int64_t max_length, double rho, int replications, double until_s) {
  const MmcQueue queue{rho * servers * kMuPerS, kMuPerS, servers};
  const int capacity = servers + static_cast<int>(max_length);
  const Eigen::VectorXd pi = MmckStationaryByCtmc(queue, capacity);
  QueueScenario q;
  q.name = "validation-mmck";
  q.lambda_per_s = queue.lambda_per_s;
  q.service_mean_ms = kServiceMeanMs;
  q.servers = servers;
  q.until_s = until_s;
  q.max_length = max_length;
  const std::string json = ScenarioJson(q);
  const Eigen::MatrixXd values = Replicate(
      LoadOrFail(json), replications,
      {
          [](const model::Results& r) {
            return static_cast<double>(r.rejected) / static_cast<double>(r.published);
          },
          [](const model::Results& r) { return r.in_system_mean; },
      });
  std::ostringstream label;
  label << "M/M/" << servers << "/" << capacity << " rho " << rho << " (R " << replications
        << ", T " << until_s << " s)";
  CheckInsideCi(label.str() + ": P(full) = refused share", pi(capacity), values.col(0), json);
  CheckInsideCi(label.str() + ": L", MeanOf(pi), values.col(1), json);
}

TEST_CASE("M/M/4/7 at rho 0.9: refused share and L match the CTMC", "[validation][mmck]") {
  CheckMmck(4, 3, 0.9, 30, 2000);
}
TEST_CASE("M/M/4/7 at rho 0.9: refused share and L match the CTMC, long", "[validation][.long]") {
  CheckMmck(4, 3, 0.9, 40, 20000);
}

// Overloaded (rho > 1): only the finite room keeps it stable.
TEST_CASE("M/M/1/6 at rho 1.3: refused share and L match the CTMC", "[validation][mmck]") {
  CheckMmck(1, 5, 1.3, 30, 4000);
}
TEST_CASE("M/M/1/6 at rho 1.3: refused share and L match the CTMC, long", "[validation][.long]") {
  CheckMmck(1, 5, 1.3, 40, 40000);
}

// max_length 0: no waiting room at all, the Erlang loss system (pi(K) is Erlang B).
TEST_CASE("M/M/3/3 at rho 0.8: refused share is Erlang B and L matches", "[validation][mmck]") {
  CheckMmck(3, 0, 0.8, 30, 2000);
}
TEST_CASE("M/M/3/3 at rho 0.8: refused share is Erlang B and L matches, long",
          "[validation][.long]") {
  CheckMmck(3, 0, 0.8, 40, 20000);
}

}  // namespace
}  // namespace mmck_test
}  // namespace drainsim::validation
