// Running a scenario R times (seeds 1..R) and checking a theoretical value against the 95%
// confidence interval of the replication means.
//
// The scenarios are the JSON a user would write, loaded through the real loader, so the
// validation covers the same path as `drainsim run`; a failing check prints that JSON and the
// seeds, which reproduce any replication with `drainsim run FILE --seed N`.
//
// Every check also prints one Markdown row (check | theory | simulated mean | 95% CI | relative
// half-width | inside the 95% CI | pass) on stdout: tests/validation/README.md's table is that
// output.
//
// Which interval is asserted: each check reports the 95% CI, but a suite of m checks at 95%
// each would fail by chance with probability up to 1 - 0.95^m (87% for m = 40) even for a
// perfect simulator, and any change to the random streams would reshuffle which check fails.
// So the assertion uses the Bonferroni interval: level 1 - 0.05 / kChecksPerSuiteMax per check,
// which keeps the chance of any false failure in a suite below 5%. A theoretical value outside
// the 95% CI but inside the asserted interval is printed as such in the table, never hidden.
//
// Thread-safety: none needed; the tests run one replication after another.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/model/histogram.h"
#include "sim/model/results.h"

namespace drainsim::validation {

// A one-kind queue the way drainsim models an M/M/c, M/D/c or a pure drain: Poisson arrivals
// (if any), `servers` workers with prefetch 1 and concurrency 1 (one server each), a handler that
// is nothing but CPU time, and optionally a backlog ready in the main queue at time 0.
struct QueueScenario {
  std::string name;
  double lambda_per_s = 0;  // 0: no producer
  double service_mean_ms = 0;
  bool exponential_service = true;  // false: exactly service_mean_ms
  int servers = 1;
  int64_t backlog = 0;  // 0: none
  double until_s = 0;
  // Period of the sampled series; 0 samples only at time 0 (the checks that do not read the
  // series should not pay for it).
  double sample_every_s = 0;
  // Waiting places in the main queue (broker.max_length, overflow reject_publish): an M/M/c/K
  // with K = servers + max_length. Unset: unbounded.
  std::optional<int64_t> max_length;
  // The service as a database query instead of CPU: one `db_op_ms` statement on a database
  // of `servers` connections whose running queries share this many CPUs (`database.cores`,
  // processor sharing), overload_factor 0 and a day's timeout. Unset: CPU service.
  std::optional<double> database_cores;
};

std::string ScenarioJson(const QueueScenario& q);

// Loads `json`, failing the current test (with every problem) if it does not load.
config::Scenario LoadOrFail(const std::string& json);

// A figure of one run.
using Metric = std::function<double(const model::Results&)>;

// Runs `scenario` with seeds 1..replications and returns one row per run, one column per
// metric. Fails the test if a run lost a message or hit run.events_max.
// REQUIRES: replications >= 2
Eigen::MatrixXd Replicate(const config::Scenario& scenario, int replications,
                          const std::vector<Metric>& metrics);

// The number of recorded values equal to 0, exactly: values below 2^(k+1) have a bucket each,
// and Quantile by nearest rank returns 0 for rank r iff the r-th smallest value is 0, so a
// binary search over ranks finds the count.
int64_t CountZeros(const model::Histogram& histogram);

// The reported confidence level, and the asserted one (see above).
inline constexpr double kLevelReported = 0.95;
inline constexpr int kChecksPerSuiteMax = 50;
inline constexpr double kLevelAsserted = 1 - (1 - kLevelReported) / kChecksPerSuiteMax;

// CHECKs that `theory` lies inside the kLevelAsserted interval of the mean of `values`, prints the
// table row, and on failure the scenario and how to reproduce it.
void CheckInsideCi(const std::string& check, double theory, const Eigen::VectorXd& values,
                   const std::string& scenario_json);

// Prints a table row for an exact (single-run) comparison.
void PrintExactRow(const std::string& check, double theory, double simulated, bool pass);

}  // namespace drainsim::validation
