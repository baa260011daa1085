// What `drainsim explain --message ID` records for the explain tests: the scenario run with the
// recorder explain uses, kept to one message's life.
#pragma once

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>

#include "sim/config/config.h"
#include "sim/model/simulation.h"
#include "sim/model/trace_log.h"

namespace drainsim::reports::testing {

// The trace `options` select, recorded over the whole run as explain records it.
inline model::TraceLog Recorded(const config::Scenario& s, const model::TraceOptions& options) {
  model::TraceRecorder recorder(s, options);
  model::RunOptions run_options;
  run_options.observer = &recorder;
  const model::Results results = model::RunSimulation(s, s.seed, run_options);
  return recorder.Finish(engine::Instant::Micros(std::llround(results.ended_at_s * 1e6)));
}

// The trace of message `id` alone (`--message ID`: its one life). Fails the test if the message
// had no life.
inline model::TraceLog TraceOfMessage(const config::Scenario& s, uint64_t id) {
  model::TraceOptions options;
  options.spans = false;
  options.only_id = id;
  model::TraceLog log = Recorded(s, options);
  REQUIRE(log.lives.size() == 1);
  return log;
}

}  // namespace drainsim::reports::testing
