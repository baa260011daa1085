// Validation rules of the system, retry, faults, drains, alerts and expectations, plus the
// properties of problem reporting as a whole (all problems, cap, format).
#include <catch2/catch.hpp>

#include "tests/scenario/test_support.h"

namespace drainsim::scenario {
namespace rules_policy_test {
namespace {

using testing::BaseScenario;
using testing::Json;
using testing::Load;
using testing::With;
using testing::Without;

Json WithFault(const char* fault) {
  return With(BaseScenario(), "/faults", Json::array({Json::parse(fault)}));
}
Json WithDrain(const char* drain) {
  return With(BaseScenario(), "/drains", Json::array({Json::parse(drain)}));
}
Json WithExpect(const char* expectation) {
  return With(BaseScenario(), "/expect", Json::array({Json::parse(expectation)}));
}

TEST_CASE("workers: count required, concurrency <= prefetch", "[rules]") {
  CHECK_PROBLEM(Load(Without(BaseScenario(), "/workers/count")), "/workers/count", "is required");
  CHECK_PROBLEM(Load(Without(BaseScenario(), "/workers")), "/workers", "is required");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/workers/concurrency", 5)), "/workers/concurrency",
                "must be <= prefetch = 4 (got 5)");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/workers/count", -5)), "/workers/count",
                "must be >= 1 (got -5)");
  // The default prefetch is 1, so a larger concurrency needs a prefetch.
  CHECK_PROBLEM(Load(Without(BaseScenario(), "/workers/prefetch")), "/workers/concurrency",
                "must be <= prefetch = 1 (got 2)");
}

TEST_CASE("broker: strict enums, nullable limits", "[rules]") {
  CHECK_PROBLEM(Load(With(BaseScenario(), "/broker/preset", "activemq")), "/broker/preset",
                "must be one of: sqs, rabbitmq-quorum, sidekiq, celery, bullmq, pubsub, "
                "azure-service-bus, nats-jetstream, kafka, kafka-share");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/broker/visibility_timeout_s", 0)),
                "/broker/visibility_timeout_s", "must be > 0 (got 0)");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/broker/receive_count_max", 0)),
                "/broker/receive_count_max", "must be >= 1 (got 0)");
  const LoadResult forever = Load(With(BaseScenario(), "/broker/dlq_retention_s", nullptr));
  REQUIRE(forever.ok());
  CHECK_FALSE(forever.scenario->broker.dlq_retention.has_value());
  const LoadResult fallback = Load(BaseScenario());
  REQUIRE(fallback.ok());
  CHECK(fallback.scenario->broker.dlq_retention == engine::Duration::Seconds(1209600));
}

TEST_CASE("broker: dead-lettering settings that only mean something together", "[rules]") {
  const Json refusing = With(BaseScenario(), "/broker/dlq_overflow", "reject_publish");
  CHECK_PROBLEM(Load(refusing), "/broker/dlq_overflow",
                "reject_publish needs broker.dlq_max_length: a DLQ without a length cap never "
                "refuses");
  const Json capped = With(refusing, "/broker/dlq_max_length", 10);
  CHECK(Load(capped).ok());
  CHECK_PROBLEM(Load(With(capped, "/broker/dlq_trim", "on_dead_letter")), "/broker/dlq_overflow",
                "reject_publish refuses dead letters at dlq_max_length, but dlq_trim "
                "on_dead_letter removes the oldest to make room: choose one");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/broker/without_dlq", "dropped")), "/broker/without_dlq",
                "applies only with dead_letter_queue false");
  const Json no_dlq = With(BaseScenario(), "/broker/dead_letter_queue", false);
  CHECK_PROBLEM(Load(With(no_dlq, "/broker/dead_letter_strategy", "at_least_once")),
                "/broker/dead_letter_strategy",
                "applies only with a DLQ (dead_letter_queue is false)");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/broker/dead_letter_strategy", "twice")),
                "/broker/dead_letter_strategy", "must be one of: at_most_once, at_least_once");
}

