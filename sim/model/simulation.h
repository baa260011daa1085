// One run of a scenario: the queue-recovery model on top of the engine.
//
// RunSimulation builds the run's World (sim/model/world.h), which owns every piece of a run's
// state (messages, broker queues, workers, database, downstream, faults, metrics) and advances
// it event by event. It reads a loaded Scenario and writes Results; it knows nothing of files,
// the CLI or report formats.
//
// Invariants (checked):
//  (1) Simulated time never decreases.
//  (2) Every published message is in exactly one state: the ledger's counts sum to the number
//      published after every event, every transition checks the message's record against its
//      last transition (MessageStore, message.h (4)), and an audit recounts the message records
//      against the ledger (with RunOptions::audit_every_event: the counts kept per state
//      checked after every event and the full recount every max(4096, record slots) events;
//      else the recount at samples 1, 2, 4, 8, ..., at every sample while that costs no more
//      than the events processed; always at the end of the run).
//  (3) A run processes at most run.events_max events; a run that needs more stops with
//      Results::events_max_reached set rather than running away.
//  (4) Same scenario + same seed -> identical Results, fingerprint included, with or without
//      an observer (RunOptions::observer).
//  (5) A run that ends because nothing is left to happen, before run.until, leaves every
//      message at rest: acked, parked, expired, rejected or in the DLQ. A message still ready,
//      delayed or in flight then would never move again (a stall: issue 20); the run reports
//      it as Results::model_error ("quiet_end") instead of passing for a finished run.
//  (6) At most RunOptions::pending_messages_max messages are pending at once (live records:
//      ready, delayed, in flight, in the DLQ, or terminal and still held by a worker). The
//      message that would be one more is not created: RunSimulation throws
//      PendingMessagesMaxExceeded (sim/model/memory_cost.h), naming the scenario, the seed and
//      the simulated instant, and returns no Results. Where a run stops depends only on the
//      scenario, the seed and the cap (deterministic), never on the machine.
//
// Thread-safety: a run (its World) is used by one thread; separate runs share nothing.
#pragma once

#include <cstdint>
#include <memory>

#include "sim/config/config.h"
#include "sim/engine/time.h"
#include "sim/model/memory_cost.h"
#include "sim/model/observer.h"
#include "sim/model/results.h"

namespace drainsim::model {

// Tests only (RunOptions::test_defect): a bookkeeping defect made on purpose, so that the tests
// can see the audit catch each kind (tests/chaos/audit_test.cc).
enum class TestDefect : uint8_t {
  kNone,
  // At test_defect_at, the first message of the main queue reads "delayed" behind the ledger's
  // back (a stray write to Message::state): caught at its next transition.
  kMisstate,
  // At test_defect_at, the first message of the main queue leaves it without a transition (a
  // lost message): caught by the counts checked after the event.
  kLoseReady,
  // From test_defect_at until test_defect_heal_at, the oldest dead letter reads "parked": it
  // never moves, so only the recount can catch it, and only while it lasts.
  kMisstateAtRest,
};

struct RunOptions {
  // The audit of (2) at its finest: after every event the per-state counts (O(1)), and the full
  // recount of the message records every max(4096, record slots) events, so that the recount
  // costs at most one record visit per event amortised. For the chaos swarm, tests and
  // `--audit`; otherwise the recount runs at some samples (see (2)) and at the end.
  bool audit_every_event = false;
  // Watches the run (sim/model/observer.h): the trace format, `drainsim explain`, progress.
  // Not owned; it must outlive the run. Default null: no observer, and each hook costs one
  // well-predicted branch. An observer never changes the run's Results.
  RunObserver* observer = nullptr;
  // The cap of (6): messages pending at once, 1..kPendingMessagesMaxLimit. The default, about
  // 8.2e7, is 16 GiB at the measured 210 bytes a message (memory_cost.h); lower it to stop a
  // run whose queue runs away early, raise it on a machine with the memory to spare. A healthy
  // run never comes near it: the monthly rehearsal x1160 (1e8 messages) keeps a few thousand.
  int64_t pending_messages_max = kPendingMessagesMaxDefault;
  // Tests only: from this instant the broker delivers nothing more and never will, a stall
  // made on purpose so that the tests can see invariant (5) reported through every command.
  // Default never. (`drainsim` sets it from the environment variable DRAINSIM_TEST_STALL_AT_S.)
  engine::Instant test_stall_at = engine::Instant::Never();
  // Tests only: see TestDefect. Default none.
  TestDefect test_defect = TestDefect::kNone;
  engine::Instant test_defect_at = engine::Instant::Never();
  engine::Instant test_defect_heal_at = engine::Instant::Never();  // kMisstateAtRest only
};

// Runs `scenario` with `seed` to completion (run.until, or earlier when nothing can happen
// any more). REQUIRES: `scenario` came from the loader (it satisfies the format's invariants).
// Throws PendingMessagesMaxExceeded when the run would exceed options.pending_messages_max (6).
Results RunSimulation(const config::Scenario& scenario, uint64_t seed,
                      const RunOptions& options = {});

}  // namespace drainsim::model
