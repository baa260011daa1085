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
// Contract:
//  (1) Every delivery received is settled exactly once (ack, reject/nack, park+ack), or left
//      unacked when the run stops, so the broker requeues it when the connection closes.
//  (2) The loops poll StopRequested() and RunState::workers_done at least every 100 ms.
#pragma once

#include "live/run_state.h"

namespace drainsim::live {

// Runs worker `index` until state.workers_done (or a stop, or an error: state.Fail()).
void RunWorker(RunState& state, int index);

}  // namespace drainsim::live