TEST_CASE("database and downstream: ranges and required fields", "[rules]") {
  CHECK_PROBLEM(Load(Without(BaseScenario(), "/database/connections")), "/database/connections",
                "is required");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/database/overload_factor", -0.5)),
                "/database/overload_factor", "must be >= 0 (got -0.5)");
  CHECK_PROBLEM(
      Load(With(BaseScenario(), "/database/live_traffic", Json::parse(R"({"rate_per_s": 10})"))),
      "/database/live_traffic/query_ms", "is required");
  CHECK_PROBLEM(Load(Without(BaseScenario(), "/downstream/call_ms")), "/downstream/call_ms",
                "is required");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/downstream/retry_after", "date")),
                "/downstream/retry_after", "must be one of: seconds, http_date, none");
  const LoadResult burst = Load(With(BaseScenario(), "/downstream/rate_limit_per_s", 12.5));
  REQUIRE(burst.ok());
  CHECK(burst.scenario->downstream->burst == 13);
}

TEST_CASE("retry: backoff caps, jitter ranges, class routes", "[rules]") {
  const Json exp = Json::parse(R"({"kind": "exponential", "base_s": 10, "cap_s": 5})");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/retry/backoff", exp)), "/retry/backoff/cap_s",
                "must be >= base_s = 10 (got 5)");
  const Json linear = Json::parse(R"({"kind": "linear", "base_s": 1, "step_s": 1, "cap_s": 9,
                                      "factor": 2})");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/retry/backoff", linear)), "/retry/backoff/factor",
                "unknown key 'factor' for backoff kind 'linear'");
  const Json jitter = Json::parse(R"({"kind": "sidekiq", "jitter":
                                      {"kind": "proportional", "low": 1, "high": 0.5}})");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/retry/backoff", jitter)), "/retry/backoff/jitter/high",
                "must be >= low = 1 (got 0.5)");
  const Json decorrelated = Json::parse(R"({"kind": "constant", "delay_s": 1,
                                            "jitter": {"kind": "decorrelated"}})");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/retry/backoff", decorrelated)),
                "/retry/backoff/jitter/kind", "decorrelated jitter needs an exponential");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/retry/classes/permanent/attempts_max", 3)),
                "/retry/classes/permanent/attempts_max", "applies only when action is 'retry'");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/retry/classes/transient/honor_retry_after", true)),
                "/retry/classes/transient/honor_retry_after",
                "applies only to class 'rate_limited'");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/retry/classes/transeint", Json::object())),
                "/retry/classes/transeint", "(did you mean 'transient'?)");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/retry/classes/transient/action", "requeue")),
                "/retry/classes/transient/action", "must be one of: retry, dead_letter, park");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/retry/budget/ratio", 1.5)), "/retry/budget/ratio",
                "must be in [0, 1] (got 1.5)");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/retry/circuit_breaker/error_rate_open", 0)),
                "/retry/circuit_breaker/error_rate_open", "must be in (0, 1] (got 0)");
  const LoadResult made_retryable =
      Load(With(BaseScenario(), "/retry/classes/permanent/action", "retry"));
  REQUIRE(made_retryable.ok());
  CHECK(made_retryable.scenario->retry.classes.permanent.attempts_max == 2);
}

