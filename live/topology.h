// The run's RabbitMQ topology (live/run_state.h's Topology): its names, declared before the run
// and deleted after it. Every name carries the run id (drainsim_live_PID_HEX), so a shared broker
// (--amqp) never mixes runs and the teardown deletes only the run's own queues and exchange.
//
//   RUN.main     the main queue: quorum with x-delivery-limit where the scenario's broker rules
//                call for it, else classic; dead-letters to RUN.dlx
//   RUN.dlx      a fanout exchange bound to RUN.dlq
//   RUN.dlq      the DLQ; RUN.parked the parking queue
//   RUN.delay.Nms  with republish: one delay queue per delay level (live/retry_plan.h), whose
//                expired messages go back to RUN.main through the default exchange
//
// Thread-safety: MakeTopology is pure but for the clock and pid in the run id; the others use
// the connection they are given (one thread at a time).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "live/amqp_connection.h"
#include "live/run_state.h"
#include "sim/scenario/scenario.h"

namespace drainsim::live {

// The names and queue arguments for scenario `s`, with a fresh run id.
Topology MakeTopology(const scenario::Scenario& s);

// Declares the exchange and every queue; false on the first error (the connection's error()).
bool Declare(AmqpConnection& c, const Topology& t);

// The delay queues' messages (ready until they expire): nullopt on an error.
std::optional<int64_t> DelayedCount(AmqpConnection& c, const Topology& t);

// Deletes the run's queues and exchange on a connection of its own; best effort (a teardown).
void Undeclare(const std::string& url, const Topology& t);

}  // namespace drainsim::live
