// The handler a live worker runs for one delivery (see worker.h for the steps), and the retry
// classes' verdict on a failure.
//
// Contract:
//  (1) Durations are drawn from the scenario's distributions with the project's generator, on
//      the stream (seed, "live-handler", id * 1024 + attempt): the same for the same run, but not
//      the simulation's own draws (those are interleaved with its event order).
//  (2) A failure never leaves a transaction open: it rolls back and returns the connection.
//  (3) Every wait inside is bounded: validate/cpu/fail_after by the scenario, the pool wait and
//      each statement by database.timeout_ms.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "live/amqp_connection.h"
#include "live/run_state.h"

namespace drainsim::live {

// kDrop: nothing to settle (its worker crashed; the broker returns the delivery).
// kRetryLater: retry after the backoff (retry.delivery republish or sleep_in_consumer,
// live/retry_plan.h); kRequeue: retry.delivery requeue.
enum class Action { kAck, kRequeue, kRetryLater, kDeadLetter, kPark, kDrop };

struct Verdict {
  Action action = Action::kAck;
  std::string detail;  // "committed", "suppressed", "failed:unknown (injected)", ...
  config::ErrorClass error = config::ErrorClass::kUnknown;  // a failure's class
  // A downstream failure's wait before its retry, instead of the plan's backoff for the
  // (message, attempt) (live/downstream_calls.h): a 429's Retry-After when the rate_limited
  // class honours it, else a draw from the failure's own class backoff. The simulation's 429s
  // and 503s hit other attempts than the live ones (they follow timing), so its recorded delay
  // for the same attempt may be another class's.
  std::optional<int64_t> wait_us = std::nullopt;
};

Verdict RunHandler(RunState& state, const AmqpMessage& message, int64_t id, int attempt,
                   int worker);

}  // namespace drainsim::live
