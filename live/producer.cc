#include "live/producer.h"

#include <thread>

#include "live/amqp_connection.h"
#include "live/stop_signal.h"
#include "sim/scenario/enum_names.h"

namespace drainsim::live {

AmqpHeaders PublishHeaders(const PlannedMessage& m) {
  AmqpHeaders h = {{"x-drainsim-id", static_cast<int64_t>(m.id)},
                   {"x-drainsim-kind", m.kind},
                   {"x-drainsim-key", m.key},
                   {"x-drainsim-attempt", int64_t{1}}};
  if (m.fate) {
    h["x-drainsim-fail"] = std::string(scenario::NameOf(m.fate->error));
    h["x-drainsim-fault"] = static_cast<int64_t>(m.fate->fault_index);
    if (m.fate->fail_after_ms) {
      h["x-drainsim-fail-after-us"] = static_cast<int64_t>(*m.fate->fail_after_ms * 1000.0);
    }
  }
  return h;
}

namespace {

void LogConfirms(RunState& state, uint64_t before, uint64_t after) {
  if (after > before) state.log->Write("confirm", after - 1, -1, -1, "through");
}

}  // namespace

ProducerResult RunProducer(RunState& state, std::chrono::steady_clock::time_point start,
                           std::chrono::steady_clock::time_point deadline) {
  ProducerResult result;
  std::string error;
  auto conn = AmqpConnection::Open(state.amqp_url, "drainsim live: producer", &error);
  if (!conn || !conn->ConfirmSelect()) {
    state.Fail("producer: " + (conn ? conn->error() : error));
    return result;
  }
  for (const PlannedMessage& m : state.plan.messages) {
    if (StopRequested() || state.failed || std::chrono::steady_clock::now() >= deadline) break;
    if (m.dlq) continue;  // in the DLQ before the run started
    const auto due = start + std::chrono::microseconds(static_cast<int64_t>(m.publish_at_s * 1e6));
    while (std::chrono::steady_clock::now() < due && !StopRequested()) {
      const uint64_t before = conn->confirmed();
      // Wait for confirms while waiting for the instant: a bounded, useful sleep.
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          due - std::chrono::steady_clock::now());
      if (!conn->WaitConfirms(std::min(left, std::chrono::milliseconds(100)))) break;
      LogConfirms(state, before, conn->confirmed());
      if (conn->confirmed() == conn->published()) {
        std::this_thread::sleep_until(
            std::min(due, std::chrono::steady_clock::now() + std::chrono::milliseconds(100)));
      }
    }
    if (StopRequested()) break;
    if (!conn->Publish(state.topology.main_queue, std::to_string(m.id), PublishHeaders(m),
                       "{\"id\":" + std::to_string(m.id) + "}")) {
      break;
    }
    state.log->Write("publish", m.id, -1, -1, m.kind);
    result.last_publish_s = state.log->Now();
    const uint64_t before = conn->confirmed();
    if (!conn->PollConfirms()) break;
    while (conn->Ok() && conn->published() - conn->confirmed() >= kUnconfirmedMax) {
      if (!conn->WaitConfirms(std::chrono::milliseconds(100)) || StopRequested()) break;
    }
    LogConfirms(state, before, conn->confirmed());
  }
  const uint64_t before = conn->confirmed();
  if (conn->Ok()) conn->WaitConfirms(std::chrono::seconds(30));
  LogConfirms(state, before, conn->confirmed());
  if (!conn->Ok()) state.Fail("producer: " + conn->error());
  result.published = conn->published();
  result.confirmed = conn->confirmed();
  return result;
}

}  // namespace drainsim::live
