// Scenarios for model tests, written as JSON the way users write them, loaded through the real
// loader so the tests exercise the same path as `drainsim run`.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "sim/model/simulation.h"
#include "sim/scenario/load.h"

namespace drainsim::model::testing {

inline scenario::Scenario LoadOrFail(const std::string& json_text) {
  scenario::LoadResult loaded = scenario::LoadScenarioText(json_text);
  for (const auto& problem : loaded.problems) {
    UNSCOPED_INFO(scenario::FormatProblem("<test scenario>", problem));
  }
  REQUIRE(loaded.ok());
  return *loaded.scenario;
}

// Runs with the audit after every event: any conservation slip fails a check at once.
inline Results RunAudited(const scenario::Scenario& scenario, uint64_t seed = 1) {
  RunOptions options;
  options.audit_every_event = true;
  return RunSimulation(scenario, seed, options);
}

// The conservation identity every finished run must satisfy.
inline void CheckConserved(const Results& r) {
  CHECK(r.lost == 0);
  CHECK(r.acked + r.parked + r.expired + r.rejected + r.dlq_end + r.not_terminal_end ==
        r.published);
}

}  // namespace drainsim::model::testing
