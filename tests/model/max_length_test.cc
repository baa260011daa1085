// broker.max_length and overflow: exact outcomes on small deterministic scenarios.
#include <catch2/catch.hpp>
#include <string>

#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace max_length_test {
namespace {

using testing::CheckConserved;
using testing::LoadOrFail;
using testing::RunAudited;

// A burst of `burst` messages at t = 0 into `workers` single-slot workers (1 s of CPU each),
// behind a queue of `max_length` ready places.
std::string Burst(int burst, int workers, int max_length, const std::string& overflow) {
  return R"({"format_version": 1, "name": "max-length", "run": {"until_s": 1000},
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1000}}}},
    "producers": [{"kind": "job", "burst": {"at_s": 0, "count": )" +
         std::to_string(burst) + R"(}}],
    "broker": {"max_length": )" + std::to_string(max_length) + R"(, "overflow": ")" + overflow +
         R"(", "dlq_retention_s": null},
    "workers": {"count": )" + std::to_string(workers) + R"(, "prefetch": 1}})";
}

TEST_CASE("reject_publish refuses exactly the publishes beyond workers + max_length",
          "[model][max_length]") {
  for (auto [burst, workers, max_length] :
       {std::tuple{20, 3, 5}, std::tuple{8, 3, 5}, std::tuple{9, 3, 5}, std::tuple{10, 4, 0}}) {
    INFO(burst << " published, " << workers << " workers, max_length " << max_length);
    const Results r = RunAudited(LoadOrFail(Burst(burst, workers, max_length, "reject_publish")));
    CheckConserved(r);
    const int accepted = std::min(burst, workers + max_length);
    CHECK(r.published == burst);
    CHECK(r.rejected == burst - accepted);
    CHECK(r.acked == accepted);
    CHECK(r.dlq_end == 0);
    CHECK(r.attempts == accepted);
  }
}

TEST_CASE("drop_head dead-letters the oldest waiting messages with reason max_length",
          "[model][max_length]") {
  const Results r = RunAudited(LoadOrFail(Burst(20, 3, 5, "drop_head")));
  CheckConserved(r);
  CHECK(r.rejected == 0);
  CHECK(r.acked == 8);    // 3 taken by the workers at once, the 5 newest kept
  CHECK(r.dlq_end == 12);  // messages 3..14, the oldest of those left waiting
  // They never failed, so their error class is the default, unknown.
  REQUIRE(r.dlq_by_reason_error.count("max_length/unknown") == 1);
  CHECK(r.dlq_by_reason_error.at("max_length/unknown") == 12);
  CHECK(r.dlq_by_reason_error.size() == 1);
  // The dropped are the oldest of those left waiting: ids 3..14 (0..2 went to the workers).
  for (const DlqSample& d : r.dlq_sample) {
    CHECK(d.id >= 3);
    CHECK(d.id <= 14);
    CHECK(d.reason == "max_length");
  }
}

TEST_CASE("without max_length nothing overflows", "[model][max_length]") {
  const std::string text = R"({"format_version": 1, "name": "unbounded", "run": {"until_s": 1000},
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1000}}}},
    "producers": [{"kind": "job", "burst": {"at_s": 0, "count": 20}}],
    "workers": {"count": 3}})";
  const Results r = RunAudited(LoadOrFail(text));
  CheckConserved(r);
  CHECK(r.rejected == 0);
  CHECK(r.acked == 20);
}

TEST_CASE("a backlog larger than max_length overflows at the start", "[model][max_length]") {
  const std::string text = R"({"format_version": 1, "name": "backlog", "run": {"until_s": 1000},
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 10}}}},
    "backlog": [{"where": "main", "kind": "job", "count": 100}],
    "broker": {"max_length": 10, "overflow": "reject_publish"},
    "workers": {"count": 2}})";
  const Results r = RunAudited(LoadOrFail(text));
  CheckConserved(r);
  CHECK(r.rejected == 88);
  CHECK(r.acked == 12);
}

}  // namespace
}  // namespace max_length_test
}  // namespace drainsim::model
