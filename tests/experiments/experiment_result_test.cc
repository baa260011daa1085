// experiments/experiment_result.h: what an experiment's records say (the sweep's and the
// replications' results) before reports/ renders them, and which runs a shard holds.
#include "experiments/experiment_result.h"

#include <catch2/catch.hpp>
#include <optional>
#include <vector>

#include "experiments/replicate.h"
#include "experiments/seeds.h"

namespace drainsim::experiments {
namespace experiment_result_test {
namespace {

RunRecord Record(uint64_t seed, std::vector<std::optional<double>> values,
                 std::vector<bool> passed = {}, std::vector<std::optional<double>> measured = {}) {
  RunRecord r;
  r.seed = seed;
  r.fingerprint = seed * 7;
  r.values = std::move(values);
  r.passed = std::move(passed);
  r.measured = std::move(measured);
  return r;
}

TEST_CASE("ShardIndices: every run without a shard, every N-th from i - 1 with one",
          "[experiments][result]") {
  CHECK(ShardIndices(4, std::nullopt) == std::vector<int64_t>{0, 1, 2, 3});
  CHECK(ShardIndices(7, Shard{2, 3}) == std::vector<int64_t>{1, 4});
  CHECK(ShardIndices(7, Shard{3, 3}) == std::vector<int64_t>{2, 5});
  CHECK(ShardIndices(0, Shard{1, 2}).empty());
}

TEST_CASE("SweepResultOf: each point's statistics over its own replications",
          "[experiments][result]") {
  Experiment e;
  e.command = "sweep";
  e.replications = 2;
  e.metrics = {{"time_to_empty_s", Better::kLower}, {"acked", Better::kHigher}};
  e.axes = {{"/workers/count", {1, 4}}};
  // Runs 0 and 1 are point 0, runs 2 and 3 point 1 (experiment.h's numbering).
  const std::vector<RunRecord> records = {Record(1, {10.0, 5.0}), Record(2, {std::nullopt, 7.0}),
                                          Record(1, {2.0, 9.0}), Record(2, {4.0, 11.0})};
  const SweepResult result = SweepResultOf(e, records);
  REQUIRE(result.stats.size() == 2);
  REQUIRE(result.stats[0].size() == 2);
  CHECK(result.stats[0][0].count == 1);
  CHECK(result.stats[0][0].undefined == 1);
  CHECK(result.stats[0][0].mean == 10.0);
  CHECK(result.stats[0][1].mean == 6.0);
  CHECK(result.stats[1][0].mean == 3.0);
  CHECK(result.stats[1][1].mean == 10.0);
  // time_to_empty_s may never be reached; acked has nothing to measure when undefined.
  CHECK(result.undefined_means_never == std::vector<bool>{true, false});

  const reports::Rendered out = RenderExperiment(e, records);
  REQUIRE_FALSE(out.files.empty());
  CHECK(out.files.front().name == "sweep.json");
}

TEST_CASE("ReplicationsResultOf: passes, the first failure and its reproduce line",
          "[experiments][result]") {
  Experiment e;
  e.command = "run";
  e.scenario_path = "scenarios/x.json";
  e.base_seed = 42;
  e.replications = 3;
  e.metrics = {{"acked", Better::kHigher}};
  e.expectations = {"acked >= 1", "lost == 0"};
  e.expectation_columns = {{">= 1", "count"}, {"== 0", "count"}};
  const std::vector<RunRecord> records = {Record(11, {1.0}, {true, true}, {1.0, 0.0}),
                                          Record(12, {2.0}, {true, false}, {2.0, 3.0}),
                                          Record(13, {3.0}, {true, false}, {3.0, std::nullopt})};
  const ReplicationsResult r = ReplicationsResultOf(e, records);
  CHECK(r.replication_0_seed == ReplicationSeed(42, 0));
  REQUIRE(r.metrics.size() == 1);
  CHECK(r.metrics[0].stats.mean == 2.0);
  CHECK(r.metrics[0].unit == "count");
  REQUIRE(r.expectations.size() == 2);
  CHECK(r.expectations[0].passed == 3);
  CHECK_FALSE(r.expectations[0].first_failure);
  CHECK(r.expectations[1].passed == 1);
  REQUIRE(r.expectations[1].first_failure);
  CHECK(*r.expectations[1].first_failure == 1);
  CHECK(r.expectations[1].first_failure_reproduce == "drainsim run scenarios/x.json --seed 12");
  CHECK(r.expectations[1].measured.count == 2);
  CHECK(r.FailedExpectations() == 1);

  const reports::Rendered out = RenderExperiment(e, records);
  CHECK(out.exit_code == 1);
  REQUIRE_FALSE(out.files.empty());
  CHECK(out.files.front().name == "replications.json");
}

}  // namespace
}  // namespace experiment_result_test
}  // namespace drainsim::experiments
