// Plausibility warnings (sim/scenario/plausibility.h): legal values that are almost certainly a
// mistake get a warning at their pointer with the figures behind it; sensible values get none.
// And the one contradiction that is an error: a DLQ backlog or drain without a DLQ.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "tests/scenario/test_support.h"

namespace drainsim::scenario::testing {
namespace plausibility_test {
namespace {

// The warning at `pointer`, or "" when there is none.
std::string WarningAt(const LoadResult& r, const std::string& pointer) {
  const auto it = std::find_if(r.warnings.begin(), r.warnings.end(),
                               [&](const Problem& w) { return w.pointer == pointer; });
  return it == r.warnings.end() ? "" : it->message;
}

TEST_CASE("the base scenario and every shipped one but bullmq's load without warnings",
          "[plausibility]") {
  const LoadResult base = Load(BaseScenario());
  CHECK_LOADS(base);
  CHECK(base.warnings.empty());
  for (const std::string& path : ExampleScenarioPaths()) {
    INFO(path);
    const LoadResult r = LoadScenarioFile(path);
    CHECK_LOADS(r);
    // preset-bullmq.json shows the stalled-job story on purpose: a render of up to 45 s under
    // BullMQ's 30 s lock.
    if (path.find("preset-bullmq.json") != std::string::npos) {
      CHECK(WarningAt(r, "/broker/visibility_timeout_s").find("44.6 s") != std::string::npos);
    } else {
      CHECK(r.warnings.empty());
    }
  }
}

TEST_CASE("a database timeout below the query's p99 is a warning", "[plausibility]") {
  // The issue's case: a 5 ms timeout and queries of median 4 ms (p99 20 ms).
  Json doc = With(BaseScenario(), "/kinds/job/handler/db_op_ms",
                  Json::parse(R"({"lognormal": {"median": 4, "p99": 20}})"));
  const LoadResult low = Load(With(doc, "/database/timeout_ms", 5));
  CHECK_LOADS(low);
  const std::string w = WarningAt(low, "/database/timeout_ms");
  CHECK(w.find("5 ms is below the p99 of kinds/job/handler/db_op_ms (20 ms") != std::string::npos);
  // At the p99 itself, or above: no warning.
  CHECK(WarningAt(Load(With(doc, "/database/timeout_ms", 20.5)), "/database/timeout_ms").empty());
  CHECK(WarningAt(Load(doc), "/database/timeout_ms").empty());  // the default 30 s
}

TEST_CASE("a visibility timeout below an attempt's p99 is a warning", "[plausibility]") {
  // Ten database operations of exactly 500 ms: every attempt takes 5 s, though no single term's
  // p99 is above 0.5 s; the bound over the sum sees it.
  Json doc = With(BaseScenario(), "/kinds/job/handler/db_ops", 10);
  doc = With(doc, "/kinds/job/handler/db_op_ms", Json::parse(R"({"constant": 500})"));
  const LoadResult r = Load(With(doc, "/broker/visibility_timeout_s", 4));
  CHECK_LOADS(r);
  CHECK(WarningAt(r, "/broker/visibility_timeout_s").find("at least 5.01 s") !=
        std::string::npos);  // 10 x 500 ms + one 10 ms downstream call
  CHECK(
      WarningAt(Load(With(doc, "/broker/visibility_timeout_s", 6)), "/broker/visibility_timeout_s")
          .empty());
  // A database operation lasts at most the database's timeout: with a 100 ms timeout the
  // attempt is at most about 1 s, under a 4 s visibility timeout.
  const LoadResult capped =
      Load(With(With(doc, "/broker/visibility_timeout_s", 4), "/database/timeout_ms", 100));
  CHECK(WarningAt(capped, "/broker/visibility_timeout_s").empty());
}

TEST_CASE("a drain faster than the system can ever consume is a warning", "[plausibility]") {
  // 2 workers x 2 slots over a 15 ms attempt: at most 267 attempts/s; the database's 4
  // connections over 5 ms allow 800/s, so the workers bound it.
  Json doc = With(BaseScenario(), "/drains",
                  Json::parse(R"([{"start_at_s": 10, "strategy": "drip", "rate_per_s": 500},
                                  {"start_at_s": 10, "strategy": "drip", "rate_per_s": 100},
                                  {"start_at_s": 10, "strategy": "bulk"}])"));
  const LoadResult r = Load(doc);
  CHECK_LOADS(r);
  const std::string w = WarningAt(r, "/drains/0/rate_per_s");
  CHECK(w.find("at most 267 attempts/s (4 worker slots") != std::string::npos);
  CHECK(WarningAt(r, "/drains/1/rate_per_s").empty());
  CHECK(r.warnings.size() == 1);  // a bulk drain is bulk on purpose
  // With 100 workers the database's 4 connections bound it: 800/s.
  const LoadResult db = Load(With(doc, "/workers/count", 100));
  CHECK(WarningAt(db, "/drains/0/rate_per_s").empty());
  const LoadResult db_bound =
      Load(With(With(doc, "/workers/count", 100), "/drains/0/rate_per_s", 900));
  CHECK(WarningAt(db_bound, "/drains/0/rate_per_s").find("4 database connections") !=
        std::string::npos);
}

TEST_CASE("without a dead-letter queue, a DLQ backlog or a drain is an error", "[plausibility]") {
  // Celery has no DLQ; the drain used to replay a DLQ the broker does not have.
  Json celery = With(BaseScenario(), "/broker", Json::parse(R"({"preset": "celery"})"));
  CHECK_LOADS(Load(celery));
  const LoadResult drain =
      Load(With(celery, "/drains", Json::parse(R"([{"start_at_s": 10, "strategy": "bulk"}])")));
  CHECK_PROBLEM(drain, "/drains/0",
                "replays the DLQ, but broker.dead_letter_queue is false "
                "(preset \"celery\")");
  const LoadResult backlog = Load(
      With(celery, "/backlog", Json::parse(R"([{"kind": "job", "count": 2000, "where": "dlq"}])")));
  CHECK_PROBLEM(backlog, "/backlog/0/where", "puts messages in the DLQ");
  const LoadResult plain = Load(With(BaseScenario(), "/broker/dead_letter_queue", false));
  CHECK_LOADS(plain);
}

}  // namespace
}  // namespace plausibility_test
}  // namespace drainsim::scenario::testing
