// The theory and the statistics the validation relies on, checked against independent forms:
// closed forms against recursions, the CTMC solver against the product form, the t table
// against a numerical integration of Student's density.
#include "tests/validation/theory.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>

#include "sim/model/histogram.h"
#include "tests/validation/replicate.h"
#include "tests/validation/stats.h"

namespace drainsim::validation {
namespace theory_test {
namespace {

// Erlang C straight from its definition, with a^k / k! formed term by term (fine for small c).
double ErlangCByDefinition(const MmcQueue& q) {
  const double a = q.lambda_per_s / q.mu_per_s;
  const int c = q.servers;
  double term = 1;  // a^k / k!
  double below = 0;
  for (int k = 0; k < c; ++k) {
    below += term;
    term *= a / (k + 1);
  }
  const double top = term * c / (c - a);  // a^c / c! * c / (c - a)
  return top / (below + top);
}

TEST_CASE("Erlang C reduces to M/M/1 and matches its definition", "[validation][theory]") {
  const MmcQueue mm1{9, 10, 1};
  CHECK(ErlangC(mm1) == Approx(0.9).epsilon(1e-14));
  CHECK(MeanWaitInQueue_s(mm1) == Approx(0.9 / (10 - 9)).epsilon(1e-14));
  CHECK(MeanInSystem(mm1) == Approx(0.9 / (1 - 0.9)).epsilon(1e-13));
  CHECK(ErlangC(MmcQueue{1, 1, 2}) == Approx(1.0 / 3).epsilon(1e-14));
  for (int c : {2, 4, 10, 20}) {
    for (double rho : {0.1, 0.5, 0.7, 0.9, 0.99}) {
      const MmcQueue q{rho * c * 10, 10, c};
      INFO("c " << c << ", rho " << rho);
      CHECK(ErlangC(q) == Approx(ErlangCByDefinition(q)).epsilon(1e-12));
      // Little's law ties the four figures together.
      CHECK(MeanInSystem(q) == Approx(q.lambda_per_s * MeanSojourn_s(q)).epsilon(1e-14));
      // Lq is tiny at low load: the difference L - a cancels, so the margin is absolute.
      CHECK(MeanInQueue(q) == Approx(MeanInSystem(q) - rho * c).epsilon(1e-12).margin(1e-12));
    }
  }
}

TEST_CASE("M/D/1 waits half as long as M/M/1", "[validation][theory]") {
  CHECK(Md1MeanWaitInQueue_s(8, 0.1) == Approx(0.2).epsilon(1e-14));
  CHECK(Md1MeanWaitInQueue_s(8, 0.1) ==
        Approx(MeanWaitInQueue_s(MmcQueue{8, 10, 1}) / 2).epsilon(1e-14));
}

TEST_CASE("the M/M/c/K CTMC solution matches the product form", "[validation][theory]") {
  for (int c : {1, 3, 10}) {
    for (int capacity : {c, c + 1, 25, 200}) {
      for (double lambda : {2.0, 25.0, 120.0}) {  // under, near and over capacity
        const MmcQueue q{lambda, 10, c};
        INFO("c " << c << ", K " << capacity << ", lambda " << lambda);
        const Eigen::VectorXd by_ctmc = MmckStationaryByCtmc(q, capacity);
        const Eigen::VectorXd closed = MmckStationaryClosedForm(q, capacity);
        CHECK((by_ctmc - closed).cwiseAbs().maxCoeff() < 1e-12);
        CHECK((by_ctmc.array() >= -1e-15).all());
      }
    }
  }
  SECTION("M/M/1/K: pi(n) = (1 - rho) rho^n / (1 - rho^(K+1))") {
    const double rho = 0.8;
    const Eigen::VectorXd pi = MmckStationaryByCtmc(MmcQueue{8, 10, 1}, 12);
    for (int n = 0; n <= 12; ++n) {
      CHECK(pi(n) == Approx((1 - rho) * std::pow(rho, n) / (1 - std::pow(rho, 13))).epsilon(1e-12));
    }
  }
  SECTION("K = c is Erlang's loss system: the blocking probability is Erlang B") {
    // a = 5 erlangs on 5 servers: B = (5^5 / 5!) / sum_{k<=5} 5^k / k! = 26.0417 / 91.4167.
    const Eigen::VectorXd pi = MmckStationaryByCtmc(MmcQueue{50, 10, 5}, 5);
    CHECK(pi(5) == Approx(26.041666666666668 / 91.416666666666671).epsilon(1e-12));
  }
  SECTION("a large K tends to M/M/c") {
    const MmcQueue q{36, 10, 4};
    const Eigen::VectorXd pi = MmckStationaryByCtmc(q, 600);
    CHECK(MeanOf(pi) == Approx(MeanInSystem(q)).epsilon(1e-9));
    CHECK(pi.tail(pi.size() - 4).sum() == Approx(ErlangC(q)).epsilon(1e-9));
  }
}

TEST_CASE("drain formulas", "[validation][theory]") {
  CHECK(Mm1MeanTimeToEmpty_s(2000, 5, 10) == Approx(400).epsilon(1e-15));
  CHECK(PureDrainMeanTime_s(2000, 1, 10) == Approx(200).epsilon(1e-15));
  CHECK(PureDrainTimeVariance_s2(2000, 1, 10) == Approx(20).epsilon(1e-15));
  // Four servers: 1997 completions at 40/s, then 3, 2 and 1 busy.
  CHECK(PureDrainMeanTime_s(2000, 4, 10) ==
        Approx(1997.0 / 40 + 1.0 / 30 + 1.0 / 20 + 1.0 / 10).epsilon(1e-15));
  CHECK(PureDrainMeanTime_s(4, 4, 10) == Approx(1.0 / 40 + 1.0 / 30 + 1.0 / 20 + 1.0 / 10));
  CHECK(DeterministicDrainTime_us(1000, 7, 37'000) == 143 * 37'000);
  CHECK(DeterministicDrainTime_us(7, 7, 5) == 5);
  CHECK(DeterministicDrainTime_us(8, 7, 5) == 10);
}

// P(|T| <= t) for Student's t with df degrees of freedom, by Simpson's rule on [0, t].
double CentralProbability(double t, double df) {
  auto density = [df](double x) {
    return std::exp(std::lgamma((df + 1) / 2) - std::lgamma(df / 2) -
                    0.5 * std::log(df * std::numbers::pi) - (df + 1) / 2 * std::log1p(x * x / df));
  };
  constexpr int kIntervals = 20000;  // even
  const double h = t / kIntervals;
  double sum = density(0) + density(t);
  for (int i = 1; i < kIntervals; ++i) sum += (i % 2 == 1 ? 4 : 2) * density(i * h);
  return 2 * sum * h / 3;
}

// t(0.975, df) for df = 1..40 from the standard tables (7 decimals).
constexpr double kStudentT975Table[40] = {
    12.7062047, 4.3026527, 3.1824463, 2.7764451, 2.5705818, 2.4469119, 2.3646243, 2.3060041,
    2.2621572,  2.2281389, 2.2009852, 2.1788128, 2.1603687, 2.1447867, 2.1314495, 2.1199053,
    2.1098156,  2.1009220, 2.0930241, 2.0859634, 2.0796138, 2.0738731, 2.0686576, 2.0638986,
    2.0595386,  2.0555294, 2.0518305, 2.0484071, 2.0452296, 2.0422725, 2.0395134, 2.0369333,
    2.0345153,  2.0322445, 2.0301079, 2.0280940, 2.0261925, 2.0243942, 2.0226909, 2.0210754,
};

TEST_CASE("the Student t quantile matches the table, closed forms and the density",
          "[validation][stats]") {
  for (int df = 1; df <= 40; ++df) {
    INFO("df " << df);
    CHECK(StudentTQuantile(0.975, df) == Approx(kStudentT975Table[df - 1]).margin(5.1e-8));
  }
  for (double p : {0.5, 0.6, 0.975, 0.995, 0.999375}) {
    INFO("p " << p);
    // df 1 is Cauchy, df 2 has the closed form (2p - 1) / sqrt(2 p (1 - p)).
    CHECK(StudentTQuantile(p, 1) ==
          Approx(std::tan(std::numbers::pi * (p - 0.5))).epsilon(1e-11).margin(1e-12));
    CHECK(StudentTQuantile(p, 2) ==
          Approx((2 * p - 1) / std::sqrt(2 * p * (1 - p))).epsilon(1e-11).margin(1e-12));
    for (int df : {3, 29, 39, 1000}) {
      INFO("df " << df);
      CHECK(CentralProbability(StudentTQuantile(p, df), df) == Approx(2 * p - 1).margin(1e-9));
    }
  }
  // Large df tends to the normal.
  // 1.959963984540054 + (z^3 + z) / (4 df) to first order: 2.4e-6 above the normal at 1e6.
  CHECK(StudentTQuantile(0.975, 1'000'000) == Approx(1.959963984540054 + 2.3723e-6).margin(1e-9));
}

TEST_CASE("Summarize: mean, sample sd and the t interval", "[validation][stats]") {
  Eigen::VectorXd values(5);
  values << 1, 2, 3, 4, 5;
  const Summary s = Summarize(values);
  CHECK(s.count == 5);
  CHECK(s.mean == Approx(3).epsilon(1e-15));
  CHECK(s.sd == Approx(std::sqrt(2.5)).epsilon(1e-15));
  CHECK(s.HalfWidth(0.95) == Approx(2.7764451 * std::sqrt(2.5) / std::sqrt(5.0)).epsilon(1e-7));
  CHECK(s.HalfWidth(0.99) > s.HalfWidth(0.95));
  CHECK(s.Contains(1.04, 0.95));
  CHECK_FALSE(s.Contains(1.03, 0.95));
  const Summary flat = Summarize(Eigen::VectorXd::Constant(4, 7.0));
  CHECK(flat.HalfWidth(0.95) == 0);
  CHECK(flat.Contains(7, 0.95));
}

TEST_CASE("CountZeros counts exact zeros in a histogram", "[validation][stats]") {
  model::Histogram h;
  CHECK(CountZeros(h) == 0);
  h.Record(5, 10);
  CHECK(CountZeros(h) == 0);
  h.Record(0, 3);
  CHECK(CountZeros(h) == 3);
  h.Record(1);
  h.Record(123456789, 1000);
  CHECK(CountZeros(h) == 3);
  model::Histogram zeros_only;
  zeros_only.Record(0, 7);
  CHECK(CountZeros(zeros_only) == 7);
}

}  // namespace
}  // namespace theory_test
}  // namespace drainsim::validation
