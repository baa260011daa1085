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
//                (DelayQueueArgs: quorum with at-least-once dead-lettering where RUN.main is a
//                quorum queue, else classic)
//
// Thread-safety: MakeTopology is pure but for the clock and pid in the run id; the others use
// the connection they are given (one thread at a time).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "live/amqp_connection.h"
#include "live/run_state.h"
#include "sim/config/config.h"

namespace drainsim::live {

// The names and queue arguments for scenario `s`, with a fresh run id.
Topology MakeTopology(const config::Scenario& s);

// A delay queue's arguments. Where the main queue is a quorum queue: a quorum queue with
// x-dead-letter-strategy at-least-once and x-overflow reject-publish (what RabbitMQ 3.10 requires
// for it; without reject-publish it falls back to at-most-once), so an expired copy stays in the
// delay queue until the main queue has confirmed it: a copy whose TTL runs out while the broker
// restarts waits for the main queue's leader instead of being dropped (classic queues dead-letter
// at-most-once: RabbitMQ 3.10 dropped 8 of 8 such copies, scenarios/live-restart-retry.json).
// The price is at-least-once: a copy can reach the main queue twice (live/worker.cc counts the
// second as a duplicate copy). No x-max-length: a full delay queue would refuse a republish,
// and a run's copies are bounded by its messages. Where the main queue is classic: a classic
// delay queue, at-most-once, as before (the scenario's broker has classic queues only; a quorum
// delay queue would bring a Raft log write per copy that the scenario does not describe).
// docs/LIVE.md ("Retries with backoff for real") has the sources.
AmqpHeaders DelayQueueArgs(const Topology& t);

// "at-least-once" or "at-most-once": how the delay queues hand their copies back.
const char* DelayDeadLetterStrategy(const Topology& t);

// Declares the exchange and every queue; false on the first error (the connection's error()).
bool Declare(AmqpConnection& c, const Topology& t);

// The delay queues' messages (ready until they expire): nullopt on an error.
std::optional<int64_t> DelayedCount(AmqpConnection& c, const Topology& t);

// Deletes the run's queues and exchange on a connection of its own; best effort (a teardown).
void Undeclare(const std::string& url, const Topology& t);

}  // namespace drainsim::live
