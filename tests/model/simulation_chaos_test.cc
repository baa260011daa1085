// Conservation under every fault kind, one at a time and all together, and Retry-After as
// a client with a (possibly skewed) clock honours it.
#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace simulation_chaos_test {
namespace {

using testing::CheckConserved;
using testing::LoadOrFail;
using testing::RunAudited;

std::string System(const std::string& faults) { return testing::ChaosSystem(faults); }

const std::vector<std::pair<const char*, const char*>> kFaults = {
    {"errors", R"({"type": "errors", "probability": 0.2, "error": "unknown", "fail_after_ms": 200})"},
    {"synthetic_failures", R"({"type": "synthetic_failures", "kind": "purge", "count": 50, "from_s": 60})"},
    {"poison", R"({"type": "poison", "kind": "email", "fraction": 0.1, "fail_after_ms": 1000})"},
    {"bug", R"({"type": "bug", "kind": "purge", "fraction": 0.3, "from_s": 100, "fixed_at_s": 500})"},
    {"db_slowdown", R"({"type": "db_slowdown", "from_s": 200, "until_s": 400, "factor": 30})"},
    {"db_outage", R"({"type": "db_outage", "from_s": 300, "until_s": 360})"},
    {"db_connections", R"({"type": "db_connections", "from_s": 100, "until_s": 500, "connections": 1})"},
    {"downstream_outage", R"({"type": "downstream_outage", "from_s": 100, "until_s": 300})"},
    {"downstream_rate_limit", R"({"type": "downstream_rate_limit", "from_s": 50, "until_s": 450, "rate_limit_per_s": 0.5})"},
    {"worker_crash rate", R"({"type": "worker_crash", "rate_per_h": 60})"},
    {"worker_crash at", R"({"type": "worker_crash", "at_s": 400, "count": 3, "point": "between_commit_and_ack"})"},
    {"ack_loss", R"({"type": "ack_loss", "probability": 0.05})"},
    {"broker_restart", R"({"type": "broker_restart", "at_s": 500, "downtime_s": 30})"},
};

TEST_CASE("every message is accounted for under each fault kind", "[model][sim][conservation]") {
  for (const auto& [name, fault] : kFaults) {
    INFO(name);
    const Results r = RunAudited(LoadOrFail(System(fault)), 3);
    CheckConserved(r);
    CHECK(r.published > 2500);
    // Liveness: with faults bounded in time, nothing is stuck mid-pipeline at the end.
    CHECK(r.not_terminal_end == 0);
  }
}

TEST_CASE("every message is accounted for under all faults at once, for several seeds",
          "[model][sim][conservation]") {
  std::string all;
  for (const auto& [name, fault] : kFaults) {
    if (!all.empty()) all += ',';
    all += fault;
  }
  for (uint64_t seed : {1, 2, 3}) {
    INFO("seed " << seed);
    const Results r = RunAudited(LoadOrFail(System(all)), seed);
    CheckConserved(r);
    CHECK(r.failures_by_class[1] > 0);  // transient
    CHECK(r.dlq_inflow > 0);
  }
}

std::string RateLimited(const char* format, double skew_s) {
  return std::string(R"({"format_version": 1, "name": "429", "run": {"until_s": 3600},
    "kinds": {"call": {"handler": {"downstream_calls": 1}}},
    "producers": [{"kind": "call", "poisson": {"rate_per_s": 1.5, "until_s": 150}}],
    "workers": {"count": 8},
    "downstream": {"rate_limit_per_s": 1, "burst": 1, "retry_after": ")") +
         format + R"(", "clock_skew_s": )" + std::to_string(skew_s) + R"(,
                   "call_ms": {"constant": 50}},
    "retry": {"classes": {"rate_limited": {"action": "retry", "attempts_max": 1000,
                                           "honor_retry_after": true}}}})";
}

TEST_CASE("Retry-After is honoured: no call before the advertised time", "[model][sim][429]") {
  for (const char* format : {"seconds", "http_date"}) {
    INFO(format);
    const Results r = RunAudited(LoadOrFail(RateLimited(format, 0)));
    CheckConserved(r);
    CHECK(r.downstream_429s > 50);  // 1.5/s against 1/s: plenty of 429s
    CHECK(r.calls_before_retry_after == 0);
  }
  SECTION("a server clock ahead of ours only makes clients later") {
    const Results r = RunAudited(LoadOrFail(RateLimited("http_date", 2.5)));
    CHECK(r.calls_before_retry_after == 0);
  }
  SECTION("a server clock behind ours brings clients back early") {
    const Results r = RunAudited(LoadOrFail(RateLimited("http_date", -1.5)));
    CHECK(r.calls_before_retry_after > 0);
  }
}

}  // namespace
}  // namespace simulation_chaos_test
}  // namespace drainsim::model
