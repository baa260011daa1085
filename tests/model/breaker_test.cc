// The circuit breaker's half-open period when its probes die (issue 20: the swarm found runs
// that stopped with the queue full and every worker idle).
#include <catch2/catch.hpp>
#include <string>

#include "tests/model/scenario_fixture.h"

namespace drainsim::model {
namespace breaker_test {
namespace {

using testing::CheckConserved;
using testing::LoadOrFail;
using testing::RunAudited;

// One job a second for 60 s on two single-slot workers; every attempt in [10, 20) s fails and
// is dead-lettered, which opens the breaker at 15 s; it turns half-open at 35 s and lets two
// probes through (the messages published at 16 and 17 s), each running 1 s. `crash` kills
// both probes' workers before they report an outcome.
std::string ProbesDie(const std::string& crash) {
  return R"({"format_version": 1, "name": "probe-crash", "run": {"until_s": 300},
    "kinds": {"job": {"handler": {"cpu_ms": {"constant": 1000}}}},
    "producers": [{"kind": "job", "constant": {"rate_per_s": 1, "until_s": 60}}],
    "workers": {"count": 2, "prefetch": 1, "concurrency": 1, "restart_s": 5},
    "retry": {"classes": {"transient": {"action": "dead_letter"}},
              "circuit_breaker": {"error_rate_open": 0.5, "window_s": 10, "open_s": 20,
                                  "half_open_probes": 2, "attempts_min": 3}},
    "faults": [{"type": "errors", "probability": 1.0, "from_s": 10, "until_s": 20}, )" +
         crash + "]}";
}

void CheckRecovered(const Results& r) {
  CheckConserved(r);
  CHECK(r.breaker_openings == 1);
  CHECK(r.dlq_end == 6);  // the failures of [10, 15] s
  // Seen failing before the fix: 44 unfinished, the run ended at 59 s with the queue full.
  CHECK(r.not_terminal_end == 0);
  CHECK(r.acked == r.published - r.dlq_end);
}

TEST_CASE("breaker: probes whose workers die between commit and ack are probed again") {
  // Both workers are armed while the breaker is open; their next commits are the probes'.
  CheckRecovered(RunAudited(LoadOrFail(ProbesDie(
      R"({"type": "worker_crash", "at_s": 25, "count": 2, "point": "between_commit_and_ack"})"))));
}

TEST_CASE("breaker: probes whose workers crash mid-attempt are probed again") {
  CheckRecovered(
      RunAudited(LoadOrFail(ProbesDie(R"({"type": "worker_crash", "at_s": 35.5, "count": 2})"))));
}

}  // namespace
}  // namespace breaker_test
}  // namespace drainsim::model
