#include "tests/validation/replicate.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "sim/model/simulation.h"
#include "sim/scenario/load.h"
#include "tests/validation/stats.h"

namespace drainsim::validation {

namespace {

// Shortest text that reads back as the same double.
std::string Number(double value) {
  std::ostringstream out;
  out << std::setprecision(17) << value;
  return out.str();
}

// Four significant digits, for the table.
std::string Short(double value) {
  std::ostringstream out;
  out << std::setprecision(4) << value;
  return out.str();
}

}  // namespace

std::string ScenarioJson(const QueueScenario& q) {
  const std::string service =
      q.exponential_service ? R"({"exponential": {"mean": )" + Number(q.service_mean_ms) + "}}"
                            : R"({"constant": )" + Number(q.service_mean_ms) + "}";
  const double sample_every_s = q.sample_every_s > 0 ? q.sample_every_s : q.until_s;
  std::string json = R"({"format_version": 1, "name": ")" + q.name + R"(",
  "run": {"until_s": )" +
                     Number(q.until_s) + R"(, "sample_every_s": )" + Number(sample_every_s) + R"(},
  "kinds": {"job": {"handler": {)" +
                     (q.database_cores ? R"("db_ops": 1, "db_op_ms": )" : R"("cpu_ms": )") +
                     service + R"(}}},
)";
  if (q.database_cores) {
    json += R"(  "database": {"connections": )" + std::to_string(q.servers) +
            R"(, "timeout_ms": 86400000, "overload_factor": 0, "cores": )" +
            Number(*q.database_cores) + "},\n";
  }
  if (q.lambda_per_s > 0) {
    json += R"(  "producers": [{"kind": "job", "poisson": {"rate_per_s": )" +
            Number(q.lambda_per_s) + "}}],\n";
  }
  if (q.backlog > 0) {
    json += R"(  "backlog": [{"where": "main", "kind": "job", "count": )" +
            std::to_string(q.backlog) + "}],\n";
  }
  if (q.max_length) {
    json += R"(  "broker": {"max_length": )" + std::to_string(*q.max_length) +
            R"(, "overflow": "reject_publish"},)" + "\n";
  }
  json += R"(  "workers": {"count": )" + std::to_string(q.servers) +
          R"(, "prefetch": 1, "concurrency": 1}})";
  return json;
}

config::Scenario LoadOrFail(const std::string& json) {
  scenario::LoadResult loaded = scenario::LoadScenarioText(json);
  for (const auto& problem : loaded.problems) {
    UNSCOPED_INFO(scenario::FormatProblem("<validation scenario>", problem));
  }
  INFO(json);
  REQUIRE(loaded.ok());
  return *loaded.scenario;
}

Eigen::MatrixXd Replicate(const config::Scenario& scenario, int replications,
                          const std::vector<Metric>& metrics) {
  REQUIRE(replications >= 2);
  Eigen::MatrixXd values(replications, static_cast<Eigen::Index>(metrics.size()));
  for (int run = 0; run < replications; ++run) {
    const uint64_t seed = static_cast<uint64_t>(run) + 1;
    const model::Results r = model::RunSimulation(scenario, seed);
    INFO("seed " << seed);
    REQUIRE(r.lost == 0);
    REQUIRE_FALSE(r.events_max_reached);
    for (size_t m = 0; m < metrics.size(); ++m) {
      values(run, static_cast<Eigen::Index>(m)) = metrics[m](r);
    }
  }
  return values;
}

int64_t CountZeros(const model::Histogram& histogram) {
  if (histogram.empty() || histogram.min() > 0) return 0;
  const int64_t count = histogram.count();
  // p = (r - 0.5) / count makes ceil(p * count) == r despite rounding.
  auto value_at_rank = [&](int64_t rank) {
    return histogram.Quantile((static_cast<double>(rank) - 0.5) / static_cast<double>(count));
  };
  // Invariant: the value at rank `low` is 0; every rank above `high` has a value > 0.
  int64_t low = 1;
  int64_t high = count;
  while (low < high) {
    const int64_t middle = low + (high - low + 1) / 2;
    if (value_at_rank(middle) == 0) {
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  return low;
}

void CheckInsideCi(const std::string& check, double theory, const Eigen::VectorXd& values,
                   const std::string& scenario_json) {
  const Summary s = Summarize(values);
  const double half_width = s.HalfWidth(kLevelReported);
  const bool inside_reported = s.Contains(theory, kLevelReported);
  const bool pass = s.Contains(theory, kLevelAsserted);
  std::cout << "| " << check << " | " << Short(theory) << " | " << Short(s.mean) << " | ["
            << Short(s.mean - half_width) << ", " << Short(s.mean + half_width) << "] | "
            << std::fixed << std::setprecision(2) << 100 * half_width / std::abs(s.mean) << "% | "
            << std::defaultfloat << (inside_reported ? "yes" : "no") << " | "
            << (pass ? "yes" : "**NO**") << " |\n";
  INFO(check << ": theory " << Number(theory) << ", simulated mean " << Number(s.mean) << " over "
             << s.count << " replications (seeds 1.." << s.count << "), standard error "
             << Number(s.StandardError()) << ", " << 100 * kLevelAsserted << "% interval +- "
             << Number(s.HalfWidth(kLevelAsserted)));
  INFO(
      "reproduce one replication: save the scenario below as x.json, then "
      "drainsim run x.json --seed N\n"
      << scenario_json);
  CHECK(pass);
}

void PrintExactRow(const std::string& check, double theory, double simulated, bool pass) {
  std::cout << "| " << check << " | " << Number(theory) << " | " << Number(simulated)
            << " | exact (one run) | 0 | " << (pass ? "yes" : "no") << " | "
            << (pass ? "yes" : "**NO**") << " |\n";
}

}  // namespace drainsim::validation
