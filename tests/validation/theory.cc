#include "tests/validation/theory.h"

#include <algorithm>

#include "sim/base/check.h"

namespace drainsim::validation {

namespace {

void CheckStable(const MmcQueue& q) {
  DRAINSIM_CHECK(q.lambda_per_s > 0);
  DRAINSIM_CHECK(q.mu_per_s > 0);
  DRAINSIM_CHECK(q.servers >= 1);
  DRAINSIM_CHECK(Utilisation(q) < 1);
}

}  // namespace

double Utilisation(const MmcQueue& q) {
  return q.lambda_per_s / (static_cast<double>(q.servers) * q.mu_per_s);
}

double ErlangC(const MmcQueue& q) {
  CheckStable(q);
  const double a = q.lambda_per_s / q.mu_per_s;  // offered load in erlangs
  double erlang_b = 1;                           // B(0): no server, every arrival blocked
  for (int k = 1; k <= q.servers; ++k) erlang_b = a * erlang_b / (k + a * erlang_b);
  const double c = q.servers;
  return c * erlang_b / (c - a * (1 - erlang_b));
}

double MeanWaitInQueue_s(const MmcQueue& q) {
  CheckStable(q);
  return ErlangC(q) / (q.servers * q.mu_per_s - q.lambda_per_s);
}

double MeanSojourn_s(const MmcQueue& q) { return MeanWaitInQueue_s(q) + 1 / q.mu_per_s; }

double MeanInQueue(const MmcQueue& q) { return q.lambda_per_s * MeanWaitInQueue_s(q); }

double MeanInSystem(const MmcQueue& q) { return q.lambda_per_s * MeanSojourn_s(q); }

double Md1MeanWaitInQueue_s(double lambda_per_s, double service_s) {
  DRAINSIM_CHECK(lambda_per_s > 0);
  DRAINSIM_CHECK(service_s > 0);
  const double rho = lambda_per_s * service_s;
  DRAINSIM_CHECK(rho < 1);
  const double mu = 1 / service_s;
  return rho / (2 * mu * (1 - rho));
}

Eigen::VectorXd MmckStationaryByCtmc(const MmcQueue& q, int capacity) {
  DRAINSIM_CHECK(q.lambda_per_s > 0);
  DRAINSIM_CHECK(q.mu_per_s > 0);
  DRAINSIM_CHECK(q.servers >= 1);
  DRAINSIM_CHECK(q.servers <= capacity);
  DRAINSIM_CHECK(capacity <= 5000);
  const int states = capacity + 1;
  // The generator: Q(n, n+1) = lambda, Q(n, n-1) = min(n, c) mu, rows summing to zero.
  Eigen::MatrixXd generator = Eigen::MatrixXd::Zero(states, states);
  for (int n = 0; n < states; ++n) {
    if (n < capacity) generator(n, n + 1) = q.lambda_per_s;
    if (n > 0) generator(n, n - 1) = std::min(n, q.servers) * q.mu_per_s;
    generator(n, n) = -generator.row(n).sum();
  }
  // pi Q = 0 is Q^T pi^T = 0; its rank is K, so the last equation is replaced by sum(pi) = 1.
  Eigen::MatrixXd system = generator.transpose();
  system.row(states - 1).setOnes();
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(states);
  rhs(states - 1) = 1;
  Eigen::VectorXd pi = system.fullPivLu().solve(rhs);
  // The solution is a distribution: the balance equations hold and the mass adds up.
  DRAINSIM_CHECK((pi.transpose() * generator).cwiseAbs().maxCoeff() <=
                 1e-9 * q.lambda_per_s + 1e-9 * q.servers * q.mu_per_s);
  DRAINSIM_CHECK(std::abs(pi.sum() - 1) < 1e-12);
  return pi;
}

Eigen::VectorXd MmckStationaryClosedForm(const MmcQueue& q, int capacity) {
  DRAINSIM_CHECK(q.lambda_per_s > 0);
  DRAINSIM_CHECK(q.mu_per_s > 0);
  DRAINSIM_CHECK(q.servers >= 1);
  DRAINSIM_CHECK(q.servers <= capacity);
  Eigen::VectorXd pi(capacity + 1);
  pi(0) = 1;
  // pi(n) / pi(n-1) = lambda / (min(n, c) mu): the cut equations of the birth-death chain.
  for (int n = 1; n <= capacity; ++n) {
    pi(n) = pi(n - 1) * q.lambda_per_s / (std::min(n, q.servers) * q.mu_per_s);
  }
  return pi / pi.sum();
}

double MeanOf(const Eigen::VectorXd& pi) {
  const Eigen::VectorXd n = Eigen::VectorXd::LinSpaced(pi.size(), 0, pi.size() - 1);
  return pi.dot(n);
}

double Mm1MeanTimeToEmpty_s(int64_t n, double lambda_per_s, double mu_per_s) {
  DRAINSIM_CHECK(n >= 1);
  DRAINSIM_CHECK(lambda_per_s > 0);
  DRAINSIM_CHECK(lambda_per_s < mu_per_s);
  return static_cast<double>(n) / (mu_per_s - lambda_per_s);
}

double PureDrainMeanTime_s(int64_t backlog, int servers, double mu_per_s) {
  DRAINSIM_CHECK(servers >= 1);
  DRAINSIM_CHECK(backlog >= servers);
  DRAINSIM_CHECK(mu_per_s > 0);
  double mean_s = static_cast<double>(backlog - servers + 1) / (servers * mu_per_s);
  for (int k = 1; k < servers; ++k) mean_s += 1 / (k * mu_per_s);
  return mean_s;
}

double PureDrainTimeVariance_s2(int64_t backlog, int servers, double mu_per_s) {
  DRAINSIM_CHECK(servers >= 1);
  DRAINSIM_CHECK(backlog >= servers);
  DRAINSIM_CHECK(mu_per_s > 0);
  const double full_rate = servers * mu_per_s;
  double variance_s2 = static_cast<double>(backlog - servers + 1) / (full_rate * full_rate);
  for (int k = 1; k < servers; ++k) variance_s2 += 1 / ((k * mu_per_s) * (k * mu_per_s));
  return variance_s2;
}

int64_t DeterministicDrainTime_us(int64_t backlog, int servers, int64_t service_us) {
  DRAINSIM_CHECK(backlog >= 1);
  DRAINSIM_CHECK(servers >= 1);
  DRAINSIM_CHECK(service_us >= 0);
  const int64_t rounds = (backlog + servers - 1) / servers;
  return rounds * service_us;
}

}  // namespace drainsim::validation
