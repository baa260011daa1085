#include "live/drainer.h"

#include <algorithm>
#include <deque>
#include <set>
#include <thread>
#include <vector>

#include "live/attempt_fates.h"
#include "live/drainer_busy.h"
#include "live/producer.h"
#include "live/reconnect.h"
#include "live/stop_signal.h"
#include "sim/config/enum_names.h"

namespace drainsim::live {

namespace {

using Clock = std::chrono::steady_clock;

bool DrainerStopping(RunState& state, const DrainShared& shared) {
  return shared.stop || StopRequested() || state.failed;
}

class Drainer {
 public:
  Drainer(RunState& state, DrainShared& shared)
      : state_(state), shared_(shared), drain_(state.scenario.drains.at(0)) {}
  void Run(Clock::time_point run_start);

 private:
  bool Open();
  bool WaitStart(Clock::time_point at);
  // Deals with one DLQ message; false on an operating error.
  bool Handle(AmqpMessage message, bool sorting);
  bool Replay(const AmqpMessage& message, uint64_t id);
  bool ParkOther(const AmqpMessage& message, uint64_t id);
  void ReturnHeld();
  bool AtLimit() const { return drain_.limit && shared_.figures.replayed >= *drain_.limit; }
  // Publishes a copy; its DLQ message is acked once the copy's confirm arrives (AckConfirmed).
  // The caller has counted it (replayed or parked) already: Recover() takes that back.
  bool Publish(const std::string& queue, uint64_t id, const AmqpHeaders& headers, uint64_t dlq_tag,
               bool replay);
  // Under a broker_restart (RunState::reconnect), after the broker dropped a connection: both
  // opened again (live/reconnect.h). What the old ones held goes back to the DLQ (the broker
  // returns unacked messages) and is taken again: a held message, and the original of a copy
  // whose confirm never came, which is replayed (or parked) again, a duplicate when the broker
  // had taken the first copy. False when it is no such loss or the broker did not come back.
  bool Recover();
  // Reads the confirms that arrived within `wait` and acks their DLQ messages; false (and
  // RunState::Fail) on a nack or an error.
  bool AckConfirmed(std::chrono::milliseconds wait);
  // Sleeps until `due` (reading confirms meanwhile); false if the run is stopping.
  bool SleepUntil(Clock::time_point due);
  // Logs a step that took more than kSlowMs (a "drain_slow" event): where a paced drain loses
  // time it never makes up (a burst-1 bucket accrues nothing while it waits for the drainer).
  // Drain::replay_ms as measured: the time from one replay's publish to the next one's, less
  // the wait the token bucket asked for (so a late wake-up counts as busy, as it delays the
  // replay). The first replay has no predecessor: sorting the DLQ came before it.
  void NoteBusy(Clock::time_point ready, Clock::time_point due) {
    const auto now = Clock::now();
    if (last_publish_) {
      const auto wait = std::max(Clock::duration::zero(), due - ready);
      const auto busy = now - *last_publish_ - wait;
      shared_.figures.busy_ms.push_back(
          std::chrono::duration<double, std::milli>(std::max(Clock::duration::zero(), busy))
              .count());
    }
    last_publish_ = now;
  }
  void NoteSlow(const char* step, Clock::time_point since) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - since);
    if (ms.count() > kSlowMs) {
      state_.log->Write("drain_slow", 0, -1, -1,
                        std::string(step) + " " + std::to_string(ms.count()) + " ms");
    }
  }
  static constexpr int64_t kSlowMs = 10;

