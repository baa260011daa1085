// The live worker's class, shared by its two files: live/worker.cc (the connection, the slots,
// crashes and reconnection) and live/worker_settle.cc (acks, rejects, parking and republishing).
// Internal to live/: the interface is RunWorker (live/worker.h), whose comment says what a worker
// does and its contract.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "live/amqp_connection.h"
#include "live/run_state.h"
#include "live/worker_mailbox.h"

namespace drainsim::live::worker_impl {

// How a connection's session ended.
// kBrokerLost: the whole connection went away under a broker_restart (live/broker_restart.h).
enum class SessionEnd { kStop, kCrash, kChannelClosed, kBrokerLost, kError };

using worker_mailbox::Done;
using worker_mailbox::Job;
using worker_mailbox::Mailbox;

class Worker {
 public:
  Worker(RunState& state, int index) : state_(state), index_(index) {
    for (const PlannedCrash& c : state.plan.crashes) {
      if (!c.after_commit && c.worker == static_cast<uint32_t>(index)) timed_crashes_.push_back(c);
    }
  }
  void Run();

 private:
  bool Connect();
  bool Lost() const { return state_.reconnect && conn_ && conn_->connection_lost(); }
  SessionEnd Session();
  void Abandon(SessionEnd end);
  bool SleepRestart();
  void RunSlot();
  bool Settle(const Done& done, bool* crash);
  bool Park(const Done& done);
  bool PublishConfirmed(const std::string& queue, const Done& done, const AmqpHeaders& headers,
                        std::optional<int64_t> expiration_ms);
  bool Republish(const Done& done);
  bool SleepBackoff(int64_t backoff_us);
  void Receive(AmqpMessage message);
  bool TimedCrashDue();

  RunState& state_;
  int index_;
  std::unique_ptr<AmqpConnection> conn_;
  std::unique_ptr<AmqpConnection> park_conn_;  // opened on the first park
  Mailbox mailbox_;
  std::atomic<bool> closing_{false};
  std::atomic<int> running_{0};  // jobs taken by a slot and not yet handed back
  int64_t withheld_ = 0;         // this connection's deliveries whose ack was withheld (lost)
  bool crash_pending_ = false;   // a crash between commit and ack: its delivery is still held
  int session_ = 0;              // bumped by every connection
  std::vector<PlannedCrash> timed_crashes_;  // point anywhere, this worker's, in time order
  size_t next_crash_ = 0;
};

}  // namespace drainsim::live::worker_impl
