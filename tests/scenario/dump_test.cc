// DumpCanonical: sorted keys, two-space indent, trailing newline, every default filled in,
// and a fixed point: load(dump(load(x))) == load(x), dump(load(dump(s))) == dump(s).
#include <catch2/catch.hpp>

#include "sim/scenario/load.h"
#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace dump_test {
namespace {

using testing::BaseScenario;
using testing::Json;
using testing::Load;
using testing::CheckRoundTrip;
using testing::MustLoad;
using testing::With;


TEST_CASE("the dump is sorted, indented by two spaces and ends with a newline", "[dump]") {
  const std::string dump = DumpCanonical(MustLoad(BaseScenario()));
  REQUIRE_FALSE(dump.empty());
  CHECK(dump.back() == '\n');
  CHECK(dump.rfind("{\n  \"alerts\": {", 0) == 0);
  // Re-serialising the parsed dump with sorted keys changes nothing.
  CHECK(Json::parse(dump).dump(2) + "\n" == dump);
}

TEST_CASE("the dump fills in every default", "[dump]") {
  const Json dump = Json::parse(DumpCanonical(MustLoad(BaseScenario())));
  CHECK(dump.at("format_version") == 1);
  CHECK(dump.at("seed") == 1);
  CHECK(dump.at("description") == "");
  CHECK(dump.at("run").at("sample_every_s") == 10);
  CHECK(dump.at("run").at("events_max") == 50000000);
  CHECK(dump.at("broker").at("visibility_timeout_s") == 30);
  CHECK(dump.at("broker").at("dlq_retention_s") == 1209600);
  CHECK(dump.at("broker").at("preset").is_null());
  CHECK(dump.at("broker").at("version").is_null());
  CHECK(dump.at("broker").at("on_visibility_timeout") == "redeliver");
  CHECK(dump.at("broker").at("lock_renewal") == false);
  CHECK(dump.at("broker").at("stalled_check_s").is_null());
  CHECK(dump.at("broker").at("delivery_counted") ==
        Json::parse(R"(["nack", "reject", "crash", "consumer_timeout"])"));
  CHECK(dump.at("broker").at("retention_s").is_null());
  CHECK(dump.at("broker").at("redelivery_backoff").is_null());
  CHECK(dump.at("broker").at("dead_letter_queue") == true);
  CHECK(dump.at("broker").at("dead_letter_duplicate_probability") == 0);
  CHECK(dump.at("broker").at("redrive_rate_max_per_s").is_null());
  CHECK(dump.at("broker").at("redrive_attempts") == "reset");
  CHECK(dump.at("retry").at("requeue_with") == "reject");
  CHECK(dump.at("workers").at("restart_s") == 30);
  CHECK(dump.at("database").at("timeout_ms") == 30000);
  CHECK(dump.at("database").at("overload_factor") == 0.5);
  CHECK(dump.at("database").at("live_traffic").is_null());
  CHECK(dump.at("downstream").at("burst") == 1);
  CHECK(dump.at("retry").at("backoff") ==
        Json::parse(R"({"kind": "exponential", "base_s": 1, "factor": 2, "cap_s": 300,
                        "jitter": {"kind": "full"}})"));
  CHECK(dump.at("retry").at("classes").at("unknown").at("attempts_max") == 2);
  CHECK(dump.at("retry").at("budget").is_null());
  CHECK(dump.at("kinds").at("job").at("handler").at("validate_ms") ==
        Json::parse(R"({"constant": 0})"));
  CHECK(dump.at("producers").at(0).at("poisson").at("until_s") == 3600);
  CHECK(dump.at("producers").at(0).at("fields") == Json::object());
  CHECK(dump.at("faults") == Json::array());
  CHECK(dump.at("expect") == Json::array());
  CHECK(dump.at("alerts") ==
        Json::parse(R"({"oldest_age_s": null, "depth": null, "dlq_depth": null})"));
}

TEST_CASE("durations are rounded to the microsecond once and then round-trip", "[dump]") {
  for (double seconds : {1e-6, 0.1, 0.3, 1.0 / 3.0, 2.0 / 3.0, 123456.789012, 8639999.999999,
                         0.0000015, 1e-7 * 15}) {
    INFO(seconds);
    const config::Scenario s =
        MustLoad(With(BaseScenario(), "/broker/visibility_timeout_s", seconds));
    CHECK(s.broker.visibility_timeout.micros() == engine::DurationFromSeconds(seconds)->micros());
    CheckRoundTrip(s);
  }
  for (double ms : {0.001, 0.3, 1.0 / 7.0, 86399999.999}) {
    INFO(ms);
    CheckRoundTrip(MustLoad(With(BaseScenario(), "/database/timeout_ms", ms)));
  }
  // A value that rounds to 0 us is refused where 0 is not allowed.
  CHECK_PROBLEM(Load(With(BaseScenario(), "/broker/visibility_timeout_s", 1e-7)),
                "/broker/visibility_timeout_s", "must be at least 1 microsecond");
}

TEST_CASE("doubles round-trip exactly in the shortest form", "[dump]") {
  for (double factor : {0.1, 1.0 / 3.0, 2.5, 1e-9, 12.0, 99.999999999999, 5e-324}) {
    INFO(factor);
    const config::Scenario s = MustLoad(With(BaseScenario(), "/database/overload_factor", factor));
    CHECK(s.database->overload_factor == factor);
    CheckRoundTrip(s);
  }
  const std::string dump =
      DumpCanonical(MustLoad(With(BaseScenario(), "/producers/0/poisson/rate_per_s", 20.0)));
  CHECK(dump.find("\"rate_per_s\": 20,") != std::string::npos);
}

TEST_CASE("user forms are kept: lognormal median/p99 vs mu/sigma", "[dump]") {
  const Json median = Json::parse(R"({"lognormal": {"median": 8, "p99": 60}})");
  const Json mu = Json::parse(R"({"lognormal": {"mu": 2.1, "sigma": 0.8}})");
  for (const Json& form : {median, mu}) {
    const config::Scenario s = MustLoad(With(BaseScenario(), "/kinds/job/handler/cpu_ms", form));
    const Json dump = Json::parse(DumpCanonical(s));
    CHECK(dump.at("kinds").at("job").at("handler").at("cpu_ms") == form);
    CheckRoundTrip(s);
  }
}

TEST_CASE("every broker and retry field set to a non-default value round-trips", "[dump]") {
  Json doc = BaseScenario();
  doc["broker"] = Json::parse(R"({
    "preset": "rabbitmq-quorum", "version": "4.1", "visibility_timeout_s": 45.5,
    "on_visibility_timeout": "close_channel", "lock_renewal": true, "stalled_check_s": 15,
    "stalled_count_max": 0, "requeue_on_crash": "fail", "receive_count_max": 7,
    "delivery_limit": 0, "delivery_counted": ["crash", "nack"], "max_length": 100,
    "overflow": "reject_publish", "retention_s": 1000.25,
    "redelivery_backoff": {"kind": "linear", "base_s": 1, "step_s": 2, "cap_s": 30,
                           "jitter": {"kind": "full_whole_seconds"}},
    "dead_letter_queue": false, "dlq_retention_s": 600, "dlq_retention_from": "enqueued",
    "dlq_max_length": 50, "dead_letter_duplicate_probability": 0.25,
    "redrive_rate_max_per_s": 42.5, "redrive_attempts": "keep"})");
  doc["retry"] = Json::parse(R"({
    "delivery": "eta_in_consumer", "requeue_with": "nack",
    "backoff": {"kind": "constant", "delay_s": 0, "jitter": {"kind": "full_whole_seconds"}}})");
  const config::Scenario s = MustLoad(doc);
  const config::Broker& b = s.broker;
  CHECK(b.preset == config::BrokerPreset::kRabbitmqQuorum);
  CHECK(b.version == "4.1");
  CHECK(b.on_visibility_timeout == config::OnVisibilityTimeout::kCloseChannel);
  CHECK(b.lock_renewal);
  CHECK(b.stalled_check == engine::Duration::Seconds(15));
  CHECK(b.stalled_count_max == 0);
  CHECK(b.requeue_on_crash == config::RequeueOnCrash::kFail);
  CHECK(b.delivery_limit == 0);
  CHECK(b.delivery_counted == std::array<bool, config::kReturnKindCount>{true, false, true, false});
  CHECK(b.retention == engine::Duration::Millis(1000250));
  REQUIRE(b.redelivery_backoff.has_value());
  CHECK(b.redelivery_backoff->kind() == config::BackoffKind::kLinear);
  CHECK(b.redelivery_backoff->jitter.kind == config::JitterKind::kFullWholeSeconds);
  CHECK_FALSE(b.dead_letter_queue);
  CHECK(b.dlq_max_length == 50);
  CHECK(b.dead_letter_duplicate_probability == 0.25);
  CHECK(b.redrive_rate_max_per_s == 42.5);
  CHECK(b.redrive_attempts == config::RedriveAttempts::kKeep);
  CHECK(s.retry.delivery == config::RetryDelivery::kEtaInConsumer);
  CHECK(s.retry.requeue_with == config::RequeueWith::kNack);
  CHECK(s.retry.backoff.curve ==
        config::Backoff::Curve(config::ConstantBackoff{engine::Duration::Seconds(0)}));
  CheckRoundTrip(s);
  const Json dump = Json::parse(DumpCanonical(s));
  CHECK(dump.at("broker").at("delivery_counted") == Json::parse(R"(["nack", "crash"])"));
  CHECK(dump.at("broker").at("version") == "4.1");
}

TEST_CASE("dumping a loaded dump is a fixed point for every example", "[dump]") {
  for (const std::string& path : testing::ExampleScenarioPaths()) {
    INFO(path);
    const LoadResult r = LoadScenarioFile(path);
    REQUIRE(r.ok());
    CheckRoundTrip(*r.scenario);
  }
}

TEST_CASE("a hand-built scenario with invalid UTF-8 dumps without throwing", "[dump]") {
  config::Scenario s = MustLoad(BaseScenario());
  s.name = "bad \xff name";
  const std::string dump = DumpCanonical(s);
  CHECK(dump.find("bad ") != std::string::npos);
  // The dump is refused on reload only if it is not UTF-8; replacement keeps it valid.
  CHECK(LoadScenarioText(dump).ok());
}

}  // namespace
}  // namespace dump_test
}  // namespace drainsim::scenario