  RunState& state_;
  DrainShared& shared_;
  const config::Drain& drain_;
  std::unique_ptr<AmqpConnection> get_;  // basic.get and acks on the DLQ
  std::unique_ptr<AmqpConnection> pub_;  // publishes in confirm mode
  WallPacer pacer_ = WallPacer::For(drain_);
  Clock::time_point started_;
  std::optional<Clock::time_point> last_publish_;  // the last replay's start (NoteBusy)
  std::set<uint64_t> replayed_;
  std::set<uint64_t> left_;     // selected, not replayed when the drain ended
  std::vector<uint64_t> held_;  // delivery tags held unacked: they stay in the DLQ
  // Copies published and not yet confirmed (seq: the publish sequence number; 0 before it went).
  struct Pending {
    uint64_t seq = 0, dlq_tag = 0, id = 0;
    bool replay = false;  // else parked
  };
  std::deque<Pending> unconfirmed_;
  int64_t taken_ = 0;  // DLQ messages taken so far (for sorting, contract (2))
  int recoveries_ = 0;
  static constexpr int kRecoveriesMax = 20;
};

bool Drainer::Publish(const std::string& queue, uint64_t id, const AmqpHeaders& headers,
                      uint64_t dlq_tag, bool replay) {
  unconfirmed_.push_back(Pending{0, dlq_tag, id, replay});
  if (!pub_->Publish(queue, std::to_string(id), headers, "{\"id\":" + std::to_string(id) + "}")) {
    if (Recover()) return true;
    state_.Fail("drainer: publish to " + queue + ": " + pub_->error());
    return false;
  }
  unconfirmed_.back().seq = pub_->published();
  return AckConfirmed(std::chrono::milliseconds(0));
}

bool Drainer::Recover() {
  const bool lost = (get_ && get_->connection_lost()) || (pub_ && pub_->connection_lost());
  if (!state_.reconnect || !lost || ++recoveries_ > kRecoveriesMax) return false;
  ++state_.connections_lost;
  state_.log->Write("connection_lost", EventLog::kNoMessage, -1, -1,
                    "drainer: held " + std::to_string(held_.size()) + ", unconfirmed " +
                        std::to_string(unconfirmed_.size()));
  DrainFigures& f = shared_.figures;
  for (const Pending& p : unconfirmed_) {
    if (p.replay) {
      replayed_.erase(p.id);
      --f.replayed;
      ++state_.publishes_resent;  // it will be replayed again when it comes back
    } else {
      --f.parked;
    }
  }
  taken_ = std::max<int64_t>(0, taken_ - static_cast<int64_t>(held_.size() + unconfirmed_.size()));
  held_.clear();
  unconfirmed_.clear();
  get_.reset();
  pub_.reset();
  if (!Open()) return false;
  ++state_.reconnects;
  state_.log->Write("reconnect", EventLog::kNoMessage, -1, -1, "drainer");
  return true;
}

bool Drainer::AckConfirmed(std::chrono::milliseconds wait) {
  if (!unconfirmed_.empty() && !pub_->WaitConfirms(wait)) {
    if (Recover()) return true;
    state_.Fail("drainer: confirm: " + (pub_->Ok() ? "a publish was nacked" : pub_->error()));
    return false;
  }
  while (!unconfirmed_.empty() && unconfirmed_.front().seq <= pub_->confirmed()) {
    if (!get_->Ack(unconfirmed_.front().dlq_tag)) {
      if (Recover()) return true;
      state_.Fail("drainer: ack: " + get_->error());
      return false;
    }
    unconfirmed_.pop_front();
  }
  return true;
}

bool Drainer::SleepUntil(Clock::time_point due) {
  while (Clock::now() < due) {
    if (DrainerStopping(state_, shared_)) return false;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(due - Clock::now());
    const auto step = std::min(left, std::chrono::milliseconds(50));
    if (unconfirmed_.empty()) {
      std::this_thread::sleep_for(std::min<Clock::duration>(due - Clock::now(), step));
    } else if (!AckConfirmed(step)) {
      return false;
    }
  }
  return true;
}

