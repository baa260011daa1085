// The audit of simulation.h's invariant (2), and the defects the tests make for it to catch.
//
// Three layers, cheapest first, each catching what the one before cannot:
//  - every transition: MessageStore::Move checks the record against its last transition
//    (message.h (4)) and the ledger checks the move is legal: a stray write to a message's state
//    is caught at that message's next transition (or its release);
//  - after every event (RunOptions::audit_every_event): AuditCounts, the per-state counts of
//    live records the store keeps against the ledger's, and the main queue's length: a record
//    created or released behind the ledger's back, a message dropped from the queue;
//  - the full recount (Audit): every live record's own state, every main-queue entry. Only it
//    sees a stray write to a message that never moves again. With audit_every_event it runs
//    every max(kRecountEventsMin, record slots) events, at most one record visited per event
//    amortised (an event costs far more than a visit), and always at the end of the run. A
//    stray write that some other stray write undoes within that many events, the message not
//    moving in between, escapes it; the recount after every event, which caught that too, cost
//    the swarm 900 times a plain run (issue 16).
#include <algorithm>
#include <array>

#include "sim/base/check.h"
#include "sim/model/world.h"

namespace drainsim::model {

namespace {
constexpr int64_t kRecountEventsMin = 4096;
}  // namespace

void World::Audit() {
  std::array<int64_t, kMessageStateCount> recounted{};
  messages_.ForEachLive(
      [&](MessageRef, const Message& m) { ++recounted[static_cast<size_t>(m.state)]; });
  // The records as they are against the counts their transitions kept: a state written behind
  // World::Transition's back differs here, whether or not the message moves again.
  for (int s = 0; s < kMessageStateCount; ++s) {
    DRAINSIM_CHECK(recounted[static_cast<size_t>(s)] ==
                   messages_.live_count(static_cast<MessageState>(s)));
  }
  int64_t queued = 0;
  broker_.ForEachReady([&](MessageRef ref) {
    DRAINSIM_CHECK(messages_.IsLive(ref) && messages_.Get(ref).state == MessageState::kReady);
    ++queued;
  });
  DRAINSIM_CHECK(queued == recounted[static_cast<size_t>(MessageState::kReady)]);
  AuditCounts();
  next_recount_at_events_ =
      events_processed_ + std::max(kRecountEventsMin, static_cast<int64_t>(messages_.slot_count()));
}

void World::AuditCounts() const {
  for (int s = 0; s < kMessageStateCount; ++s) {
    const auto state = static_cast<MessageState>(s);
    // Terminal messages may have been released; every other state must match exactly.
    if (IsTerminal(state)) {
      DRAINSIM_CHECK(messages_.live_count(state) <= ledger_.count(state));
    } else {
      DRAINSIM_CHECK(messages_.live_count(state) == ledger_.count(state));
    }
  }
  DRAINSIM_CHECK(ledger_.Lost() == 0);
  DRAINSIM_CHECK(broker_.ready_count() == ledger_.count(MessageState::kReady));
}

void World::AuditEvent() {
  AuditCounts();
  if (events_processed_ >= next_recount_at_events_) Audit();
}

void World::ScheduleTestDefect() {
  if (options_.test_defect == TestDefect::kNone) return;
  if (options_.test_defect_at < until_) {
    At(options_.test_defect_at, Event{EventType::kTestDefect, 0, 0});
  }
  if (options_.test_defect == TestDefect::kMisstateAtRest &&
      options_.test_defect_heal_at < until_) {
    At(options_.test_defect_heal_at, Event{EventType::kTestDefect, 0, 1});
  }
}

void World::MakeTestDefect(const Event& event) {
  if (event.b == 1) {  // heal kMisstateAtRest
    if (messages_.IsLive(test_defect_ref_)) {
      messages_.Get(test_defect_ref_).state = MessageState::kDeadLettered;
    }
    return;
  }
  switch (options_.test_defect) {
    case TestDefect::kNone:
      break;
    case TestDefect::kMisstate:
      DRAINSIM_CHECK(!broker_.ready_empty());  // the test's scenario has a queue then
      messages_.Get(broker_.NextReady()).state = MessageState::kDelayed;
      break;
    case TestDefect::kLoseReady:
      DRAINSIM_CHECK(!broker_.ready_empty());
      broker_.PopOldestReady();
      break;
    case TestDefect::kMisstateAtRest:
      for (const DlqEntry& entry : broker_.dlq()) {
        if (messages_.IsLive(entry.ref) &&
            messages_.Get(entry.ref).state == MessageState::kDeadLettered) {
          test_defect_ref_ = entry.ref;
          messages_.Get(entry.ref).state = MessageState::kParked;
          return;
        }
      }
      DRAINSIM_CHECK(false);  // the test's scenario has a dead letter then
      break;
  }
}

}  // namespace drainsim::model
