// A handler's cpu_ms in each distribution family a scenario can state, through the loader and
// a whole run: the message latencies the run measures have the distribution's mean and
// quantiles, within statistical bounds. Arrivals are paced and workers plenty, so nothing waits
// (checked) and a message's latency is exactly its one draw.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace durations_test {
namespace {

using testing::CheckConserved;
using testing::LoadOrFail;

constexpr double kZ90 = 1.2815515655446004;      // the standard normal's 0.9 quantile
constexpr double kPhi0 = 0.3989422804014327;     // its density at 0
constexpr double kPhiZ90 = 0.17549833193248685;  // ... and at kZ90

// 4000 messages, one every 50 ms, on 10 single-slot workers; cpu_ms is `dist`.
Results RunWith(const std::string& dist) {
  const config::Scenario s = LoadOrFail(R"({"format_version": 1, "name": "durations",
    "run": {"until_s": 400},
    "kinds": {"job": {"handler": {"cpu_ms": )" +
                                        dist + R"(}}},
    "producers": [{"kind": "job", "constant": {"rate_per_s": 20, "until_s": 200}}],
    "workers": {"count": 10, "prefetch": 1}})");
  const Results r = RunSimulation(s, 7);
  CheckConserved(r);
  REQUIRE(r.acked == 4000);
  CHECK(r.queue_wait_us.max() == 0);  // nothing waited: latency is the handler's time
  return r;
}

double MeanMs(const Results& r) { return r.message_latency_us.Mean() / 1000; }
double QuantileMs(const Results& r, double p) {
  return static_cast<double>(r.message_latency_us.Quantile(p)) / 1000;
}

// The sample mean of n draws is within 5 standard errors of `mean`.
void CheckMean(const Results& r, double mean, double sd) {
  const double n = static_cast<double>(r.message_latency_us.count());
  CHECK(MeanMs(r) == Approx(mean).margin(5 * sd / std::sqrt(n)));
}

// The sample p-quantile is within 5 standard errors of `q` (asymptotic standard error
// sqrt(p (1 - p) / n) / density(q)), plus the histogram's 1/256 relative bucketing.
void CheckQuantile(const Results& r, double p, double q, double density_at_q) {
  const double n = static_cast<double>(r.message_latency_us.count());
  const double se = std::sqrt(p * (1 - p) / n) / density_at_q;
  INFO("p " << p);
  CHECK(QuantileMs(r, p) == Approx(q).margin(5 * se + q / 256));
}

TEST_CASE("durations: constant is exact (the control: latency is the draw)", "[model][durations]") {
  const Results r = RunWith(R"({"constant": 12.5})");
  CHECK(r.message_latency_us.min() == 12500);
  CHECK(r.message_latency_us.max() == 12500);
}

TEST_CASE("durations: lognormal given as mu and sigma", "[model][durations]") {
  const double mu = std::log(10.0);
  const double sigma = 0.5;
  const Results r = RunWith(R"({"lognormal": {"mu": 2.302585092994046, "sigma": 0.5}})");
  const double mean = std::exp(mu + sigma * sigma / 2);  // 11.33 ms
  CheckMean(r, mean, mean * std::sqrt(std::exp(sigma * sigma) - 1));
  CheckQuantile(r, 0.5, 10, kPhi0 / (10 * sigma));
  const double q90 = std::exp(mu + sigma * kZ90);
  CheckQuantile(r, 0.9, q90, kPhiZ90 / (q90 * sigma));
}

TEST_CASE("durations: lognormal given as median and p99 has that median", "[model][durations]") {
  const Results r = RunWith(R"({"lognormal": {"median": 8, "p99": 60}})");
  const double sigma = (std::log(60.0) - std::log(8.0)) / 2.3263478740408408;
  CheckQuantile(r, 0.5, 8, kPhi0 / (8 * sigma));
}

TEST_CASE("durations: normal, and normal with sd 0 as a constant", "[model][durations]") {
  const Results r = RunWith(R"({"normal": {"mean": 20, "sd": 5}})");
  // Truncation at 0 is 4 sd away: its effect on the moments is below 1e-4.
  CheckMean(r, 20, 5);
  CheckQuantile(r, 0.5, 20, kPhi0 / 5);
  CheckQuantile(r, 0.9, 20 + 5 * kZ90, kPhiZ90 / 5);
  CHECK(r.message_latency_us.min() > 0);

  const Results flat = RunWith(R"({"normal": {"mean": 20, "sd": 0}})");
  CHECK(flat.message_latency_us.min() == 20000);
  CHECK(flat.message_latency_us.max() == 20000);
}

TEST_CASE("durations: empirical, an atom then linear segments", "[model][durations]") {
  // 3 with probability 0.5, uniform on (3, 10] with 0.4, uniform on (10, 40] with 0.1.
  const Results r = RunWith(R"({"empirical": [[0.5, 3], [0.9, 10], [1.0, 40]]})");
  const double mean = 0.5 * 3 + 0.4 * 6.5 + 0.1 * 25;  // 6.6 ms
  const double second_moment = 0.5 * 9 + 0.4 * (1000.0 - 27) / 21 + 0.1 * 63000.0 / 90;
  CheckMean(r, mean, std::sqrt(second_moment - mean * mean));
  CHECK(QuantileMs(r, 0.25) == Approx(3).epsilon(1.0 / 256));  // inside the atom
  CHECK(r.message_latency_us.min() == 3000);
  CheckQuantile(r, 0.7, 6.5, 0.4 / 7);
  CheckQuantile(r, 0.95, 25, 0.1 / 30);
  CHECK(r.message_latency_us.max() <= 40000);
}

TEST_CASE("durations: uniform and exponential", "[model][durations]") {
  const Results u = RunWith(R"({"uniform": {"low": 5, "high": 15}})");
  CheckMean(u, 10, 10 / std::sqrt(12.0));
  CheckQuantile(u, 0.5, 10, 0.1);
  CHECK(u.message_latency_us.min() >= 5000);
  CHECK(u.message_latency_us.max() <= 15000);
  const Results e = RunWith(R"({"exponential": {"mean": 10}})");
  CheckMean(e, 10, 10);
  CheckQuantile(e, 0.5, 10 * std::log(2.0), 0.5 / 10);
}

}  // namespace
}  // namespace durations_test
}  // namespace drainsim::model