TEST_CASE("faults: windows inside the run, references, sections", "[rules]") {
  CHECK_LOADS(Load(WithFault(R"({"type": "db_outage", "from_s": 10, "until_s": 20})")));
  CHECK_PROBLEM(Load(WithFault(R"({"type": "db_outage", "from_s": 20, "until_s": 10})")),
                "/faults/0/until_s", "must be > from_s = 20 (got 10)");
  CHECK_PROBLEM(Load(WithFault(R"({"type": "db_outage", "from_s": 10, "until_s": 5000})")),
                "/faults/0/until_s", "must be <= run.until_s = 3600 (got 5000)");
  CHECK_PROBLEM(Load(WithFault(R"({"type": "db_outage", "from_s": 10})")), "/faults/0/until_s",
                "is required");
  CHECK_PROBLEM(Load(WithFault(R"({"type": "db_outtage", "from_s": 1, "until_s": 2})")),
                "/faults/0/type", "did you mean \"db_outage\"?");
  CHECK_PROBLEM(Load(WithFault(R"({"type": "db_slowdown", "from_s": 1, "until_s": 2,
                                   "factor": 0.5})")),
                "/faults/0/factor", "must be >= 1 (got 0.5)");
  CHECK_PROBLEM(Load(WithFault(R"({"type": "errors", "probability": 1.5})")),
                "/faults/0/probability", "must be in [0, 1] (got 1.5)");
  CHECK_PROBLEM(Load(WithFault(R"({"type": "ack_loss", "probability": -0.1})")),
                "/faults/0/probability", "must be in [0, 1] (got -0.1)");
  CHECK_PROBLEM(Load(WithFault(R"({"type": "synthetic_failures", "kind": "jbo", "count": 5})")),
                "/faults/0/kind", "unknown kind \"jbo\" (did you mean \"job\"?)");
  CHECK_PROBLEM(Load(WithFault(R"({"type": "broker_restart", "at_s": 3600})")), "/faults/0/at_s",
                "must be < run.until_s = 3600 (got 3600)");
  // recovery_s (issue 14): a duration like downtime_s, 0..86400.
  CHECK_PROBLEM(Load(WithFault(R"({"type": "broker_restart", "at_s": 1, "recovery_s": -0.5})")),
                "/faults/0/recovery_s", "must be >= 0 (got -0.5)");
  CHECK_PROBLEM(Load(WithFault(R"({"type": "broker_restart", "at_s": 1, "recovery_s": 9e4})")),
                "/faults/0/recovery_s", "must be <= 86400 (got 90000)");
  CHECK_PROBLEM(Load(WithFault(R"({"type": "broker_restart", "at_s": 1, "recovery_s": "1s"})")),
                "/faults/0/recovery_s", "must be a number");
  CHECK_PROBLEM(Load(WithFault(R"({"type": "db_outage", "from_s": 1, "until_s": 2,
                                   "factor": 3})")),
                "/faults/0/factor", "unknown key 'factor' for type 'db_outage'");
  CHECK_PROBLEM(Load(With(WithFault(R"({"type": "downstream_outage", "from_s": 1,
                                        "until_s": 2})"),
                          "/downstream", nullptr)),
                "/faults/0/type", "needs a 'downstream' section");
}

