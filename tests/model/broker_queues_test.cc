// The broker's queues as a component (sim/model/broker_queues.h): the main queue's order, which
// DLQ entries are current, the DLQ filter a starting drain uses, and the age of the oldest message
// in the pipeline with stale entries skipped and compacted. tests/model/drain_test.cc and
// max_length_test.cc check what World does with the queues inside whole runs.
#include "sim/model/broker_queues.h"

#include <catch2/catch.hpp>
#include <vector>

namespace drainsim::model {
namespace broker_queues_test {
namespace {

using engine::Duration;
using engine::Instant;

Instant At(double s) { return Instant::Zero() + Duration::Micros(static_cast<int64_t>(s * 1e6)); }

// A message created in `state`; the tests below set states directly, bypassing the transitions
// (MessageStore's own tests cover those).
MessageRef Create(MessageStore& store, MessageState state) { return store.Create(state); }

TEST_CASE("broker queues: the main queue delivers oldest first, refuses newest first",
          "[model][broker]") {
  MessageStore store;
  BrokerQueues queues(store);
  CHECK(queues.ready_empty());
  const MessageRef a = Create(store, MessageState::kReady);
  const MessageRef b = Create(store, MessageState::kReady);
  const MessageRef c = Create(store, MessageState::kReady);
  queues.PushReady(a);
  queues.PushReady(b);
  queues.PushReady(c);
  CHECK(queues.ready_count() == 3);
  CHECK(queues.PopNewestReady() == c);
  CHECK(queues.PopOldestReady() == a);
  CHECK(queues.NextReady() == b);
  CHECK(queues.ready_count() == 1);
}

TEST_CASE("broker queues: a restored message goes in front of every other, the last one first",
          "[model][broker]") {
  // requeue_position restored_to_head (kombu's RPUSH where BRPOP pops): a stack at the head.
  MessageStore store;
  BrokerQueues queues(store);
  const MessageRef a = Create(store, MessageState::kReady);
  const MessageRef b = Create(store, MessageState::kReady);
  const MessageRef c = Create(store, MessageState::kReady);
  const MessageRef d = Create(store, MessageState::kReady);
  queues.PushReady(a);
  queues.PushReady(b);
  queues.PushRestored(c);
  CHECK(queues.NextReady() == c);
  queues.PushRestored(d);
  std::vector<MessageRef> order;
  queues.ForEachReady([&](MessageRef ref) { order.push_back(ref); });
  CHECK(order == std::vector<MessageRef>{d, c, a, b});
  CHECK(queues.PopOldestReady() == d);
  CHECK(queues.PopOldestReady() == c);
  CHECK(queues.PopOldestReady() == a);
  CHECK(queues.PopNewestReady() == b);
  CHECK(queues.ready_empty());
}

TEST_CASE("broker queues: a DLQ entry is current while its message is dead-lettered at its count",
          "[model][broker]") {
  MessageStore store;
  BrokerQueues queues(store);
  const MessageRef a = Create(store, MessageState::kDeadLettered);
  const MessageRef b = Create(store, MessageState::kDeadLettered);
  const MessageRef c = Create(store, MessageState::kDeadLettered);
  store.Get(a).dead_letters = 1;
  store.Get(b).dead_letters = 1;
  store.Get(c).dead_letters = 1;
  queues.AddDeadLetter(a, 1);
  queues.AddDeadLetter(b, 1);
  queues.AddDeadLetter(c, 1);
  store.Get(b).dead_letters = 2;  // replayed and dead-lettered again: a newer entry counts
  queues.AddDeadLetter(b, 2);
  CHECK(queues.IsCurrent(DlqEntry{a, 1}));
  CHECK_FALSE(queues.IsCurrent(DlqEntry{b, 1}));
  CHECK(queues.IsCurrent(DlqEntry{b, 2}));
  store.Get(c).state = MessageState::kExpired;
  CHECK_FALSE(queues.IsCurrent(DlqEntry{c, 1}));
  // The filter asks about current entries only, oldest first, and keeps those it says yes to.
  std::vector<uint32_t> asked;
  queues.FilterDeadLetters([&](const DlqEntry& entry) {
    asked.push_back(entry.ref.slot);
    return entry.ref == b;
  });
  CHECK(asked == std::vector<uint32_t>{a.slot, b.slot});
  REQUIRE(queues.dlq().size() == 1);
  CHECK(queues.dlq().front().ref == b);
  CHECK(queues.dlq().front().dead_letters == 2);
  const DlqEntry popped = queues.PopOldestDeadLetter();
  CHECK(popped.ref == b);
  CHECK(queues.dlq_empty());
}

TEST_CASE("broker queues: the oldest message's age skips entries that left the pipeline",
          "[model][broker]") {
  MessageStore store;
  BrokerQueues queues(store);
  CHECK(queues.OldestAgeSeconds(At(5)) == 0);
  const MessageRef a = Create(store, MessageState::kReady);
  const MessageRef b = Create(store, MessageState::kInFlight);
  queues.EnterPipeline(PipelineEntry{At(1), a, 0}, 2);
  queues.EnterPipeline(PipelineEntry{At(3), b, 0}, 2);
  CHECK(queues.OldestAgeSeconds(At(10)) == Approx(9));
  store.Get(a).state = MessageState::kAcked;  // left
  CHECK(queues.OldestAgeSeconds(At(10)) == Approx(7));
  store.Get(b).replays = 1;  // replayed since: its old entry is stale, its new one counts
  store.Get(b).state = MessageState::kReady;
  queues.EnterPipeline(PipelineEntry{At(8), b, 1}, 1);
  CHECK(queues.OldestAgeSeconds(At(10)) == Approx(2));
  store.Get(b).state = MessageState::kDelayed;  // waiting for a retry: still in the pipeline
  CHECK(queues.OldestAgeSeconds(At(10)) == Approx(2));
}

TEST_CASE("broker queues: the down flag", "[model][broker]") {
  MessageStore store;
  BrokerQueues queues(store);
  CHECK_FALSE(queues.down());
  queues.set_down(true);
  CHECK(queues.down());
  queues.set_down(false);
  CHECK_FALSE(queues.down());
}

}  // namespace
}  // namespace broker_queues_test
}  // namespace drainsim::model
