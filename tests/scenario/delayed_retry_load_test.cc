// broker.delayed_retry through the loader (RabbitMQ 4.3 quorum queues' delayed retry,
// docs/PRESETS.md): its fields and defaults, where it is refused (before 4.3, other presets,
// beside redelivery_backoff), and the dump that keeps other scenarios' hashes.
#include <catch2/catch.hpp>

#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace delayed_retry_load_test {
namespace {

using testing::CheckRoundTrip;
using testing::Json;
using testing::Load;
using testing::MustLoad;
using testing::With;

Json Minimal(const char* preset) { return testing::PresetScenario(preset == nullptr ? "" : preset); }

Json Delayed(const char* type, double min_s) { return {{"type", type}, {"min_s", min_s}}; }

TEST_CASE("delayed_retry: read, max_s defaults to min_s, kept by dump", "[presets][rabbitmq]") {
  const config::Scenario s =
      MustLoad(With(Minimal("rabbitmq-quorum"), "/broker/delayed_retry", Delayed("failed", 2)));
  REQUIRE(s.broker.delayed_retry.has_value());
  CHECK(s.broker.delayed_retry->type == config::DelayedRetryType::kFailed);
  CHECK(s.broker.delayed_retry->min == engine::Duration::Seconds(2));
  CHECK(s.broker.delayed_retry->max == engine::Duration::Seconds(2));  // RabbitMQ: max = min
  CheckRoundTrip(s);
  Json both = Delayed("returned", 1);
  both["max_s"] = 30;
  const config::Scenario t =
      MustLoad(With(Minimal("rabbitmq-quorum"), "/broker/delayed_retry", both));
  CHECK(t.broker.delayed_retry->type == config::DelayedRetryType::kReturned);
  CHECK(t.broker.delayed_retry->max == engine::Duration::Seconds(30));
  CheckRoundTrip(t);
  // max below min is what RabbitMQ accepts (queue arguments are not validated): kept as given.
  Json below = Delayed("all", 5);
  below["max_s"] = 1;
  CHECK(MustLoad(With(Minimal(nullptr), "/broker/delayed_retry", below)).broker.delayed_retry->max ==
        engine::Duration::Seconds(1));
  // null is RabbitMQ's "disabled", the default; unset, the dump leaves it out (the hash).
  CHECK_FALSE(MustLoad(With(Minimal("rabbitmq-quorum"), "/broker/delayed_retry", nullptr))
                  .broker.delayed_retry.has_value());
  const Json dump = Json::parse(DumpCanonical(MustLoad(Minimal("rabbitmq-quorum"))));
  CHECK_FALSE(dump.at("broker").contains("delayed_retry"));
}

TEST_CASE("delayed_retry: bad fields at their pointers", "[presets][rabbitmq]") {
  const Json base = Minimal(nullptr);
  CHECK_PROBLEM(Load(With(base, "/broker/delayed_retry", Json{{"type", "all"}})),
                "/broker/delayed_retry/min_s", "");
  CHECK_PROBLEM(Load(With(base, "/broker/delayed_retry", Delayed("disabled", 1))),
                "/broker/delayed_retry/type", "");
  CHECK_PROBLEM(Load(With(base, "/broker/delayed_retry", Delayed("all", 0))),
                "/broker/delayed_retry/min_s", "");
  Json extra = Delayed("all", 1);
  extra["min_ms"] = 1000;
  CHECK_PROBLEM(Load(With(base, "/broker/delayed_retry", extra)), "/broker/delayed_retry/min_ms",
                "");
  CHECK_PROBLEM(Load(With(base, "/broker/delayed_retry", "all")), "/broker/delayed_retry", "");
}

TEST_CASE("delayed_retry: RabbitMQ 4.3 and later only, and not beside redelivery_backoff",
          "[presets][rabbitmq]") {
  const Json rabbit = With(Minimal("rabbitmq-quorum"), "/broker/delayed_retry", Delayed("all", 1));
  for (const char* version : {"4.3", "4.4", "5.0"}) {
    INFO(version);
    CHECK(MustLoad(With(rabbit, "/broker/version", version)).broker.delayed_retry.has_value());
  }
  for (const char* version : {"4.2", "4.0", "3.13", "3.10"}) {
    INFO(version);
    CHECK_PROBLEM(Load(With(rabbit, "/broker/version", version)), "/broker/delayed_retry",
                  "has no delayed retry: quorum queues delay returns from 4.3.0");
  }
  for (const char* preset : {"sqs", "pubsub", "nats-jetstream", "celery", "sidekiq"}) {
    INFO(preset);
    CHECK_PROBLEM(Load(With(Minimal(preset), "/broker/delayed_retry", Delayed("all", 1))),
                  "/broker/delayed_retry",
                  "is RabbitMQ 4.3 quorum queues' delayed retry, not something " +
                      std::string(preset) + " does");
  }
  CHECK_PROBLEM(Load(With(With(Minimal(nullptr), "/broker/delayed_retry", Delayed("all", 1)),
                          "/broker/redelivery_backoff",
                          Json::parse(R"({"kind": "constant", "delay_s": 1})"))),
                "/broker/delayed_retry", "and redelivery_backoff both delay a returned message");
}

}  // namespace
}  // namespace delayed_retry_load_test
}  // namespace drainsim::scenario