TEST_CASE("faults: exactly-one pairs and bug fixes", "[rules]") {
  CHECK_PROBLEM(Load(WithFault(R"({"type": "poison", "kind": "job"})")), "/faults/0",
                "needs exactly one of count, fraction");
  CHECK_PROBLEM(Load(WithFault(R"({"type": "poison", "kind": "job", "count": 1,
                                   "fraction": 0.5})")),
                "/faults/0", "needs exactly one of count, fraction (got both)");
  CHECK_LOADS(Load(WithFault(R"({"type": "poison", "kind": "job", "count": 10,
                                 "fraction": null})")));
  CHECK_PROBLEM(Load(WithFault(R"({"type": "worker_crash", "rate_per_h": 1, "at_s": 5})")),
                "/faults/0", "needs exactly one of rate_per_h, at_s (got both)");
  CHECK_PROBLEM(Load(WithFault(R"({"type": "worker_crash", "at_s": 5, "count": 3})")),
                "/faults/0/count", "must be <= 2 (got 3)");
  CHECK_PROBLEM(Load(WithFault(R"({"type": "worker_crash", "at_s": 5, "from_s": 1})")),
                "/faults/0/from_s", "applies only with rate_per_h");
  CHECK_PROBLEM(Load(WithFault(R"({"type": "worker_crash", "rate_per_h": 5,
                                   "point": "before_commit"})")),
                "/faults/0/point", "must be one of: anywhere, between_commit_and_ack");
  CHECK_PROBLEM(Load(WithFault(R"({"type": "bug", "kind": "job", "fraction": 0.5,
                                   "from_s": 100, "fixed_at_s": 50})")),
                "/faults/0/fixed_at_s", "must be > from_s = 100 (got 50)");
  CHECK_PROBLEM(Load(WithFault(R"({"type": "bug", "kind": "job", "fraction": 0})")),
                "/faults/0/fraction", "must be in (0, 1] (got 0)");
}

TEST_CASE("faults on the database need a database", "[rules]") {
  Json document = WithFault(R"({"type": "db_slowdown", "from_s": 1, "until_s": 2, "factor": 2})");
  document = With(document, "/kinds/job/handler/db_ops", 0);
  document.erase("database");
  CHECK_PROBLEM(Load(document), "/faults/0/type", "needs a 'database' section");
}

TEST_CASE("drains: a start, fields per strategy, selections", "[rules]") {
  CHECK_LOADS(Load(WithDrain(R"({"start_at_s": 60, "strategy": "bulk"})")));
  CHECK_PROBLEM(Load(WithDrain(R"({"strategy": "bulk"})")), "/drains/0",
                "needs exactly one of start_at_s, start_after_fix_s");
  CHECK_PROBLEM(Load(WithDrain(R"({"start_at_s": 60, "strategy": "drip"})")),
                "/drains/0/rate_per_s", "is required");
  CHECK_PROBLEM(Load(WithDrain(R"({"start_at_s": 60, "strategy": "drip", "rate_per_s": -5})")),
                "/drains/0/rate_per_s", "must be >= 1e-09 (got -5)");
  CHECK_PROBLEM(Load(WithDrain(R"({"start_at_s": 60, "strategy": "bounded"})")), "/drains/0/limit",
                "is required for strategy 'bounded'");
  CHECK_PROBLEM(Load(WithDrain(R"({"start_at_s": 60, "strategy": "bulk", "rate_per_s": 5})")),
                "/drains/0/rate_per_s", "unknown key 'rate_per_s' for strategy 'bulk'");
  CHECK_PROBLEM(Load(WithDrain(R"({"start_at_s": 60, "strategy": "trickle"})")),
                "/drains/0/strategy", "must be one of: bulk, drip, bounded, adaptive");
  CHECK_PROBLEM(Load(WithDrain(R"({"start_at_s": 60, "strategy": "adaptive", "rate_min_per_s": 10,
                                   "rate_max_per_s": 5, "increase_per_s": 1,
                                   "latency_target_ms": 50})")),
                "/drains/0/rate_max_per_s", "must be >= rate_min_per_s = 10 (got 5)");
  CHECK_PROBLEM(Load(WithDrain(R"({"start_at_s": 60, "strategy": "adaptive", "rate_min_per_s": 1,
                                   "rate_max_per_s": 5, "increase_per_s": 1,
                                   "latency_target_ms": 50, "decrease_factor": 1})")),
                "/drains/0/decrease_factor", "must be in (0, 1) (got 1)");
  CHECK_PROBLEM(Load(WithDrain(R"({"start_at_s": 60, "strategy": "bulk",
                                   "select": {"reasons": []}})")),
                "/drains/0/select/reasons", "must not be empty");
  CHECK_PROBLEM(Load(WithDrain(R"({"start_at_s": 60, "strategy": "bulk",
                                   "select": {"reasons": ["max_attempts", "max_attempts"]}})")),
                "/drains/0/select/reasons/1", "repeats \"max_attempts\"");
  CHECK_PROBLEM(Load(WithDrain(R"({"start_at_s": 60, "strategy": "bulk",
                                   "select": {"kinds": ["nope"]}})")),
                "/drains/0/select/kinds/0", "unknown kind \"nope\"");
  CHECK_PROBLEM(Load(WithDrain(R"({"start_at_s": 60, "strategy": "bulk", "others": "drop"})")),
                "/drains/0/others", "must be one of: park, leave");
}

TEST_CASE("drains after a fix need a bug fault with a fix inside the run", "[rules]") {
  CHECK_PROBLEM(Load(WithDrain(R"({"start_after_fix_s": 60, "strategy": "bulk"})")),
                "/drains/0/start_after_fix_s", "needs a 'bug' fault with fixed_at_s");
  Json document = WithDrain(R"({"start_after_fix_s": 60, "strategy": "bulk"})");
  document["faults"] = Json::parse(
      R"([{"type": "bug", "kind": "job", "fraction": 1, "fixed_at_s": 600},
          {"type": "bug", "kind": "job", "fraction": 1, "fixed_at_s": 3550}])");
  CHECK_PROBLEM(Load(document), "/drains/0/start_after_fix_s",
                "starts the drain at 3610 s, not before run.until_s = 3600");
  document["faults"][1]["fixed_at_s"] = 1200;
  const LoadResult ok = Load(document);
  CHECK_LOADS(ok);
}

