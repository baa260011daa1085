// The loader applies the engine's limits, so that the model can build whatever a loaded
// scenario names: lognormal parameters (sim/engine/distributions.h), token-bucket rates
// (model::TokenBucket); and the retry defaults that follow from the engine's formulas
// (Sidekiq's own randomness, decorrelated jitter's fixed growth).
#include <catch2/catch.hpp>
#include <cmath>

#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace rules_limits_test {
namespace {

using testing::BaseScenario;
using testing::Json;
using testing::Load;
using testing::MustLoad;
using testing::With;

TEST_CASE("lognormal: |mu| <= 100 and 0 < sigma <= 10 in both forms", "[rules]") {
  const std::string at = "/kinds/job/handler/cpu_ms";
  auto with = [&](Json lognormal) {
    return Load(With(BaseScenario(), at, Json{{"lognormal", std::move(lognormal)}}));
  };
  CHECK_LOADS(with({{"mu", 100}, {"sigma", 10}}));
  CHECK_LOADS(with({{"mu", -100}, {"sigma", 1e-300}}));
  CHECK_PROBLEM(with({{"mu", 100.5}, {"sigma", 1}}), at + "/lognormal/mu",
                "must be <= 100 (got 100.5)");
  CHECK_PROBLEM(with({{"mu", -101}, {"sigma", 1}}), at + "/lognormal/mu",
                "must be >= -100 (got -101)");
  CHECK_PROBLEM(with({{"mu", 1}, {"sigma", 10.01}}), at + "/lognormal/sigma",
                "must be <= 10 (got 10.01)");

  // sigma = (ln p99 - ln median) / z_0.99: p99 / median = e^(10 z) is the widest allowed.
  const double widest = std::exp(10 * 2.3263478740408408);
  CHECK_LOADS(with({{"median", 1}, {"p99", widest * 0.999}}));
  CHECK_LOADS(with({{"median", 1e-40}, {"p99", 1e-39}}));
  CHECK_PROBLEM(with({{"median", 1}, {"p99", widest * 1.001}}), at + "/lognormal/p99",
                "must be at most about 1.27e10 times median = 1");
  CHECK_PROBLEM(with({{"median", 1e-50}, {"p99", 1e-49}}), at + "/lognormal/median",
                "must be at least e^-100");
  // Adjacent doubles: ln p99 - ln median rounds to 0, and sigma would be 0.
  const double median = 1e12;
  CHECK_PROBLEM(with({{"median", median}, {"p99", std::nextafter(median, 2e12)}}),
                at + "/lognormal/p99", "ln p99 - ln median rounds to 0");
}

TEST_CASE("normal: sd may be 0 (a constant)", "[rules]") {
  const std::string at = "/kinds/job/handler/cpu_ms";
  const config::Scenario s = MustLoad(With(BaseScenario(), at, Json::parse(R"({"normal":
                                                           {"mean": 5, "sd": 0}})")));
  CHECK(std::get<config::NormalDist>(s.kinds.at("job").handler.cpu_ms.shape).sd == 0);
}

TEST_CASE("token-bucket rates are at least 1e-9 per second", "[rules]") {
  const std::string limit = "/downstream/rate_limit_per_s";
  CHECK_LOADS(Load(With(BaseScenario(), limit, 1e-9)));
  CHECK_LOADS(Load(With(BaseScenario(), limit, 1e9)));
  CHECK_PROBLEM(Load(With(BaseScenario(), limit, 1e-10)), limit, "must be >= 1e-09 (got 1e-10)");
  CHECK_PROBLEM(Load(With(BaseScenario(), limit, 2e9)), limit, "must be <= 1000000000");
  CHECK_PROBLEM(Load(With(BaseScenario(), limit, 0)), limit, "must be >= 1e-09 (got 0)");

  auto fault = [](double rate) {
    Json f = Json::parse(R"({"type": "downstream_rate_limit", "from_s": 10, "until_s": 20})");
    f["rate_limit_per_s"] = rate;
    return Load(With(BaseScenario(), "/faults", Json::array({f})));
  };
  CHECK_LOADS(fault(1e-9));
  CHECK_LOADS(fault(1e9));
  CHECK_PROBLEM(fault(1e-10), "/faults/0/rate_limit_per_s", "must be >= 1e-09");
  CHECK_PROBLEM(fault(1.5e9), "/faults/0/rate_limit_per_s", "must be <= 1000000000");

  auto drain = [](const char* text) {
    return Load(With(BaseScenario(), "/drains", Json::array({Json::parse(text)})));
  };
  CHECK_LOADS(drain(R"({"start_at_s": 60, "strategy": "drip", "rate_per_s": 1e-9})"));
  CHECK_PROBLEM(drain(R"({"start_at_s": 60, "strategy": "drip", "rate_per_s": 1e-10})"),
                "/drains/0/rate_per_s", "must be >= 1e-09 (got 1e-10)");
  CHECK_PROBLEM(drain(R"({"start_at_s": 60, "strategy": "drip", "rate_per_s": 2e6})"),
                "/drains/0/rate_per_s", "must be <= 1000000");
  CHECK_LOADS(
      drain(R"({"start_at_s": 60, "strategy": "bounded", "limit": 5, "rate_per_s": 1e-9})"));
  CHECK_PROBLEM(
      drain(R"({"start_at_s": 60, "strategy": "bounded", "limit": 5, "rate_per_s": 1e-12})"),
      "/drains/0/rate_per_s", "must be >= 1e-09 (got 1e-12)");
  CHECK_PROBLEM(drain(R"({"start_at_s": 60, "strategy": "adaptive", "rate_min_per_s": 1e-10,
                          "rate_max_per_s": 5, "increase_per_s": 1, "latency_target_ms": 50})"),
                "/drains/0/rate_min_per_s", "must be >= 1e-09");
}

TEST_CASE("sidekiq backoff defaults to no jitter, but an explicit jitter is honoured", "[rules]") {
  const config::Scenario bare =
      MustLoad(With(BaseScenario(), "/retry/backoff", {{"kind", "sidekiq"}}));
  CHECK(bare.retry.backoff.kind() == config::BackoffKind::kSidekiq);
  CHECK(bare.retry.backoff.jitter == config::Jitter{config::JitterKind::kNone, 0, 0});
  const Json dumped = Json::parse(DumpCanonical(bare));
  CHECK(dumped.at("retry").at("backoff").at("jitter") == Json{{"kind", "none"}});
  CHECK(MustLoad(dumped) == bare);

  const config::Scenario full = MustLoad(With(
      BaseScenario(), "/retry/backoff", {{"kind", "sidekiq"}, {"jitter", {{"kind", "full"}}}}));
  CHECK(full.retry.backoff.jitter.kind == config::JitterKind::kFull);
  const config::Scenario equal =
      MustLoad(With(BaseScenario(), "/retry/classes/transient/backoff",
                    Json::parse(R"({"kind": "sidekiq", "jitter": {"kind": "equal"}})")));
  CHECK(equal.retry.classes.transient.backoff->jitter.kind == config::JitterKind::kEqual);

  // A class's own sidekiq backoff gets the same default; other kinds keep "full".
  const config::Scenario per_class =
      MustLoad(With(BaseScenario(), "/retry/classes/transient/backoff", {{"kind", "sidekiq"}}));
  CHECK(per_class.retry.classes.transient.backoff->jitter.kind == config::JitterKind::kNone);
  const config::Scenario constant =
      MustLoad(With(BaseScenario(), "/retry/backoff", {{"kind", "constant"}, {"delay_s", 5}}));
  CHECK(constant.retry.backoff.jitter.kind == config::JitterKind::kFull);
  CHECK(MustLoad(BaseScenario()).retry.backoff.jitter.kind == config::JitterKind::kFull);
  CHECK_PROBLEM(
      Load(With(BaseScenario(), "/retry/backoff", {{"kind", "sidekiq"}, {"jitter", nullptr}})),
      "/retry/backoff/jitter", "must be an object (got null)");
}

TEST_CASE("decorrelated jitter needs base_s and cap_s, not factor", "[rules]") {
  const Json linear = Json::parse(R"({"kind": "linear", "base_s": 1, "step_s": 1, "cap_s": 9,
                                      "jitter": {"kind": "decorrelated"}})");
  const LoadResult r = Load(With(BaseScenario(), "/retry/backoff", linear));
  CHECK_PROBLEM(r, "/retry/backoff/jitter/kind",
                "decorrelated jitter needs an exponential backoff's base_s and cap_s");
  CHECK_LOADS(Load(With(BaseScenario(), "/retry/backoff",
                        Json::parse(R"({"kind": "exponential", "base_s": 1, "cap_s": 60,
                                        "factor": 1, "jitter": {"kind": "decorrelated"}})"))));
}

}  // namespace
}  // namespace rules_limits_test
}  // namespace drainsim::scenario