bool Drainer::Open() {
  std::string error;
  // The connection, or nullptr with `error` saying why.
  const auto open = [&](const char* name) -> std::unique_ptr<AmqpConnection> {
    base::Expected<std::unique_ptr<AmqpConnection>> opened =
        state_.reconnect ? OpenWithRetry(state_.amqp_url, name, ReconnectPolicy{}, {},
                                         [this] { return StopRequested() || state_.failed.load(); })
                         : AmqpConnection::Open(state_.amqp_url, name);
    if (!opened) {
      error = opened.error();
      return nullptr;
    }
    return std::move(*opened);
  };
  get_ = open("drainsim live: drainer");
  if (get_) pub_ = open("drainsim live: drainer publish");
  if (!get_ || !pub_ || !pub_->ConfirmSelect()) {
    state_.Fail("drainer: " + (pub_ ? pub_->error() : error));
    return false;
  }
  return true;
}

bool Drainer::WaitStart(Clock::time_point at) {
  while (Clock::now() < at) {
    if (DrainerStopping(state_, shared_)) return false;
    std::this_thread::sleep_for(
        std::min<Clock::duration>(at - Clock::now(), std::chrono::milliseconds(50)));
  }
  return !DrainerStopping(state_, shared_);
}

bool Drainer::Replay(const AmqpMessage& message, uint64_t id) {
  const auto ready = Clock::now();  // the next DLQ message in hand: ready for a token
  const int recoveries = recoveries_;
  const auto due =
      started_ +
      std::chrono::microseconds(pacer_.Take(
          std::chrono::duration_cast<std::chrono::microseconds>(ready - started_).count()));
  if (!SleepUntil(due)) {  // stopping: not replayed, it stays in the DLQ
    if (recoveries_ == recoveries) held_.push_back(message.delivery_tag);
    return !state_.failed;
  }
  if (recoveries_ != recoveries) {  // its connection was lost meanwhile: it comes back
    --taken_;
    return true;
  }
  NoteBusy(ready, due);
  const PlannedMessage& m = state_.plan.messages.at(id);
  const int64_t life_base =
      ReplayLifeBase(state_.deliveries[id], HeaderInt(message.headers, "x-drainsim-life-base", 0),
                     state_.scenario.broker.redrive_attempts);
  AmqpHeaders headers = PublishHeaders(m);
  headers["x-drainsim-life-base"] = life_base;
  headers["x-drainsim-replay-of"] = static_cast<int64_t>(id);
  const auto publish_at = Clock::now();
  NoteSlow("wake-up after the token", due);
  replayed_.insert(id);
  DrainFigures& f = shared_.figures;
  ++f.replayed;
  if (!Publish(state_.topology.main_queue, id, headers, message.delivery_tag, true)) return false;
  if (recoveries_ != recoveries) return true;  // lost with its connection: it comes back
  NoteSlow("basic.publish", publish_at);
  f.last_replay_at_s = state_.log->Now();
  state_.Touch();
  state_.log->Write("replay", id, -1, -1, "life-base=" + std::to_string(life_base));
  return true;
}

bool Drainer::ParkOther(const AmqpMessage& message, uint64_t id) {
  const PlannedMessage& m = state_.plan.messages.at(id);
  AmqpHeaders headers = PublishHeaders(m);
  headers["x-drainsim-parked"] = std::string("drain: not selected");
  ++shared_.figures.parked;
  const int recoveries = recoveries_;
  if (!Publish(state_.topology.parking_queue, id, headers, message.delivery_tag, false)) {
    return false;
  }
  if (recoveries_ != recoveries) return true;  // lost with its connection: it comes back
  state_.log->Write("drain_park", id, -1, -1, "others=park");
  return true;
}

