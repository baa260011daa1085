// LedgerAudit (issue 15 step 3: a component of World): the audit of simulation.h's invariant
// (2), and the defects the tests make for it to catch. It reads the message records, the ledger
// and the broker's queues; only the test defects write to them.
//
// Three layers, cheapest first, each catching what the one before cannot:
//  - every transition: MessageStore::Move checks the record against its last transition
//    (message.h (4)) and the ledger checks the move is legal: a stray write to a message's state
//    is caught at that message's next transition (or its release);
//  - after every event (RunOptions::audit_every_event): Counts, the per-state counts of
//    live records the store keeps against the ledger's, and the main queue's length: a record
//    created or released behind the ledger's back, a message dropped from the queue;
//  - the full recount (Recount): every live record's own state, every main-queue entry. Only it
//    sees a stray write to a message that never moves again. With audit_every_event it runs
//    every max(kRecountEventsMin, record slots) events, at most one record visited per event
//    amortised (an event costs far more than a visit), and always at the end of the run. A
//    stray write that some other stray write undoes within that many events, the message not
//    moving in between, escapes it; the recount after every event, which caught that too, cost
//    the swarm 900 times a plain run (issue 16).
//
// Thread-safety: one run's state; not shared.
#pragma once

#include <cstdint>

#include "sim/model/broker_queues.h"
#include "sim/model/message.h"
#include "sim/model/message_state.h"
#include "sim/model/simulation.h"

namespace drainsim::model {

class LedgerAudit {
 public:
  LedgerAudit(MessageStore& messages, const Ledger& ledger, BrokerQueues& broker);

  // The full recount: every live record's state against the counts the store keeps by
  // transition, the main queue entry by entry, then Counts. O(record slots).
  // `events_processed`: the run's events so far, for AfterEvent's next recount.
  void Recount(int64_t events_processed);
  // The counts the store keeps against the ledger's, and the main queue's length. O(1).
  void Counts() const;
  // After each event with RunOptions::audit_every_event: Counts, and Recount when
  // max(kRecountEventsMin, record slots) events have passed since the last one.
  void AfterEvent(int64_t events_processed);
  // RunOptions::test_defect at its time, or (`heal`) kMisstateAtRest's heal.
  void MakeDefect(TestDefect defect, bool heal);

 private:
  MessageStore& messages_;
  const Ledger& ledger_;
  BrokerQueues& broker_;
  int64_t next_recount_at_events_ = 0;
  MessageRef defect_ref_;  // the record kMisstateAtRest misstated
};

}  // namespace drainsim::model
