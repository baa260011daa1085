// workers.lambda_esm through the loader (docs/PRESETS.md, "lambda_esm"): its defaults, its ranges
// (MaximumConcurrency 2..1000 as AWS's ScalingConfig; the others 1..1000), only under the sqs
// preset, and every contradiction with the rest of the scenario refused at its own pointer. The
// dump writes the object only when it is set, and the round trip keeps it.
#include <catch2/catch.hpp>
#include <string>

#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace lambda_esm_test {
namespace {

using testing::CheckRoundTrip;
using testing::Json;
using testing::Load;
using testing::MustLoad;
using testing::With;

// The sqs preset with 8 execution environments fed by an ESM.
Json Esm() {
  return With(With(testing::PresetScenario("sqs"), "/workers/count", 8), "/workers/lambda_esm",
              Json{{"function_concurrency", 8}});
}

TEST_CASE("lambda_esm: the defaults, and the dump only when set", "[scenario][lambda-esm]") {
  const config::Scenario s = MustLoad(Esm());
  REQUIRE(s.workers.lambda_esm);
  CHECK(s.workers.lambda_esm->function_concurrency == 8);
  CHECK_FALSE(s.workers.lambda_esm->maximum_concurrency);
  CHECK(s.workers.lambda_esm->pollers_initial == 5);
  CHECK(s.workers.lambda_esm->pollers_added_per_min == 300);
  CheckRoundTrip(s);
  const Json dump = Json::parse(DumpCanonical(s));
  CHECK(dump.at("/workers/lambda_esm/maximum_concurrency"_json_pointer).is_null());
  const config::Scenario plain = MustLoad(testing::PresetScenario("sqs"));
  CHECK_FALSE(plain.workers.lambda_esm);
  CHECK_FALSE(Json::parse(DumpCanonical(plain)).at("workers").contains("lambda_esm"));
  CHECK_FALSE(MustLoad(With(testing::PresetScenario("sqs"), "/workers/lambda_esm", nullptr))
                  .workers.lambda_esm);
}

TEST_CASE("lambda_esm: values inside the ranges are accepted", "[scenario][lambda-esm]") {
  for (const int64_t max : {2, 8, 64, 1000}) {
    const config::Scenario s =
        MustLoad(With(Esm(), "/workers/lambda_esm/maximum_concurrency", max));
    CHECK(s.workers.lambda_esm->maximum_concurrency == max);
    CheckRoundTrip(s);
  }
  for (const int64_t n : {1, 1000}) {
    CHECK(MustLoad(With(Esm(), "/workers/lambda_esm/pollers_initial", n))
              .workers.lambda_esm->pollers_initial == n);
    CHECK(MustLoad(With(Esm(), "/workers/lambda_esm/pollers_added_per_min", n))
              .workers.lambda_esm->pollers_added_per_min == n);
    const Json fc =
        With(With(Esm(), "/workers/count", n), "/workers/lambda_esm/function_concurrency", n);
    CHECK(MustLoad(fc).workers.lambda_esm->function_concurrency == n);
  }
  CHECK(MustLoad(With(Esm(), "/retry/delivery", "requeue")).workers.lambda_esm);
}

TEST_CASE("lambda_esm: values outside the ranges are refused at their pointers",
          "[scenario][lambda-esm]") {
  for (const int64_t max : {0, 1, 1001}) {
    CHECK_PROBLEM(Load(With(Esm(), "/workers/lambda_esm/maximum_concurrency", max)),
                  "/workers/lambda_esm/maximum_concurrency", "");
  }
  CHECK_PROBLEM(Load(With(Esm(), "/workers/lambda_esm/maximum_concurrency", 2.5)),
                "/workers/lambda_esm/maximum_concurrency", "");
  for (const char* field : {"pollers_initial", "pollers_added_per_min"}) {
    for (const int64_t n : {0, 1001}) {
      const std::string pointer = std::string("/workers/lambda_esm/") + field;
      CHECK_PROBLEM(Load(With(Esm(), pointer, n)), pointer, "");
    }
  }
  CHECK_PROBLEM(Load(With(Esm(), "/workers/lambda_esm/function_concurrency", 1001)),
                "/workers/lambda_esm/function_concurrency", "");
  CHECK_PROBLEM(Load(testing::Without(Esm(), "/workers/lambda_esm/function_concurrency")),
                "/workers/lambda_esm/function_concurrency", "");
  CHECK_PROBLEM(Load(With(Esm(), "/workers/lambda_esm/batch_size", 10)),
                "/workers/lambda_esm/batch_size", "");
  CHECK_PROBLEM(Load(With(Esm(), "/workers/lambda_esm", 8)), "/workers/lambda_esm", "");
}

TEST_CASE("lambda_esm: only under the sqs preset", "[scenario][lambda-esm]") {
  Json none = Esm();
  none.erase("broker");
  CHECK_PROBLEM(Load(none), "/workers/lambda_esm", "applies only with broker.preset \"sqs\"");
  for (const char* preset : {"pubsub", "rabbitmq-quorum", "kafka-share"}) {
    INFO(preset);
    CHECK_PROBLEM(Load(With(Esm(), "/broker/preset", preset)), "/workers/lambda_esm",
                  "applies only with broker.preset \"sqs\"");
  }
}

TEST_CASE("lambda_esm: contradictions are refused at their pointers", "[scenario][lambda-esm]") {
  CHECK_PROBLEM(Load(With(Esm(), "/workers/count", 9)), "/workers/count",
                "contradicts workers.lambda_esm.function_concurrency 8");
  CHECK_PROBLEM(Load(With(Esm(), "/workers/prefetch", 2)), "/workers/prefetch",
                "an invocation processes one message");
  CHECK_PROBLEM(Load(With(With(Esm(), "/workers/prefetch", 2), "/workers/concurrency", 2)),
                "/workers/concurrency", "an invocation processes one message");
  for (const char* delivery : {"sleep_in_consumer", "eta_in_consumer"}) {
    CHECK_PROBLEM(Load(With(Esm(), "/retry/delivery", delivery)), "/retry/delivery",
                  "cannot be combined with workers.lambda_esm");
  }
  CHECK_PROBLEM(Load(With(Esm(), "/broker/on_visibility_timeout", "close_channel")),
                "/broker/on_visibility_timeout", "cannot be combined with workers.lambda_esm");
  CHECK_PROBLEM(Load(With(Esm(), "/broker/message_groups", 4)), "/broker/message_groups",
                "cannot be combined with workers.lambda_esm");
  CHECK_PROBLEM(Load(With(Esm(), "/broker/lock_renewal", true)), "/broker/lock_renewal",
                "cannot be combined with workers.lambda_esm");
  CHECK_PROBLEM(Load(With(Esm(), "/broker/restore_sweep_s", 100)), "/broker/restore_sweep_s",
                "cannot be combined with workers.lambda_esm");
}

TEST_CASE("lambda_esm: throttles and dead_lettered_unprocessed may be expected",
          "[scenario][lambda-esm]") {
  const Json expect = Json::array({Json{{"metric", "throttles"}, {"equals", 0}},
                                   Json{{"metric", "dead_lettered_unprocessed"}, {"max", 10}}});
  CHECK(MustLoad(With(Esm(), "/expect", expect)).expect.size() == 2);
  CHECK_PROBLEM(Load(With(testing::PresetScenario("sqs"), "/expect", expect)), "/expect/0/metric",
                "workers.lambda_esm");
  CHECK_PROBLEM(Load(With(testing::PresetScenario("sqs"), "/expect", expect)), "/expect/1/metric",
                "workers.lambda_esm");
}

}  // namespace
}  // namespace lambda_esm_test
}  // namespace drainsim::scenario
