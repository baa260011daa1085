// Scenarios for model tests, written as JSON the way users write them, loaded through the real
// loader so the tests exercise the same path as `drainsim run`.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "sim/model/simulation.h"
#include "sim/scenario/load.h"

namespace drainsim::model::testing {

inline config::Scenario LoadOrFail(const std::string& json_text) {
  scenario::LoadResult loaded = scenario::LoadScenarioText(json_text);
  for (const auto& problem : loaded.problems) {
    UNSCOPED_INFO(scenario::FormatProblem("<test scenario>", problem));
  }
  REQUIRE(loaded.ok());
  return *loaded.scenario;
}

// Runs with the audit after every event: any conservation slip fails a check at once.
inline Results RunAudited(const config::Scenario& scenario, uint64_t seed = 1) {
  RunOptions options;
  options.audit_every_event = true;
  return RunSimulation(scenario, seed, options);
}

// A small system with every component, so any fault has something to act on (the chaos tests).
// `purge_cpu_ms` is the purge kind's CPU time as a distribution's JSON.
inline std::string ChaosSystem(const std::string& faults,
                               const std::string& purge_cpu_ms = R"({"constant": 5})",
                               int backoff_cap_s = 30) {
  return R"({"format_version": 1, "name": "chaos", "run": {"until_s": 1200, "sample_every_s": 5},
    "kinds": {
      "purge": {"idempotency": "claim", "handler": {"db_ops": 2, "db_op_ms": {"exponential": {"mean": 20}},
                "cpu_ms": )" +
         purge_cpu_ms + R"(}},
      "email": {"idempotency": "none", "handler": {"db_ops": 1, "db_op_ms": {"constant": 3},
                "downstream_calls": 1, "cpu_ms": {"constant": 2}}}},
    "producers": [{"kind": "purge", "poisson": {"rate_per_s": 4, "until_s": 600}},
                  {"kind": "email", "poisson": {"rate_per_s": 1.5, "until_s": 600}}],
    "backlog": [{"where": "dlq", "kind": "purge", "count": 100, "reason": "max_attempts"},
                {"where": "delayed", "kind": "email", "count": 20, "error": "transient", "due_in_s": 30}],
    "broker": {"visibility_timeout_s": 20, "dlq_retention_s": 1000},
    "workers": {"count": 6, "prefetch": 4, "concurrency": 2, "restart_s": 10},
    "database": {"connections": 8, "timeout_ms": 800,
                 "live_traffic": {"rate_per_s": 20, "query_ms": {"constant": 5}}},
    "downstream": {"rate_limit_per_s": 4, "burst": 4, "call_ms": {"constant": 30}},
    "retry": {"backoff": {"kind": "exponential", "base_s": 1, "cap_s": )" +
         std::to_string(backoff_cap_s) + R"(}},
    "drains": [{"start_at_s": 650, "strategy": "drip", "rate_per_s": 10}],
    "faults": [)" +
         faults + "]}";
}

// Every fault type at once, for ChaosSystem.
inline constexpr const char* kAllFaults = R"(
      {"type": "errors", "probability": 0.2, "error": "unknown", "fail_after_ms": 200},
      {"type": "synthetic_failures", "kind": "purge", "count": 50, "from_s": 60},
      {"type": "poison", "kind": "email", "fraction": 0.1, "fail_after_ms": 1000},
      {"type": "bug", "kind": "purge", "fraction": 0.3, "from_s": 100, "fixed_at_s": 500},
      {"type": "db_slowdown", "from_s": 200, "until_s": 400, "factor": 30},
      {"type": "db_outage", "from_s": 300, "until_s": 360},
      {"type": "db_connections", "from_s": 100, "until_s": 500, "connections": 1},
      {"type": "downstream_outage", "from_s": 100, "until_s": 300},
      {"type": "downstream_rate_limit", "from_s": 50, "until_s": 450, "rate_limit_per_s": 0.5},
      {"type": "worker_crash", "rate_per_h": 60},
      {"type": "worker_crash", "at_s": 400, "count": 3, "point": "between_commit_and_ack"},
      {"type": "ack_loss", "probability": 0.05},
      {"type": "broker_restart", "at_s": 500, "downtime_s": 30})";

// The conservation identity every finished run must satisfy.
inline void CheckConserved(const Results& r) {
  CHECK(r.lost == 0);
  CHECK(r.acked + r.parked + r.expired + r.rejected + r.dlq_end + r.broker_lost +
            r.not_terminal_end ==
        r.published);
  int64_t by_cause = 0;
  for (int64_t n : r.broker_lost_by_cause) by_cause += n;
  CHECK(by_cause == r.broker_lost);
}

}  // namespace drainsim::model::testing
