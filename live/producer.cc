#include "live/producer.h"

#include <deque>
#include <functional>
#include <thread>
#include <utility>

#include "live/amqp_connection.h"
#include "live/reconnect.h"
#include "live/stop_signal.h"
#include "sim/config/enum_names.h"

namespace drainsim::live {

AmqpHeaders PublishHeaders(const PlannedMessage& m) {
  AmqpHeaders h = {{"x-drainsim-id", static_cast<int64_t>(m.id)},
                   {"x-drainsim-kind", m.kind},
                   {"x-drainsim-key", m.key},
                   {"x-drainsim-attempt", int64_t{1}}};
  if (m.fate) {
    h["x-drainsim-fail"] = std::string(config::NameOf(m.fate->error));
    h["x-drainsim-fault"] = static_cast<int64_t>(m.fate->fault_index);
    if (m.fate->fail_after_ms) {
      h["x-drainsim-fail-after-us"] = static_cast<int64_t>(*m.fate->fail_after_ms * 1000.0);
    }
  }
  return h;
}

namespace {

// The producer's connection and the publishes on it whose confirm has not come yet, in order
// (a broker confirms a channel's publishes in order).
class ConfirmLink {
 public:
  ConfirmLink(RunState& state, ProducerResult* result) : state_(state), result_(result) {}
  bool Open() {
    const auto setup = [](AmqpConnection& c) { return c.ConfirmSelect(); };
    base::Expected<std::unique_ptr<AmqpConnection>> opened =
        state_.reconnect ? OpenWithRetry(state_.amqp_url, kName, ReconnectPolicy{}, setup,
                                         [this] { return StopRequested() || state_.failed.load(); })
                         : AmqpConnection::Open(state_.amqp_url, kName);
    std::string error = opened ? "" : opened.error();
    conn_ = opened ? std::move(*opened) : nullptr;
    if (conn_ && !state_.reconnect && !setup(*conn_)) error = conn_->error(), conn_.reset();
    if (!conn_) state_.Fail("producer: " + error);
    popped_ = 0;
    return conn_ != nullptr;
  }
  AmqpConnection& conn() { return *conn_; }
  bool Publish(const PlannedMessage& m) {
    if (!conn_->Publish(state_.topology.main_queue, std::to_string(m.id), PublishHeaders(m),
                        "{\"id\":" + std::to_string(m.id) + "}")) {
      return false;
    }
    unconfirmed_.push_back(&m);
    return true;
  }
  // Reads confirms for up to `wait`; false on an error.
  bool Confirm(std::chrono::milliseconds wait) {
    const bool ok = conn_->WaitConfirms(wait);
    const uint64_t before = result_->confirmed;
    while (popped_ < conn_->confirmed() && !unconfirmed_.empty()) {
      unconfirmed_.pop_front();
      ++popped_;
      ++result_->confirmed;
    }
    if (result_->confirmed > before) {
      state_.log->Write("confirm", result_->confirmed - 1, -1, -1, "through");
    }
    return ok;
  }
  size_t unconfirmed() const { return unconfirmed_.size(); }
  // After an error: under a broker_restart, when the broker dropped the connection, a new one
  // and every unconfirmed publish sent again, in order (true); otherwise false.
  bool Recover() {
    if (!state_.reconnect || !conn_->connection_lost() || ++recoveries_ > kRecoveriesMax) {
      return false;
    }
    ++state_.connections_lost;
    state_.log->Write(
        "connection_lost", EventLog::kNoMessage, -1, -1,
        "producer: " + conn_->error() + "; unconfirmed " + std::to_string(unconfirmed_.size()));
    conn_.reset();
    if (!Open()) return false;
    ++state_.reconnects;
    std::deque<const PlannedMessage*> again = std::exchange(unconfirmed_, {});
    for (size_t i = 0; i < again.size(); ++i) {
      if (!Publish(*again[i])) {  // gone again: the rest waits for the next connection
        unconfirmed_.insert(unconfirmed_.end(), again.begin() + static_cast<std::ptrdiff_t>(i),
                            again.end());
        return Recover();
      }
      ++state_.publishes_resent;
      state_.log->Write("publish_resent", again[i]->id, -1, -1, again[i]->kind);
    }
    return true;
  }

 private:
  static constexpr const char* kName = "drainsim live: producer";
  RunState& state_;
  ProducerResult* result_;
  std::unique_ptr<AmqpConnection> conn_;
  std::deque<const PlannedMessage*> unconfirmed_;
  uint64_t popped_ = 0;  // confirms of this connection already taken off unconfirmed_
  // Connections lost in the whole run that it may recover from (each recovery waits at most
  // the reconnect schedule, so the producer is bounded).
  static constexpr int kRecoveriesMax = 20;
  int recoveries_ = 0;
};

}  // namespace

ProducerResult RunProducer(RunState& state, std::chrono::steady_clock::time_point start,
                           std::chrono::steady_clock::time_point deadline) {
  ProducerResult result;
  ConfirmLink link(state, &result);
  if (!link.Open()) return result;
  // Every step that fails is retried once the link recovered (a broker_restart), else ends it.
  auto step = [&](const std::function<bool()>& f) { return f() || (link.Recover() && f()); };
  bool ok = true;
  for (const PlannedMessage& m : state.plan.messages) {
    if (StopRequested() || state.failed || std::chrono::steady_clock::now() >= deadline) break;
    if (m.dlq) continue;  // in the DLQ before the run started
    const auto due = start + std::chrono::microseconds(static_cast<int64_t>(m.publish_at_s * 1e6));
    while (ok && std::chrono::steady_clock::now() < due && !StopRequested()) {
      // Wait for confirms while waiting for the instant: a bounded, useful sleep.
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          due - std::chrono::steady_clock::now());
      ok = step([&] { return link.Confirm(std::min(left, std::chrono::milliseconds(100))); });
      if (ok && link.unconfirmed() == 0) {
        std::this_thread::sleep_until(
            std::min(due, std::chrono::steady_clock::now() + std::chrono::milliseconds(100)));
      }
    }
    if (!ok || StopRequested()) break;
    ok = step([&] { return link.Publish(m); });
    if (!ok) break;
    state.log->Write("publish", m.id, -1, -1, m.kind);
    ++result.published;
    result.last_publish_s = state.log->Now();
    ok = step([&] { return link.Confirm(std::chrono::milliseconds(0)); });
    while (ok && link.unconfirmed() >= kUnconfirmedMax && !StopRequested()) {
      ok = step([&] { return link.Confirm(std::chrono::milliseconds(100)); });
    }
    if (!ok) break;
  }
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (ok && link.unconfirmed() > 0 && std::chrono::steady_clock::now() < until &&
         !StopRequested()) {
    ok = step([&] { return link.Confirm(std::chrono::milliseconds(100)); });
  }
  if (!ok && !state.failed) state.Fail("producer: " + link.conn().error());
  return result;
}

}  // namespace drainsim::live
