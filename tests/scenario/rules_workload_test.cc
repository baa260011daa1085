// Validation rules of the top level, run, kinds, distributions, producers and backlog: each
// rule breaks one field of a valid scenario and checks the pointer and the message.
#include <catch2/catch.hpp>

#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace rules_workload_test {
namespace {

using testing::BaseScenario;
using testing::Json;
using testing::Load;
using testing::With;
using testing::Without;

TEST_CASE("the base scenario of the rule tests loads", "[rules]") {
  CHECK_LOADS(Load(BaseScenario()));
}

TEST_CASE("format_version is required and must be 1", "[rules]") {
  CHECK_PROBLEM(Load(Without(BaseScenario(), "/format_version")), "/format_version", "is required");
  const LoadResult two = Load(With(BaseScenario(), "/format_version", 2));
  CHECK_PROBLEM(two, "/format_version", "must be 1 (got 2)");
  // A future version is not judged by this version's vocabulary.
  CHECK(two.problems.size() == 1);
  CHECK_PROBLEM(Load(With(BaseScenario(), "/format_version", "1")), "/format_version",
                "must be an integer (got string \"1\")");
}

TEST_CASE("unknown keys are refused, with the closest known key suggested", "[rules]") {
  const LoadResult top = Load(With(BaseScenario(), "/wrokers", 1));
  CHECK_PROBLEM(top, "/wrokers", "unknown key 'wrokers' (did you mean 'workers'?)");
  const LoadResult nested = Load(With(Without(BaseScenario(), "/producers/0/poisson/rate_per_s"),
                                      "/producers/0/poisson/rate_per_sec", 1));
  CHECK_PROBLEM(nested, "/producers/0/poisson/rate_per_sec",
                "unknown key 'rate_per_sec' (did you mean 'rate_per_s'?)");
  CHECK_PROBLEM(nested, "/producers/0/poisson/rate_per_s", "is required");
  // Far from every known key: the allowed keys are listed instead.
  CHECK_PROBLEM(Load(With(BaseScenario(), "/workers/zzzzzzzz", 1)), "/workers/zzzzzzzz",
                "allowed keys: count, prefetch, concurrency, restart_s");
}

TEST_CASE("type errors name the expected type and what was found", "[rules]") {
  CHECK_PROBLEM(Load(With(BaseScenario(), "/run/until_s", "abc")), "/run/until_s",
                "must be a number (got string \"abc\")");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/workers/count", 2.5)), "/workers/count",
                "must be an integer (got 2.5)");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/workers", Json::array())), "/workers",
                "must be an object (got array)");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/workers/prefetch", nullptr)), "/workers/prefetch",
                "must be an integer (got null)");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/name", true)), "/name", "must be a string (got true)");
  // Integral floats are integers.
  CHECK_LOADS(Load(With(BaseScenario(), "/workers/count", 2.0)));
  CHECK_LOADS(Load(With(BaseScenario(), "/run/events_max", 1e9)));
}

TEST_CASE("long strings are cut and control characters escaped in messages", "[rules]") {
  const std::string long_text(100, 'x');
  const LoadResult r = Load(With(BaseScenario(), "/workers/count", long_text));
  CHECK_PROBLEM(r, "/workers/count", "(got string \"" + std::string(40, 'x') + "...\")");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/broker/requeue_on_crash", "a\x01z")),
                "/broker/requeue_on_crash", "\"a\\u0001z\"");
}

TEST_CASE("run: until_s is required, positive and at most 100 days", "[rules]") {
  CHECK_PROBLEM(Load(Without(BaseScenario(), "/run/until_s")), "/run/until_s", "is required");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/run/until_s", 0)), "/run/until_s",
                "must be > 0 (got 0)");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/run/until_s", 9e6)), "/run/until_s",
                "must be <= 8640000");
  const Json short_run = With(BaseScenario(), "/run/until_s", 5);
  CHECK_LOADS(Load(short_run));
  CHECK_LOADS(LoadScenarioText(DumpCanonical(*Load(short_run).scenario)));
  CHECK_PROBLEM(Load(With(BaseScenario(), "/run/sample_every_s", 1e-5)), "/run/sample_every_s",
                "samples per series; at most 1e7");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/run/events_max", 2e11)), "/run/events_max",
                "must be <= 100000000000");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/run/events_max", 0)), "/run/events_max",
                "must be >= 1");
}