TEST_CASE("adaptive drains need a database", "[rules]") {
  Json document = WithDrain(R"({"start_at_s": 60, "strategy": "adaptive", "rate_min_per_s": 1,
                                "rate_max_per_s": 5, "increase_per_s": 1,
                                "latency_target_ms": 50})");
  CHECK_LOADS(Load(document));
  document = With(document, "/kinds/job/handler/db_ops", 0);
  document.erase("database");
  CHECK_PROBLEM(Load(document), "/drains/0/strategy", "'adaptive' needs a 'database' section");
}

TEST_CASE("expectations: bounds, heads, metric rules", "[rules]") {
  CHECK_LOADS(Load(WithExpect(R"({"metric": "lost", "equals": 0})")));
  CHECK_LOADS(Load(WithExpect(R"({"sometimes": "dlq_depth", "min": 1})")));
  CHECK_PROBLEM(Load(WithExpect(R"({"metric": "lost"})")), "/expect/0",
                "needs a bound: min, max or equals");
  CHECK_PROBLEM(Load(WithExpect(R"({"metric": "lost", "min": 5, "max": 1})")), "/expect/0/max",
                "must be >= min = 5 (got 1)");
  CHECK_PROBLEM(Load(WithExpect(R"({"metric": "lost", "min": 0, "equals": 0})")),
                "/expect/0/equals", "cannot be combined with min or max");
  CHECK_PROBLEM(Load(WithExpect(R"({"metric": "lots", "equals": 0})")), "/expect/0/metric",
                "did you mean \"lost\"?");
  CHECK_PROBLEM(Load(WithExpect(R"({"metric": "lost", "always": "depth", "max": 1})")), "/expect/0",
                "needs exactly one of metric, always, sometimes");
  CHECK_PROBLEM(Load(WithExpect(R"({"always": "time_to_empty_s", "max": 1})")), "/expect/0/always",
                "must be one of: depth, delayed_depth");
  CHECK_PROBLEM(Load(WithExpect(R"({"always": "live_p99_ms", "max": 250})")), "/expect/0/always",
                "\"live_p99_ms\" needs database.live_traffic");
  CHECK_PROBLEM(Load(WithExpect(R"({"always": "depth", "max": 250, "during": "drains"})")),
                "/expect/0/during", "'drains' needs at least one drain");
  CHECK_PROBLEM(Load(WithExpect(R"({"always": "depth", "max": 250, "during": "faults"})")),
                "/expect/0/during", "'faults' needs a fault with a time window");
  CHECK_PROBLEM(Load(WithExpect(R"({"metric": "time_to_empty_s", "max": 250})")),
                "/expect/0/metric", "needs a drain");
  CHECK_PROBLEM(Load(WithExpect(R"({"metric": "age_alert_first_s", "max": 250})")),
                "/expect/0/metric", "needs alerts.oldest_age_s");
  CHECK_PROBLEM(Load(WithExpect(R"({"metric": "db_timeouts", "kind": "job", "max": 0})")),
                "/expect/0/kind", "which is not per kind");
  CHECK_PROBLEM(Load(WithExpect(R"({"metric": "visible_duplicates", "kind": "jb", "max": 0})")),
                "/expect/0/kind", "unknown kind \"jb\"");
  CHECK_PROBLEM(Load(WithExpect(R"({"always": "depth", "kind": "job", "max": 0})")),
                "/expect/0/kind", "unknown key 'kind' for an 'always' expectation");
  const Json drained = With(WithExpect(R"({"metric": "lost", "equals": 0, "during": "drains"})"),
                            "/drains", Json::parse(R"([{"start_at_s": 1, "strategy": "bulk"}])"));
  CHECK_PROBLEM(Load(drained), "/expect/0/during", "must be 'run' for \"lost\"");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/expect", "lost")), "/expect",
                "must be an array of expectations or an object of metric bounds (got string");
}

