// One live worker: a connection of its own, basic.qos prefetch = workers.prefetch, and
// workers.concurrency slot threads that run the handler for real.
//
// The connection thread receives deliveries and hands them to the slots; the slots run the
// handler (below) and hand back what to do; the connection thread acks, rejects or parks, since
// a rabbitmq-c connection belongs to one thread.
//
// The handler, per attempt (the scenario's kinds[K].handler):
//   validate_ms (a sleep in the worker) -> a fated message (x-drainsim-fail) sleeps its
//   fail_after and fails with its class -> otherwise, when the kind touches the database: a
//   pooled connection (waiting at most database.timeout_ms), BEGIN, the claim row for `claim`
//   kinds (INSERT ... ON CONFLICT DO NOTHING: no row inserted means the work was done before,
//   so it commits nothing new and acks), db_ops statements `SELECT pg_sleep(d)` with d drawn
//   from db_op_ms (the time is spent inside the server, holding a connection and a backend),
//   cpu_ms of real CPU, the executions row, COMMIT -> ack.
// A failure is routed by the scenario's retry classes: retry while attempts < attempts_max
// (basic.reject or basic.nack with requeue, as retry.requeue_with says; the broker's
// x-delivery-limit may dead-letter it first), dead_letter (reject without requeue: the DLX
// takes it), park (published to the parking queue with a confirm, then acked).
//
// Faults for real (live/fault_plan.h): when the plan says a success of a message is followed by
// a crash between commit and ack, the worker drops its connection without the AMQP close
// (AmqpConnection::Abort: the broker requeues every unacked delivery at once, a return that
// RabbitMQ 3.10 quorum queues count towards x-delivery-limit), its running handlers roll back
// instead of committing, and after workers.restart_s it reconnects; a crash at any point does the
// same at the plan's instant for this worker index. A lost ack is never sent: the delivery stays
// unacked (holding a prefetch slot) until the broker's consumer timeout closes the channel, which
// returns every unacked delivery of the channel; the worker then reconnects at once, and the
// results of handlers still running are dropped (their delivery tags died with the channel).
//
// Contract:
//  (1) Every delivery received is settled exactly once (ack, reject/nack, park+ack), or left
//      unacked when the run stops, so the broker requeues it when the connection closes; or,
//      under a fault, withheld or dropped with its connection or channel (the broker requeues
//      it), and then taken out of RunState::in_flight once the connection is gone.
//  (2) The loops poll StopRequested() and RunState::workers_done at least every 100 ms.
#pragma once

#include "live/run_state.h"

namespace drainsim::live {

// Runs worker `index` until state.workers_done (or a stop, or an error: state.Fail()).
void RunWorker(RunState& state, int index);

}  // namespace drainsim::live