TEST_CASE("name is required and seed is an unsigned 64-bit integer", "[rules]") {
  CHECK_PROBLEM(Load(Without(BaseScenario(), "/name")), "/name", "is required");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/name", "")), "/name", "must not be empty");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/seed", -1)), "/seed", "must be >= 0");
  const LoadResult big = Load(With(BaseScenario(), "/seed", 18446744073709551615ull));
  CHECK_LOADS(big);
  if (big.ok()) CHECK(big.scenario->seed == 18446744073709551615ull);
}

TEST_CASE("kinds: at least one, valid names, strict idempotency", "[rules]") {
  CHECK_PROBLEM(Load(With(BaseScenario(), "/kinds", Json::object())), "/kinds",
                "must not be empty");
  CHECK_PROBLEM(Load(Without(BaseScenario(), "/kinds")), "/kinds", "is required");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/kinds/bad name", Json::object())), "/kinds/bad name",
                "kind names must match");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/kinds/job/idempotency", "claims")),
                "/kinds/job/idempotency",
                "must be one of: claim, converge, none (got \"claims\"; did you mean \"claim\"?)");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/kinds/job/idempotency", "Claim")),
                "/kinds/job/idempotency", "must be one of: claim, converge, none");
}

TEST_CASE("handler: db_op_ms is required with db_ops, bounded counts", "[rules]") {
  CHECK_PROBLEM(Load(Without(BaseScenario(), "/kinds/job/handler/db_op_ms")),
                "/kinds/job/handler/db_op_ms", "is required when db_ops > 0");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/kinds/job/handler/db_ops", -1)),
                "/kinds/job/handler/db_ops", "must be >= 0 (got -1)");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/kinds/job/handler/downstream_calls", 5000)),
                "/kinds/job/handler/downstream_calls", "must be <= 1000");
}

TEST_CASE("handlers that use the database or the API need those sections", "[rules]") {
  CHECK_PROBLEM(Load(Without(BaseScenario(), "/database")), "/kinds/job/handler/db_ops",
                "needs a 'database' section");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/downstream", nullptr)),
                "/kinds/job/handler/downstream_calls", "needs a 'downstream' section");
}

TEST_CASE("distributions: one known name, parameters in range", "[rules]") {
  const std::string at = "/kinds/job/handler/cpu_ms";
  auto with = [&](const char* text) { return Load(With(BaseScenario(), at, Json::parse(text))); };
  CHECK_LOADS(with(R"({"constant": 0})"));
  CHECK_LOADS(with(R"({"uniform": {"low": 1, "high": 1}})"));
  CHECK_LOADS(with(R"({"lognormal": {"mu": 1, "sigma": 0.5}})"));
  CHECK_LOADS(with(R"({"normal": {"mean": 10, "sd": 0}})"));
  CHECK_LOADS(with(R"({"empirical": [[1, 5]]})"));
  CHECK_PROBLEM(with(R"({"lognorm": {"median": 1, "p99": 2}})"), at + "/lognorm",
                "unknown distribution \"lognorm\" (did you mean \"lognormal\"?)");
  CHECK_PROBLEM(with(R"({"constant": 1, "exponential": {"mean": 1}})"), at,
                "must have exactly one key");
  CHECK_PROBLEM(with(R"(5)"), at, "must be a distribution such as {\"constant\": 5} (got 5)");
  CHECK_PROBLEM(with(R"({"constant": -1})"), at + "/constant", "must be >= 0 (got -1)");
  CHECK_PROBLEM(with(R"({"uniform": {"low": 3, "high": 1}})"), at + "/uniform/high",
                "must be >= low = 3 (got 1)");
  CHECK_PROBLEM(with(R"({"exponential": {"mean": 0}})"), at + "/exponential/mean",
                "must be > 0 (got 0)");
  CHECK_PROBLEM(with(R"({"lognormal": {"median": 8, "p99": 8}})"), at + "/lognormal/p99",
                "must be > median = 8 (got 8)");
  CHECK_PROBLEM(with(R"({"lognormal": {"median": 0, "p99": 8}})"), at + "/lognormal/median",
                "must be > 0 (got 0)");
  CHECK_PROBLEM(with(R"({"lognormal": {"median": 8, "sigma": 1}})"), at + "/lognormal",
                "either median and p99 or mu and sigma, not both");
  CHECK_PROBLEM(with(R"({"lognormal": {"median": 8}})"), at + "/lognormal/p99", "is required");
  CHECK_PROBLEM(with(R"({"lognormal": {"mu": 1, "sigma": 0}})"), at + "/lognormal/sigma",
                "must be > 0 (got 0)");
  CHECK_PROBLEM(with(R"({"normal": {"mean": 5, "sd": -1}})"), at + "/normal/sd",
                "must be >= 0 (got -1)");
  CHECK_PROBLEM(with(R"({"constant": 1e300})"), at + "/constant", "must be at most 100 years");
}

