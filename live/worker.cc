#include "live/worker.h"
#include "live/worker_impl.h"

#include <thread>
#include <utility>

#include "live/amqp_connection.h"
#include "live/duplicate_copy.h"
#include "live/handler.h"
#include "live/reconnect.h"
#include "live/retry_plan.h"
#include "live/stop_signal.h"
#include "live/worker_mailbox.h"

namespace drainsim::live {

namespace worker_impl {

void Worker::Receive(AmqpMessage message) {
  Job job;
  job.session = session_;
  job.delivery_tag = message.delivery_tag;
  job.id = HeaderInt(message.headers, "x-drainsim-id", -1);
  if (job.id < 0 || static_cast<size_t>(job.id) >= state_.deliveries.size()) {
    // Not one of ours: leave it alone in the queue (it cannot be: the queue is the run's own).
    ++state_.unknown_deliveries;
    conn_->Reject(job.delivery_tag, true, false);
    return;
  }
  // A republished copy received a second time (live/duplicate_copy.h): acked, not run.
  if (const std::optional<int64_t> key = CopyKey(message.headers);
      key && IsDuplicateCopy(state_.copy_seen[job.id], *key, message.redelivered)) {
    ++state_.duplicate_copies;
    state_.log->Write("duplicate_copy", job.id, index_,
                      static_cast<int>(HeaderInt(message.headers, "x-drainsim-attempt", 0)),
                      "acked, not run");
    state_.Touch();
    conn_->Ack(job.delivery_tag);  // a failed ack: the broker redelivers it (then it runs)
    return;
  }
  // The attempt in this life: a drain's republish starts a new one (live/drainer.h).
  job.attempt = ++state_.deliveries[job.id] -
                static_cast<int>(HeaderInt(message.headers, "x-drainsim-life-base", 0));
  ++state_.in_flight;
  state_.Touch();
  const int64_t broker_count = HeaderInt(message.headers, "x-delivery-count", 0);
  state_.log->Write("delivery", job.id, index_, job.attempt,
                    "x-delivery-count=" + std::to_string(broker_count) +
                        (message.redelivered ? " redelivered" : ""));
  job.message = std::move(message);
  mailbox_.PushJob(std::move(job));
}

// sleep_in_consumer: the slot sleeps the backoff holding the delivery (stoppable, and cut short
// by a crash of this worker); false when it was cut short.
bool Worker::SleepBackoff(int64_t backoff_us) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(backoff_us);
  while (std::chrono::steady_clock::now() < until) {
    if (StopRequested() || state_.workers_done || state_.failed ||
        state_.worker_down[static_cast<size_t>(index_)]) {
      return false;
    }
    const auto left = until - std::chrono::steady_clock::now();
    std::this_thread::sleep_for(
        std::min<std::chrono::steady_clock::duration>(left, std::chrono::milliseconds(20)));
  }
  return true;
}

// The slot's side of a success: which of the message's successes it is, and the plan's fate
// for it (live/fault_plan.h); successes after a fated one are the fault's duplicates.
std::optional<SuccessFault> SuccessFaultOf(RunState& state, int64_t id, const Verdict& verdict) {
  if (verdict.action != Action::kAck) return std::nullopt;
  const int success = ++state.successes[static_cast<size_t>(id)];
  const std::vector<SuccessFate>& fates =
      state.plan.messages[static_cast<size_t>(id)].success_fates;
  if (fates.empty()) return std::nullopt;
  if (success > fates.front().success) {
    ++(verdict.detail == "suppressed" ? state.suppressed_after_fault
                                      : state.duplicates_after_fault);
  }
  for (const SuccessFate& fate : fates) {
    if (fate.success == success) return fate.what;
  }
  return std::nullopt;
}

void Worker::RunSlot() {
  const bool sleep = state_.scenario.retry.delivery == config::RetryDelivery::kSleepInConsumer;
  while (std::optional<Job> job = mailbox_.PopJob(closing_, running_)) {
    Verdict verdict = RunHandler(state_, job->message, job->id, job->attempt, index_);
    int64_t backoff_us = 0;
    while (verdict.action == Action::kRetryLater) {
      backoff_us = LiveBackoffUs(state_.scenario, state_.plan.messages.at(job->id),
                                 state_.plan.seed, job->attempt, verdict.error);
      if (verdict.wait_us) backoff_us = *verdict.wait_us;  // a downstream failure's own
      if (!sleep) break;  // republish: the connection thread publishes the copy
      state_.log->Write("sleep", job->id, index_, job->attempt,
                        verdict.detail + "; backoff_us=" + std::to_string(backoff_us));
      if (!SleepBackoff(backoff_us)) {
        // Unacked: the broker returns it when the connection closes (or has, after a crash).
        verdict = {Action::kDrop, "sleep cut short", verdict.error};
        break;
      }
      ++job->attempt;  // the next attempt, on the same delivery
      verdict = RunHandler(state_, job->message, job->id, job->attempt, index_);
    }
    const std::optional<SuccessFault> fault = SuccessFaultOf(state_, job->id, verdict);
    Done done;
    done.session = job->session;
    done.delivery_tag = job->delivery_tag;
    done.id = job->id;
    done.attempt = job->attempt;
    done.verdict = std::move(verdict);
    done.fault = fault;
    if (done.verdict.action == Action::kRetryLater) {
      done.headers = job->message.headers;
      done.backoff_us = backoff_us;
    }
    mailbox_.PushDone(std::move(done));
    --running_;
  }
}

bool Worker::Connect() {
  const std::string name = "drainsim live: worker " + std::to_string(index_);
  const auto setup = [this](AmqpConnection& c) {
    return c.Qos(static_cast<int>(state_.scenario.workers.prefetch)) &&
           c.Consume(state_.topology.main_queue);
  };
  if (state_.reconnect) {
    // Also the first connection: a worker that starts while a restart is under way waits.
    base::Expected<std::unique_ptr<AmqpConnection>> opened = OpenWithRetry(
        state_.amqp_url, name, ReconnectPolicy{}, setup,
        [this] { return StopRequested() || state_.workers_done.load() || state_.failed.load(); });
    if (!opened) {
      conn_.reset();
      if (!StopRequested() && !state_.workers_done) state_.Fail(opened.error());
      return false;
    }
    conn_ = std::move(*opened);
  } else {
    base::Expected<std::unique_ptr<AmqpConnection>> opened =
        AmqpConnection::Open(state_.amqp_url, name);
    conn_ = opened ? std::move(*opened) : nullptr;
    if (!conn_ || !setup(*conn_)) {
      state_.Fail("worker " + std::to_string(index_) + ": " +
                  (conn_ ? conn_->error() : opened.error()));
      return false;
    }
  }
  withheld_ = 0;
  ++session_;
  return true;
}

bool Worker::TimedCrashDue() {
  if (next_crash_ >= timed_crashes_.size() ||
      state_.log->Now() - state_.run_start_s < timed_crashes_[next_crash_].at_s) {
    return false;
  }
  ++next_crash_;
  return true;
}

// One connection's life: receive and settle until the run stops, the plan crashes the worker,
// or the broker closes the channel (a consumer timeout: a withheld ack ran out).
SessionEnd Worker::Session() {
  // 2 ms waits: a slot's result is acked at most 2 ms after it is ready, while deliveries
  // buffered by the client are taken without waiting at all.
  while (!StopRequested() && !state_.workers_done && !state_.failed) {
    if (TimedCrashDue()) {
      state_.log->Write("crash", EventLog::kNoMessage, index_, -1, "point anywhere");
      return SessionEnd::kCrash;
    }
    bool crash = false;
    bool lost = false;
    for (const Done& done : mailbox_.TakeDone()) {
      if (crash || lost) {  // results behind a crash or a lost connection: Abandon counts them
        mailbox_.PushDone(done);
        continue;
      }
      if (!Settle(done, &crash)) {
        if (!Lost()) return SessionEnd::kError;
        lost = true;
      }
    }
    if (lost) return SessionEnd::kBrokerLost;
    if (crash) {
      crash_pending_ = true;
      return SessionEnd::kCrash;
    }
    std::optional<AmqpMessage> message = conn_->NextDelivery(std::chrono::milliseconds(2));
    if (message) {
      Receive(std::move(*message));
    } else if (Lost()) {
      return SessionEnd::kBrokerLost;  // the broker went away (a broker_restart)
    } else if (!conn_->Ok()) {
      // The broker closed the channel: RabbitMQ's consumer timeout when an ack was withheld.
      ++state_.channel_closes;
      state_.log->Write("channel_closed", EventLog::kNoMessage, index_, -1,
                        conn_->error() + "; withheld acks " + std::to_string(withheld_));
      return SessionEnd::kChannelClosed;
    }
  }
  return SessionEnd::kStop;
}

// After a crash or a closed channel: every delivery the connection held goes back to the queue
// (the broker requeues them), so none of it is in flight here any more. A crash rolls back the
// running handlers; after a closed channel they finish, and their settles are dropped (their
// delivery tags died with the channel: work that committed will run again).
void Worker::Abandon(SessionEnd end) {
  if (end == SessionEnd::kCrash) {
    state_.worker_down[static_cast<size_t>(index_)] = true;
    ++state_.crashes;
    conn_->Abort();
  }
  int64_t gone = withheld_ + static_cast<int64_t>(mailbox_.DropJobs()) + (crash_pending_ ? 1 : 0);
  withheld_ = 0;
  crash_pending_ = false;
  while (running_ > 0 && !StopRequested())
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  for (const Done& done : mailbox_.TakeDone()) {
    ++gone;
    if (done.verdict.action != Action::kDrop) {
      ++state_.settles_dropped;
      state_.log->Write("settle_dropped", done.id, index_, done.attempt, done.verdict.detail);
    }
  }
  conn_.reset();
  state_.in_flight -= gone;
  state_.Touch();
}

// workers.restart_s of wall time (stoppable); false when the run stops meanwhile.
bool Worker::SleepRestart() {
  const auto until = std::chrono::steady_clock::now() +
                     std::chrono::microseconds(state_.scenario.workers.restart.micros());
  while (std::chrono::steady_clock::now() < until) {
    if (StopRequested() || state_.workers_done || state_.failed) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

void Worker::Run() {
  if (!Connect()) return;
  std::vector<std::thread> slots;
  for (int64_t s = 0; s < state_.scenario.workers.concurrency; ++s) {
    slots.emplace_back([this] { RunSlot(); });
  }
  SessionEnd end = Session();
  while (end == SessionEnd::kCrash || end == SessionEnd::kChannelClosed ||
         end == SessionEnd::kBrokerLost) {
    if (end == SessionEnd::kBrokerLost) {
      ++state_.connections_lost;
      ++state_.consumers_away;
      state_.log->Write("connection_lost", EventLog::kNoMessage, index_, -1, conn_->error());
      // The broker closed every connection, the republish/parking one too: the next republish
      // opens a new one instead of first failing on the dead one (measured: 0.56 s lost so by
      // the first republish after a restart, scenarios/live-restart-retry.json).
      park_conn_.reset();
    }
    Abandon(end);
    if (end == SessionEnd::kCrash) {
      const bool back = SleepRestart();
      state_.worker_down[static_cast<size_t>(index_)] = false;
      if (!back) break;
      state_.log->Write("restart", EventLog::kNoMessage, index_, -1);
    }
    // Crashes the plan put while this worker was down are skipped: the simulation only crashes
    // a live worker.
    while (next_crash_ < timed_crashes_.size() &&
           timed_crashes_[next_crash_].at_s <= state_.log->Now() - state_.run_start_s) {
      ++next_crash_;
    }
    if (!Connect()) break;
    if (end == SessionEnd::kBrokerLost) {
      ++state_.reconnects;
      state_.log->Write("reconnect", EventLog::kNoMessage, index_, -1);
      std::lock_guard<std::mutex> lock(state_.consumer_reconnect_mu);
      state_.consumer_reconnects_s.push_back(state_.log->Now() - state_.run_start_s);
      state_.consumer_back_us = static_cast<int64_t>(state_.log->Now() * 1e6);
      --state_.consumers_away;
    }
    end = Session();
  }
  // Stopping: the jobs not started are left unacked (the broker requeues them when the
  // connection closes); the running ones finish and are settled.
  mailbox_.DropJobs();
  closing_ = true;
  for (std::thread& slot : slots) slot.join();
  if (!conn_) return;
  // Work that committed is acked if the connection still can: an interrupted run should not
  // turn into a crash between commit and ack.
  bool crash = false;
  for (const Done& done : mailbox_.TakeDone()) {
    if (!conn_->Ok() || !Settle(done, &crash) || crash) break;
  }
  if (!conn_->Ok()) state_.Fail("worker " + std::to_string(index_) + ": " + conn_->error());
}

}  // namespace worker_impl

void RunWorker(RunState& state, int index) { worker_impl::Worker(state, index).Run(); }

}  // namespace drainsim::live
