// The producers of a live run: the plan's publishes at their planned instants (the scenario's
// rates, the simulation's draws), with publisher confirms.
//
// Contract:
//  (1) Message i of the plan is published at run start + publish_at_s (or as soon after as the
//      broker lets us), in id order, on one connection in confirm mode, with message_id = i and
//      headers x-drainsim-id, -kind, -key (and -fail, -fail-after-ms, -fault for a fated one).
//  (2) At most kUnconfirmedMax publishes are unconfirmed at once; the loop is bounded by the
//      plan's length and stops early on StopRequested() or `deadline`.
//  (3) Returns how many publishes the broker confirmed (the first `confirmed` ids of the plan
//      that are not in the DLQ at the start: live/drainer.h's SeedDlq puts those there).
//  (4) Under a broker_restart (RunState::reconnect), a connection the broker dropped is opened
//      again (live/reconnect.h) and every publish not yet confirmed is sent again, in order,
//      before the plan goes on: at-least-once, so a copy the broker had taken before it went
//      away is a duplicate (RunState::publishes_resent counts the copies sent again).
#pragma once

#include <chrono>
#include <cstdint>

#include "live/amqp_connection.h"
#include "live/run_state.h"

namespace drainsim::live {

inline constexpr uint64_t kUnconfirmedMax = 2000;

// The headers of message m's publish: x-drainsim-id, -kind, -key, -attempt, and for a fated
// message -fail, -fault, -fail-after-us.
AmqpHeaders PublishHeaders(const PlannedMessage& m);

struct ProducerResult {
  uint64_t published = 0;
  uint64_t confirmed = 0;
  double last_publish_s = 0;
};

ProducerResult RunProducer(RunState& state, std::chrono::steady_clock::time_point start,
                           std::chrono::steady_clock::time_point deadline);

}  // namespace drainsim::live
