#include "sim/model/keys.h"

#include <catch2/catch.hpp>

#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace keys_test {
namespace {

using engine::Instant;

TEST_CASE("keys are rendered from the work, not invented", "[model][keys]") {
  const config::Fields fields{{"course", "4812"}, {"cutoff", "2026-03-01"}};
  CHECK(RenderKey("purge:course-{course}:{cutoff}", 7, "purge", fields, Instant::Zero()) ==
        "purge:course-4812:2026-03-01");
  CHECK(RenderKey("{kind}:{id}", 42, "email", {}, Instant::Zero()) == "email:42");
  CHECK(RenderKey("plain", 1, "k", {}, Instant::Zero()) == "plain");
}

TEST_CASE("{date} is the simulated day of the first publish unless a field sets it",
          "[model][keys]") {
  const auto at_s = [](int64_t s) { return Instant::Micros(s * 1'000'000); };
  CHECK(RenderKey("{date}", 0, "k", {}, at_s(0)) == "day-0");
  CHECK(RenderKey("{date}", 0, "k", {}, at_s(86399)) == "day-0");
  CHECK(RenderKey("{date}", 0, "k", {}, at_s(86400)) == "day-1");
  CHECK(RenderKey("{date}", 0, "k", {}, at_s(-1)) == "day-m1");
  CHECK(RenderKey("{date}", 0, "k", {}, at_s(-86400)) == "day-m1");
  CHECK(RenderKey("{date}", 0, "k", {}, at_s(-86401)) == "day-m2");
  CHECK(RenderKey("{date}", 0, "k", {{"date", "2026-03-01"}}, at_s(5)) == "2026-03-01");
  CHECK(KeysAreUnique("a:{id}"));
  CHECK_FALSE(KeysAreUnique("a:{date}"));
}

TEST_CASE("a key template resolved once renders every message of its source", "[model][keys]") {
  const auto at_s = [](int64_t s) { return Instant::Micros(s * 1'000'000); };
  const KeyTemplate keys("{kind}:{course}:{id}:{date}:{id}", "purge", {{"course", "4812"}});
  CHECK(keys.Render(7, at_s(0)) == "purge:4812:7:day-0:7");
  CHECK(keys.Render(8, at_s(86400)) == "purge:4812:8:day-1:8");
  CHECK(keys.Render(9, at_s(-1)) == "purge:4812:9:day-m1:9");
  const KeyTemplate dated("{date}", "k", {{"date", "2026-03-01"}});
  CHECK(dated.Render(1, at_s(86400)) == "2026-03-01");
  CHECK(KeyTemplate("plain", "k", {}).Render(1, at_s(0)) == "plain");
  CHECK(KeyTemplate("", "k", {}).Render(1, at_s(0)).empty());
}

TEST_CASE("messages that share a key share its claim row", "[model][keys][sim]") {
  // A cron trigger that fires twice on the same day publishes the same work twice.
  auto scenario = [](const char* idempotency) {
    return testing::LoadOrFail(std::string(R"({"format_version": 1, "name": "twice",
      "run": {"until_s": 3600},
      "kinds": {"purge": {"idempotency": ")") + idempotency + R"(",
                          "key_pattern": "purge:course-{course}:{date}",
                          "handler": {"cpu_ms": {"constant": 5}}}},
      "producers": [{"kind": "purge", "fields": {"course": "4812"}, "burst": {"at_s": 0, "count": 1}},
                    {"kind": "purge", "fields": {"course": "4812"}, "burst": {"at_s": 60, "count": 1}},
                    {"kind": "purge", "fields": {"course": "9"}, "burst": {"at_s": 60, "count": 1}}],
      "workers": {"count": 1}})");
  };
  const Results claim = testing::RunAudited(scenario("claim"));
  CHECK(claim.acked == 3);
  CHECK(claim.duplicates_suppressed == 1);
  CHECK(claim.duplicate_executions == 0);
  const Results none = testing::RunAudited(scenario("none"));
  CHECK(none.duplicate_executions == 1);
  CHECK(none.visible_duplicates == 1);
}

}  // namespace
}  // namespace keys_test
}  // namespace drainsim::model