TEST_CASE("alerts: thresholds in range", "[rules]") {
  CHECK_PROBLEM(Load(With(BaseScenario(), "/alerts/oldest_age_s", 0)), "/alerts/oldest_age_s",
                "must be > 0 (got 0)");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/alerts/depth", -1)), "/alerts/depth",
                "must be >= 0 (got -1)");
  CHECK_PROBLEM(Load(With(BaseScenario(), "/alerts/dlq_dept", 0)), "/alerts/dlq_dept",
                "did you mean 'dlq_depth'?");
}

TEST_CASE("every problem is reported, each at its own pointer", "[rules]") {
  Json document = BaseScenario();
  document["workers"]["concurrency"] = 9;                                    // > prefetch
  document["producers"][0]["poisson"]["rate_per_sec"] = 3;                   // unknown key
  document["broker"] = Json::parse(R"({"requeue_on_crash": "sometimes"})");  // bad enum
  const LoadResult r = Load(document);
  INFO(testing::Describe(r));
  REQUIRE(r.problems.size() == 3);
  CHECK(testing::HasProblem(r, "/workers/concurrency", "must be <= prefetch"));
  CHECK(testing::HasProblem(r, "/producers/0/poisson/rate_per_sec", "unknown key"));
  CHECK(testing::HasProblem(r, "/broker/requeue_on_crash", "must be one of"));
}

TEST_CASE("a flood of problems is capped with a count of the rest", "[rules]") {
  Json document = BaseScenario();
  for (int i = 0; i < 300; ++i) document["workers"]["extra_" + std::to_string(i)] = i;
  const LoadResult r = Load(document);
  REQUIRE(r.problems.size() == 201);
  CHECK(r.problems.back().pointer.empty());
  CHECK(r.problems.back().message == "100 more problems not shown");
  // A hundred thousand unknown keys cost no more than counting them.
  for (int i = 300; i < 100000; ++i) document["workers"]["extra_" + std::to_string(i)] = i;
  const LoadResult flood = Load(document);
  CHECK(flood.problems.back().message == "99800 more problems not shown");
}

TEST_CASE("FormatProblem: FILE: /pointer: message, or FILE: message", "[rules]") {
  CHECK(FormatProblem("x.json", {"/drains/0/rate_per_s", "must be > 0 (got -5)"}) ==
        "x.json: /drains/0/rate_per_s: must be > 0 (got -5)");
  CHECK(FormatProblem("x.json", {"", "no such file"}) == "x.json: no such file");
  CHECK(FormatProblem("x.json", {"/a\nb", "m\x1b[31m"}) == "x.json: /a\\x0Ab: m\\x1B[31m");
}

}  // namespace
}  // namespace rules_policy_test
}  // namespace drainsim::scenario