TEST_CASE("empirical tables increase strictly in probability and end at 1", "[rules]") {
  const std::string at = "/kinds/job/handler/cpu_ms";
  auto with = [&](const char* text) { return Load(With(BaseScenario(), at, Json::parse(text))); };
  CHECK_LOADS(with(R"({"empirical": [[0.5, 3], [0.9, 10], [1.0, 40]]})"));
  CHECK_PROBLEM(with(R"({"empirical": [[0.5, 3], [0.5, 10], [1.0, 40]]})"), at + "/empirical/1/0",
                "probabilities must increase strictly");
  CHECK_PROBLEM(with(R"({"empirical": [[0.5, 3], [0.9, 1], [1.0, 40]]})"), at + "/empirical/1/1",
                "values must not decrease");
  CHECK_PROBLEM(with(R"({"empirical": [[0.5, 3], [0.9, 10]]})"), at + "/empirical/1/0",
                "the last probability must be 1 (got 0.9)");
  CHECK_PROBLEM(with(R"({"empirical": [[0, 3], [1, 10]]})"), at + "/empirical/0/0",
                "must be in (0, 1] (got 0)");
  CHECK_PROBLEM(with(R"({"empirical": []})"), at + "/empirical", "must not be empty");
  CHECK_PROBLEM(with(R"({"empirical": [[0.5, 3, 4]]})"), at + "/empirical/0",
                "must be a [probability, value] pair");
}

TEST_CASE("key patterns: braces, placeholder names, fields every producer sets", "[rules]") {
  const std::string at = "/kinds/job/key_pattern";
  CHECK_LOADS(Load(With(BaseScenario(), at, "job:{kind}:{id}")));
  CHECK_PROBLEM(Load(With(BaseScenario(), at, "job:{id")), at, "has a '{' without its '}'");
  CHECK_PROBLEM(Load(With(BaseScenario(), at, "job:id}")), at, "has a '}' without its '{'");
  CHECK_PROBLEM(Load(With(BaseScenario(), at, "job:{}")), at, "placeholder {} must be a name");
  CHECK_PROBLEM(Load(With(BaseScenario(), at, "job:{a-b}")), at, "placeholder {a-b}");
  const Json tenant = With(BaseScenario(), at, "purge:{tenant}:course-{id}");
  CHECK_PROBLEM(Load(tenant), "/producers/0/fields",
                "misses field \"tenant\", used by the key_pattern \"purge:{tenant}:course-{id}\" "
                "of kind \"job\"");
  CHECK_LOADS(Load(With(tenant, "/producers/0/fields/tenant", "acme")));
  const Json backlog = With(With(tenant, "/producers/0/fields/tenant", "acme"), "/backlog",
                            Json::parse(R"([{"where": "main", "kind": "job", "count": 5}])"));
  CHECK_PROBLEM(Load(backlog), "/backlog/0/fields", "misses field \"tenant\"");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/producers/0/fields/id", "7")), "/producers/0/fields/id",
                "'id' is built in");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/producers/0/fields/date", 7)),
                "/producers/0/fields/date", "must be a string (got 7)");
}

