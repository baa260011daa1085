// The audit of the ledger (ledger_audit.h) and the test defects it must catch.
#include "sim/model/ledger_audit.h"

#include <algorithm>
#include <array>

#include "sim/base/check.h"

namespace drainsim::model {

namespace {
constexpr int64_t kRecountEventsMin = 4096;
}  // namespace

LedgerAudit::LedgerAudit(MessageStore& messages, const Ledger& ledger, BrokerQueues& broker)
    : messages_(messages), ledger_(ledger), broker_(broker) {}

void LedgerAudit::Recount(int64_t events_processed) {
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
  Counts();
  next_recount_at_events_ =
      events_processed + std::max(kRecountEventsMin, static_cast<int64_t>(messages_.slot_count()));
}

void LedgerAudit::Counts() const {
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

void LedgerAudit::AfterEvent(int64_t events_processed) {
  Counts();
  if (events_processed >= next_recount_at_events_) Recount(events_processed);
}

void LedgerAudit::MakeDefect(TestDefect defect, bool heal) {
  if (heal) {  // kMisstateAtRest
    if (messages_.IsLive(defect_ref_)) {
      messages_.Get(defect_ref_).state = MessageState::kDeadLettered;
    }
    return;
  }
  switch (defect) {
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
          defect_ref_ = entry.ref;
          messages_.Get(entry.ref).state = MessageState::kParked;
          return;
        }
      }
      DRAINSIM_CHECK(false);  // the test's scenario has a dead letter then
      break;
  }
}

}  // namespace drainsim::model
