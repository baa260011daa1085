// workers.autoscale through the loader (docs/MODEL.md, "Autoscaled workers"): its defaults (the
// HPA's 15 s sync period and 300 s scale-down window, a 30 s start-up lag, a 30 s grace period),
// its ranges, workers.count within [min, max], and the refusals beside broker.partitions and
// workers.lambda_esm, each at its own pointer. The dump writes the object only when it is set,
// and the round trip keeps it.
#include <catch2/catch.hpp>
#include <string>

#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace autoscale_load_test {
namespace {

using testing::CheckRoundTrip;
using testing::Json;
using testing::Load;
using testing::MustLoad;
using testing::With;

// The rabbitmq preset with 2 workers at the start, autoscaled on depth between 1 and 10.
Json Scaled() {
  return With(With(testing::PresetScenario("rabbitmq-quorum"), "/workers/count", 2),
              "/workers/autoscale", Json{{"metric", "depth"}, {"target", 100}, {"max", 10}});
}

TEST_CASE("autoscale: the defaults, and the dump only when set", "[scenario][autoscale]") {
  const config::Scenario s = MustLoad(Scaled());
  REQUIRE(s.workers.autoscale);
  const config::Autoscale& a = *s.workers.autoscale;
  CHECK(a.metric == config::AutoscaleMetric::kDepth);
  CHECK(a.target == 100);
  CHECK(a.min == 1);
  CHECK(a.max == 10);
  CHECK(a.interval == engine::Duration::Seconds(15));
  CHECK(a.lag == engine::Duration::Seconds(30));
  CHECK(a.cooldown == engine::Duration::Seconds(300));
  CHECK(a.grace == engine::Duration::Seconds(30));
  CheckRoundTrip(s);
  const Json dump = Json::parse(DumpCanonical(s));
  CHECK(dump.at("/workers/autoscale/cooldown_s"_json_pointer) == 300);
  const config::Scenario plain = MustLoad(testing::PresetScenario("rabbitmq-quorum"));
  CHECK_FALSE(plain.workers.autoscale);
  CHECK_FALSE(Json::parse(DumpCanonical(plain)).at("workers").contains("autoscale"));
  CHECK_FALSE(
      MustLoad(With(testing::PresetScenario("rabbitmq-quorum"), "/workers/autoscale", nullptr))
          .workers.autoscale);
}

TEST_CASE("autoscale: every field set round-trips", "[scenario][autoscale]") {
  const config::Scenario s = MustLoad(With(Scaled(), "/workers/autoscale",
                                           Json{{"metric", "age"},
                                                {"target", 2.5},
                                                {"min", 2},
                                                {"max", 3},
                                                {"interval_s", 5},
                                                {"lag_s", 0},
                                                {"cooldown_s", 0},
                                                {"grace_s", 0.5}}));
  const config::Autoscale& a = *s.workers.autoscale;
  CHECK(a.metric == config::AutoscaleMetric::kAge);
  CHECK(a.target == 2.5);
  CHECK(a.min == 2);
  CHECK(a.interval == engine::Duration::Seconds(5));
  CHECK(a.lag == engine::Duration::Zero());
  CHECK(a.grace == engine::Duration::Millis(500));
  CheckRoundTrip(s);
}

TEST_CASE("autoscale: ranges and contradictions are refused at their pointers",
          "[scenario][autoscale]") {
  CHECK_PROBLEM(Load(testing::Without(Scaled(), "/workers/autoscale/metric")),
                "/workers/autoscale/metric", "required");
  CHECK_PROBLEM(Load(With(Scaled(), "/workers/autoscale/metric", "cpu")),
                "/workers/autoscale/metric", "");
  CHECK_PROBLEM(Load(testing::Without(Scaled(), "/workers/autoscale/max")),
                "/workers/autoscale/max", "required");
  CHECK_PROBLEM(Load(With(Scaled(), "/workers/autoscale/target", 0)), "/workers/autoscale/target",
                "must be > 0");
  CHECK_PROBLEM(Load(With(Scaled(), "/workers/autoscale/min", 0)), "/workers/autoscale/min",
                "must be >= 1");
  CHECK_PROBLEM(Load(With(Scaled(), "/workers/autoscale/interval_s", 0)),
                "/workers/autoscale/interval_s", "");
  CHECK_PROBLEM(Load(With(Scaled(), "/workers/autoscale/lag_s", -1)), "/workers/autoscale/lag_s",
                "");
  CHECK_PROBLEM(Load(With(Scaled(), "/workers/autoscale/window_s", 60)),
                "/workers/autoscale/window_s", "");
  CHECK_PROBLEM(
      Load(With(With(Scaled(), "/workers/autoscale/min", 5), "/workers/autoscale/max", 4)),
      "/workers/autoscale/min", "is more than max 4");
  CHECK_PROBLEM(Load(With(Scaled(), "/workers/count", 11)), "/workers/count",
                "is outside workers.autoscale's [min, max] = [1, 10]");
  CHECK_PROBLEM(Load(With(Scaled(), "/workers/autoscale/min", 3)), "/workers/count", "is outside");
  CHECK_PROBLEM(Load(With(With(testing::PresetScenario("kafka"), "/workers/count", 2),
                          "/workers/autoscale", Scaled().at("/workers/autoscale"_json_pointer))),
                "/workers/autoscale", "cannot be combined with broker.partitions");
  const Json esm = With(With(testing::PresetScenario("sqs"), "/workers/count", 8),
                        "/workers/lambda_esm", Json{{"function_concurrency", 8}});
  CHECK_PROBLEM(
      Load(With(esm, "/workers/autoscale", Scaled().at("/workers/autoscale"_json_pointer))),
      "/workers/autoscale", "cannot be combined with workers.lambda_esm");
}

}  // namespace
}  // namespace autoscale_load_test
}  // namespace drainsim::scenario