TEST_CASE("producers: exactly one schedule, rates and counts in range", "[rules]") {
  CHECK_PROBLEM(Load(Without(BaseScenario(), "/producers/0/poisson")), "/producers/0",
                "needs a schedule: one of fanout, constant, poisson, burst");
  CHECK_PROBLEM(
      Load(With(BaseScenario(), "/producers/0/burst", Json::parse(R"({"at_s": 0, "count": 1})"))),
      "/producers/0", "has 2 schedules");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/producers/0/poisson/rate_per_s", -5)),
                "/producers/0/poisson/rate_per_s", "must be > 0 (got -5)");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/producers/0/poisson/rate_per_s", 0)),
                "/producers/0/poisson/rate_per_s", "must be > 0 (got 0)");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/producers/0/kind", "jobs")), "/producers/0/kind",
                "unknown kind \"jobs\" (did you mean \"job\"?); kinds are: job");
  const Json fanout = With(Without(BaseScenario(), "/producers/0/poisson"), "/producers/0/fanout",
                           Json::parse(R"({"at_s": 0, "count": 0})"));
  CHECK_PROBLEM(Load(fanout), "/producers/0/fanout/count", "must be >= 1 (got 0)");
  CHECK_PROBLEM(Load(With(fanout, "/producers/0/fanout/at_s", 3600)), "/producers/0/fanout/at_s",
                "must be < run.until_s = 3600 (got 3600)");
  CHECK_PROBLEM(Load(With(fanout, "/producers/0/fanout/every_s", 0)), "/producers/0/fanout/every_s",
                "must be > 0 (got 0)");
}

TEST_CASE("producer windows lie inside the run and are not empty", "[rules]") {
  const std::string at = "/producers/0/poisson";
  CHECK_PROBLEM(Load(With(With(BaseScenario(), at + "/from_s", 600), at + "/until_s", 600)),
                at + "/until_s", "must be > from_s = 600 (got 600)");
  CHECK_PROBLEM(Load(With(BaseScenario(), at + "/until_s", 4000)), at + "/until_s",
                "must be <= run.until_s = 3600 (got 4000)");
  CHECK_PROBLEM(Load(With(BaseScenario(), at + "/from_s", 3600)), at + "/from_s",
                "must be < run.until_s = 3600");
  CHECK_PROBLEM(Load(With(BaseScenario(), at + "/from_s", -1)), at + "/from_s",
                "must be >= 0 (got -1)");
}

TEST_CASE("something must be published", "[rules]") {
  CHECK_PROBLEM(Load(With(BaseScenario(), "/producers", Json::array())), "/producers",
                "the scenario publishes nothing");
  const Json backlog_only = With(With(BaseScenario(), "/producers", Json::array()), "/backlog",
                                 Json::parse(R"([{"where": "dlq", "kind": "job", "count": 5}])"));
  CHECK_LOADS(Load(backlog_only));
}

TEST_CASE("backlog: fields depend on where", "[rules]") {
  auto with = [](const char* entry) {
    return Load(With(BaseScenario(), "/backlog", Json::parse(entry)));
  };
  const LoadResult dlq = with(R"([{"where": "dlq", "kind": "job", "count": 5}])");
  REQUIRE(dlq.ok());
  CHECK(dlq.scenario->backlog[0].reason == config::DlqReason::kMaxAttempts);
  CHECK(dlq.scenario->backlog[0].error == config::ErrorClass::kTransient);
  CHECK(dlq.scenario->backlog[0].attempts == 1);
  CHECK_FALSE(dlq.scenario->backlog[0].due_in.has_value());
  CHECK_PROBLEM(with(R"([{"where": "main", "kind": "job", "count": 5, "reason": "max_attempts"}])"),
                "/backlog/0/reason", "unknown key 'reason' for where 'main'");
  CHECK_PROBLEM(with(R"([{"where": "dlq", "kind": "job", "count": 5, "attempts": 0}])"),
                "/backlog/0/attempts", "must be >= 1 (got 0)");
  CHECK_PROBLEM(with(R"([{"where": "queue", "kind": "job", "count": 5}])"), "/backlog/0/where",
                "must be one of: main, delayed, dlq");
  CHECK_PROBLEM(with(R"([{"where": "delayed", "kind": "job", "count": 5, "due_in_s": 3600}])"),
                "/backlog/0/due_in_s", "must be < run.until_s = 3600");
  CHECK_PROBLEM(with(R"([{"where": "dlq", "kind": "nope", "count": 5}])"), "/backlog/0/kind",
                "unknown kind \"nope\"");
  CHECK_PROBLEM(with(R"([{"where": "dlq", "kind": "job", "count": 5, "reason": "tired"}])"),
                "/backlog/0/reason", "must be one of: max_attempts, not_retryable");
}