bool Drainer::Handle(AmqpMessage message, bool sorting) {
  const int64_t id = HeaderInt(message.headers, "x-drainsim-id", -1);
  if (id < 0 || static_cast<size_t>(id) >= state_.plan.messages.size()) {
    held_.push_back(message.delivery_tag);  // not ours (cannot be: the DLQ is the run's own)
    return true;
  }
  const bool selected = Selected(drain_.select, ViewOf(message, state_.scenario));
  const auto uid = static_cast<uint64_t>(id);
  if (replayed_.count(uid) && HeaderInt(message.headers, "x-drainsim-replay-of", -1) < 0) {
    // The original of a confirmed replay whose DLQ ack died with a connection (a
    // broker_restart): its copy is in the main queue, so it is acked now. (A replay that came
    // back dead-lettered carries x-drainsim-replay-of.)
    --taken_;
    state_.log->Write("drain_ack_again", uid, -1, -1, "its ack was lost with the connection");
    return get_->Ack(message.delivery_tag) || Recover();
  }
  if (selected && !replayed_.count(uid) && !AtLimit()) return Replay(message, uid);
  if (!selected && sorting && drain_.others == config::DrainOthers::kPark) {
    return ParkOther(message, uid);
  }
  if (selected && !replayed_.count(uid)) {
    left_.insert(uid);
    shared_.figures.left = static_cast<int64_t>(left_.size());
  }
  held_.push_back(message.delivery_tag);
  return true;
}

void Drainer::ReturnHeld() {
  if (!unconfirmed_.empty() && get_->Ok() && pub_->Ok()) AckConfirmed(std::chrono::seconds(10));
  for (uint64_t tag : held_) {
    if (!get_->Ok() || !get_->Reject(tag, true, true)) break;
  }
  held_.clear();
  get_.reset();  // connection.close: after the nacks, which the broker handles in order
  pub_.reset();
}

void Drainer::Run(Clock::time_point run_start) {
  // start_at_s, or start_after_fix_s after the latest bug fix (live/attempt_fates.h).
  const engine::Instant planned = DrainStartAt(state_.scenario, drain_);
  const auto start_at =
      run_start + std::chrono::microseconds((planned - engine::Instant::Zero()).micros());
  // Connected before the start (heartbeats are off, live/amqp_connection.cc): the drain starts
  // at its planned instant, not two connection handshakes later (238 ms at load 10).
  if (!Open() || !WaitStart(start_at)) {
    shared_.idle = true;
    return;
  }
  std::optional<int64_t> at_start = get_->ReadyCount(state_.topology.dlq);
  if (!at_start && Recover()) at_start = get_->ReadyCount(state_.topology.dlq);
  if (!at_start) {
    state_.Fail("drainer: " + get_->error());
    return;
  }
  started_ = Clock::now();
  DrainFigures& f = shared_.figures;
  f.started = true;
  f.started_at_s = state_.log->Now();
  f.planned_start_s = planned.seconds();
  f.slack_ms = BucketSlackMs(drain_);
  state_.log->Write("drain_start", 0, -1, -1, "in_dlq=" + std::to_string(*at_start));
  bool ended = false;
  while (!DrainerStopping(state_, shared_)) {
    const bool sorting = taken_ < *at_start;
    if (!ended && AtLimit() && !sorting) {
      ended = true;
      f.ended_at_s = state_.log->Now();
      state_.log->Write("drain_end", 0, -1, -1, "limit");
    }
    std::optional<AmqpMessage> message;
    const auto get_at = Clock::now();
    if (!ended) message = get_->Get(state_.topology.dlq, false);
    NoteSlow("basic.get", get_at);
    if (!message) {
      if (!get_->Ok()) {
        if (Recover()) continue;
        state_.Fail("drainer: " + get_->error());
        break;
      }
      taken_ = std::max(taken_, *at_start);  // nothing more of the start's DLQ to sort
      if (unconfirmed_.empty()) {
        shared_.idle = true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      } else if (!AckConfirmed(std::chrono::milliseconds(50))) {
        break;
      }
      continue;
    }
    shared_.idle = false;
    ++taken_;
    if (!Handle(std::move(*message), sorting)) break;
  }
  if (!f.ended_at_s) f.ended_at_s = state_.log->Now();
  ReturnHeld();
  shared_.idle = true;
}

}  // namespace

void RunDrainer(RunState& state, std::chrono::steady_clock::time_point run_start,
                DrainShared& shared) {
  Drainer(state, shared).Run(run_start);
}

}  // namespace drainsim::live
