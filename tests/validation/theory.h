// Exact results of queueing theory that the validation suite compares the simulator with.
//
// Everything here is a closed form or the solution of a small linear system, computed in double
// precision; nothing is simulated. Rates are per second, times in seconds, unless a name says
// otherwise (`_us`). The formulas are textbook (Kleinrock, Queueing Systems vol. 1; Gross and
// Harris, Fundamentals of Queueing Theory): each function names the one it implements.
//
// Invariants (checked by theory_test.cc):
//  (1) c = 1 reduces M/M/c to M/M/1: ErlangC = rho, Wq = rho / (mu - lambda).
//  (2) Little's law holds between the figures: L = lambda * W, Lq = lambda * Wq.
//  (3) The M/M/c/K distribution from the generator (MmckStationaryByCtmc) equals the closed
//      form (MmckStationaryClosedForm), and tends to M/M/c as K grows.
//
// Thread-safety: pure functions.
#pragma once

#include <Eigen/Dense>
#include <cstdint>

namespace drainsim::validation {

// An M/M/c queue: Poisson arrivals at lambda_per_s, c servers with exponential service at
// mu_per_s each, FIFO, unlimited waiting room.
struct MmcQueue {
  double lambda_per_s = 0;
  double mu_per_s = 0;
  int servers = 1;
};

// rho = lambda / (c mu), the utilisation of each server.
double Utilisation(const MmcQueue& q);

// Erlang C: the probability that an arrival waits (all c servers busy), computed through the
// Erlang B recursion B(k) = a B(k-1) / (k + a B(k-1)), a = lambda / mu, which never forms a^c/c!
// and so stays accurate for large c; then C = c B / (c - a (1 - B)).
// REQUIRES: lambda > 0, mu > 0, servers >= 1, rho < 1
double ErlangC(const MmcQueue& q);

// Wq = C / (c mu - lambda): mean wait in the queue, per arrival.
double MeanWaitInQueue_s(const MmcQueue& q);
// W = Wq + 1 / mu: mean time in the system (sojourn), per arrival.
double MeanSojourn_s(const MmcQueue& q);
// Lq = lambda Wq and L = lambda W (Little's law): time-average numbers waiting and in system.
double MeanInQueue(const MmcQueue& q);
double MeanInSystem(const MmcQueue& q);

// M/D/1 (Pollaczek-Khinchine with zero service variance): Wq = rho / (2 mu (1 - rho)), where
// the service time is exactly service_s = 1 / mu.
// REQUIRES: lambda > 0, service_s > 0, lambda * service_s < 1
double Md1MeanWaitInQueue_s(double lambda_per_s, double service_s);

// M/M/c/K (at most K in the system, arrivals finding it full are lost): the stationary
// distribution pi(0..K) obtained by building the generator Q of the birth-death chain
// (birth lambda below K, death min(n, c) mu) and solving pi Q = 0 with sum(pi) = 1: one balance
// equation is redundant and is replaced by the normalisation, and the system is solved by LU
// with full pivoting.
// REQUIRES: lambda > 0, mu > 0, 1 <= servers <= capacity, capacity <= 5000 (dense solve)
Eigen::VectorXd MmckStationaryByCtmc(const MmcQueue& q, int capacity);
// The same distribution in closed form: pi(n) proportional to a^n / n! for n <= c and to
// a^c / c! rho^(n - c) above (computed by ratios, normalised at the end).
Eigen::VectorXd MmckStationaryClosedForm(const MmcQueue& q, int capacity);
// The mean of a distribution over 0..K.
double MeanOf(const Eigen::VectorXd& pi);

// M/M/1 starting with n in the system, arrivals continuing: the mean time until the system
// first empties, n / (mu - lambda) (n independent busy periods, each of mean 1 / (mu - lambda)).
// REQUIRES: n >= 1, 0 < lambda < mu
double Mm1MeanTimeToEmpty_s(int64_t n, double lambda_per_s, double mu_per_s);

// A pure drain (no arrivals) of B messages on c exponential servers: c busy until c - 1 are
// left, (B - c + 1) completions at rate c mu; then k = c - 1 .. 1 busy, one completion each at
// rate k mu. Mean (B - c + 1) / (c mu) + sum_{k=1}^{c-1} 1 / (k mu).
// REQUIRES: backlog >= servers >= 1, mu > 0
double PureDrainMeanTime_s(int64_t backlog, int servers, double mu_per_s);
// Its variance: the phases are independent exponentials, (B - c + 1) / (c mu)^2 +
// sum_{k=1}^{c-1} 1 / (k mu)^2. Used to size the check, not in the assertion.
double PureDrainTimeVariance_s2(int64_t backlog, int servers, double mu_per_s);

// A pure drain of B messages on c servers with a constant service time of D: ceil(B / c)
// rounds of D, exactly.
// REQUIRES: backlog >= 1, servers >= 1, service_us >= 0
int64_t DeterministicDrainTime_us(int64_t backlog, int servers, int64_t service_us);

}  // namespace drainsim::validation