TEST_CASE("absurd sizes are refused with the estimate", "[rules][size]") {
  const Json fanout = With(Without(BaseScenario(), "/producers/0/poisson"), "/producers/0/fanout",
                           Json::parse(R"({"at_s": 0, "count": 1000000000, "every_s": 1})"));
  const LoadResult huge = Load(With(fanout, "/run/until_s", 5000));
  CHECK_PROBLEM(huge, "/producers/0/fanout/count",
                "scenario would publish about 5.0e12 messages (~2 PB if all pending at once); "
                "at most 1e9 are supported");
  const LoadResult backlog = Load(With(BaseScenario(), "/backlog",
                                       Json::parse(
                                           R"([{"where": "dlq", "kind": "job", "count": 1000000000},
          {"where": "dlq", "kind": "job", "count": 1000000000}])")));
  CHECK_PROBLEM(backlog, "/backlog/0/count", "scenario would publish about 2.0e9 messages");
}

// Since issue 16 step 4 the loader no longer refuses a scenario because all its messages *could*
// be pending at once (that refused the monthly rehearsal at 1e8 messages, which keeps a few
// thousand pending); the cap on pending messages is checked as the run goes
// (sim/model/memory_cost.h). It still refuses what is certain to exceed that cap's default.
TEST_CASE("many messages over time load, many pending at once from the start do not",
          "[rules][size]") {
  // 3.6e8 published over the hour (was refused: "~139 GB if all pending at once").
  CHECK_LOADS(Load(With(BaseScenario(), "/producers/0/poisson/rate_per_s", 100000)));
  const std::string cap = "may be pending at once (the default cap on pending messages: 16 GiB "
                          "at 210 B a message)";
  // The backlog is created at t = 0: all of it is pending together (entries add up).
  const LoadResult backlog = Load(With(BaseScenario(), "/backlog", Json::parse(R"([
      {"where": "main", "kind": "job", "count": 50000000},
      {"where": "dlq", "kind": "job", "count": 40000000}])")));
  CHECK_PROBLEM(backlog, "/backlog/0/count",
                "the backlog puts about 9.0e7 messages in the queue at once (~19 GB); at most "
                "8.2e7 " + cap);
  CHECK_LOADS(Load(With(BaseScenario(), "/backlog", Json::parse(R"([
      {"where": "main", "kind": "job", "count": 40000000},
      {"where": "dlq", "kind": "job", "count": 40000000}])"))));
  // One burst firing is published in one event; firings spread over time are not.
  const Json burst = Without(BaseScenario(), "/producers/0/poisson");
  CHECK_PROBLEM(Load(With(burst, "/producers/0/burst",
                          Json::parse(R"({"at_s": 10, "count": 90000000})"))),
                "/producers/0/burst/count",
                "one firing publishes about 9.0e7 messages in the queue at once (~35 GB); at "
                "most 8.2e7 " + cap);
  CHECK_LOADS(Load(With(burst, "/producers/0/burst",
                        Json::parse(R"({"at_s": 0, "count": 80000000, "every_s": 600})"))));
  CHECK_PROBLEM(Load(With(burst, "/producers/0/fanout",
                          Json::parse(R"({"at_s": 0, "count": 90000000})"))),
                "/producers/0/fanout/count", "one firing publishes about 9.0e7 messages");
  // A publish rate spreads a fanout's firing over time.
  CHECK_LOADS(Load(With(burst, "/producers/0/fanout",
                        Json::parse(R"({"at_s": 0, "count": 90000000,
                                        "publish_rate_per_s": 100000})"))));
}

}  // namespace
}  // namespace rules_workload_test
}  // namespace drainsim::scenario
