// The downstream calls of one live attempt (the scenario's handler.downstream_calls), where the
// simulation makes them: after the claim and the db_ops, before cpu_ms (sim/model/
// world_attempt.cc, BeginCallsOrCpu). Each goes to the run's downstream server
// (live/downstream_server.h) on the calling slot's own keep-alive connection.
//
// Contract:
//  (1) The calls run one after another; the first that is not answered 200 ends the attempt
//      (the model's Fail: a 429 with class rate_limited, a 503 transient); the rest are not made.
//  (2) Every call is counted (RunState::downstream_calls, as the model's downstream_calls counts
//      a call answered 429 or 503 too) and logged to live-events.jsonl as "downstream_call" with
//      detail "status=S n=N" (and "retry_after=V" on a 429 with the header, "error=..." when no
//      answer came); 429s, 503s and calls with no answer have counters of their own.
//  (3) retry_after_us is set on a 429 whose Retry-After the client could read
//      (RetryAfterWaitUs), from the instant the answer came.
// REQUIRES: state.downstream_port is a server's port (the scenario has a downstream section).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "live/run_state.h"

namespace drainsim::live {

struct CallsOutcome {
  bool ok = true;
  int status = 200;  // the failing call's: 429, 503, 400; 0 when no answer came
  std::optional<int64_t> retry_after_us;
  std::string detail;
};

CallsOutcome MakeDownstreamCalls(RunState& state, uint64_t id, int attempt, int worker,
                                 int64_t calls);

}  // namespace drainsim::live
