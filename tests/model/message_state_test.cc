#include "sim/model/message_state.h"

#include <catch2/catch.hpp>

#include "tests/engine/death.h"

namespace drainsim::model {
namespace message_state_test {
namespace {

constexpr MessageState kAll[] = {MessageState::kReady,        MessageState::kDelayed,
                                 MessageState::kInFlight,     MessageState::kDeadLettered,
                                 MessageState::kParked,       MessageState::kAcked,
                                 MessageState::kExpired};

TEST_CASE("terminal states have no way out", "[model][state]") {
  for (MessageState from : kAll) {
    if (!IsTerminal(from)) continue;
    for (MessageState to : kAll) CHECK_FALSE(IsLegalTransition(from, to));
  }
}

TEST_CASE("every non-terminal state can reach a terminal one", "[model][state]") {
  // Liveness of the table itself: from any state there is a path to acked, parked or expired.
  for (MessageState start : kAll) {
    bool reached[kMessageStateCount] = {};
    reached[static_cast<int>(start)] = true;
    for (int round = 0; round < kMessageStateCount; ++round) {
      for (MessageState from : kAll) {
        if (!reached[static_cast<int>(from)]) continue;
        for (MessageState to : kAll) {
          if (IsLegalTransition(from, to)) reached[static_cast<int>(to)] = true;
        }
      }
    }
    INFO(MessageStateName(start));
    CHECK((reached[static_cast<int>(MessageState::kAcked)] ||
           reached[static_cast<int>(MessageState::kParked)] ||
           reached[static_cast<int>(MessageState::kExpired)]));
  }
}

TEST_CASE("the transitions the model relies on are legal, the odd ones are not",
          "[model][state]") {
  using S = MessageState;
  CHECK(IsLegalTransition(S::kReady, S::kInFlight));
  CHECK(IsLegalTransition(S::kInFlight, S::kDelayed));
  CHECK(IsLegalTransition(S::kDelayed, S::kReady));
  CHECK(IsLegalTransition(S::kInFlight, S::kDeadLettered));
  CHECK(IsLegalTransition(S::kDeadLettered, S::kReady));
  CHECK(IsLegalTransition(S::kDeadLettered, S::kExpired));
  CHECK_FALSE(IsLegalTransition(S::kReady, S::kAcked));       // acks need a delivery
  CHECK_FALSE(IsLegalTransition(S::kDelayed, S::kInFlight));  // a retry is due first
  CHECK(IsLegalTransition(S::kReady, S::kExpired));  // main-queue retention (broker.retention_s)
  CHECK(IsLegalTransition(S::kReady, S::kParked));   // no DLQ: a receive-count death fails
  CHECK_FALSE(IsLegalTransition(S::kDelayed, S::kExpired));  // retention is checked at delivery
  CHECK_FALSE(IsLegalTransition(S::kInFlight, S::kInFlight));
}

TEST_CASE("the ledger conserves messages through moves", "[model][ledger]") {
  Ledger ledger;
  ledger.Publish(MessageState::kReady);
  ledger.Publish(MessageState::kReady);
  ledger.Publish(MessageState::kDeadLettered);
  ledger.Move(MessageState::kReady, MessageState::kInFlight);
  ledger.Move(MessageState::kInFlight, MessageState::kAcked);
  ledger.Move(MessageState::kDeadLettered, MessageState::kReady);
  CHECK(ledger.published() == 3);
  CHECK(ledger.count(MessageState::kReady) == 2);
  CHECK(ledger.count(MessageState::kAcked) == 1);
  CHECK(ledger.count(MessageState::kDeadLettered) == 0);
  CHECK(ledger.Lost() == 0);
}

TEST_CASE("the ledger refuses illegal moves and moves from empty states", "[model][ledger]") {
  CHECK(engine::testing::DiesOfFailedCheck([] {
    Ledger ledger;
    ledger.Publish(MessageState::kReady);
    ledger.Move(MessageState::kReady, MessageState::kAcked);
  }));
  CHECK(engine::testing::DiesOfFailedCheck([] {
    Ledger ledger;
    ledger.Move(MessageState::kReady, MessageState::kInFlight);
  }));
  CHECK(engine::testing::DiesOfFailedCheck([] {
    Ledger ledger;
    ledger.Publish(MessageState::kAcked);
  }));
}

}  // namespace
}  // namespace message_state_test
}  // namespace drainsim::model
