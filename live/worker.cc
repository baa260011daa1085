#include "live/worker.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>

#include "live/amqp_connection.h"
#include "live/handler.h"
#include "live/stop_signal.h"

namespace drainsim::live {

namespace {

struct Job {
  uint64_t delivery_tag = 0;
  AmqpMessage message;
  int64_t id = -1;
  int attempt = 0;
};

struct Done {
  uint64_t delivery_tag = 0;
  int64_t id = -1;
  int attempt = 0;
  Verdict verdict;
};

// The hand-off between the connection thread and the slots.
class Mailbox {
 public:
  void PushJob(Job job) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      jobs_.push_back(std::move(job));
    }
    cv_.notify_one();
  }
  // A job, or nullopt once `closing` and no job is left (checked every 50 ms).
  std::optional<Job> PopJob(const std::atomic<bool>& closing) {
    std::unique_lock<std::mutex> lock(mu_);
    while (jobs_.empty()) {
      if (closing) return std::nullopt;
      cv_.wait_for(lock, std::chrono::milliseconds(50));
    }
    Job job = std::move(jobs_.front());
    jobs_.pop_front();
    return job;
  }
  void PushDone(Done done) {
    std::lock_guard<std::mutex> lock(mu_);
    done_.push_back(std::move(done));
  }
  std::deque<Done> TakeDone() {
    std::lock_guard<std::mutex> lock(mu_);
    return std::exchange(done_, {});
  }
  void DropJobs() {
    std::lock_guard<std::mutex> lock(mu_);
    jobs_.clear();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Job> jobs_;
  std::deque<Done> done_;
};

class Worker {
 public:
  Worker(RunState& state, int index) : state_(state), index_(index) {}
  void Run();

 private:
  bool Settle(const Done& done);
  bool Park(const Done& done);
  void Receive(AmqpMessage message);

  RunState& state_;
  int index_;
  std::unique_ptr<AmqpConnection> conn_;
  std::unique_ptr<AmqpConnection> park_conn_;  // opened on the first park
  Mailbox mailbox_;
  std::atomic<bool> closing_{false};
};

void Worker::Receive(AmqpMessage message) {
  Job job;
  job.delivery_tag = message.delivery_tag;
  job.id = HeaderInt(message.headers, "x-drainsim-id", -1);
  if (job.id < 0 || static_cast<size_t>(job.id) >= state_.deliveries.size()) {
    // Not one of ours: leave it alone in the queue (it cannot be: the queue is the run's own).
    ++state_.unknown_deliveries;
    conn_->Reject(job.delivery_tag, true, false);
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

bool Worker::Park(const Done& done) {
  std::string error;
  if (!park_conn_) {
    park_conn_ = AmqpConnection::Open(
        state_.amqp_url, "drainsim live: worker " + std::to_string(index_) + " parking", &error);
    if (!park_conn_ || !park_conn_->ConfirmSelect()) {
      state_.Fail("worker parking: " + (park_conn_ ? park_conn_->error() : error));
      return false;
    }
  }
  const PlannedMessage& m = state_.plan.messages.at(done.id);
  AmqpHeaders headers = {{"x-drainsim-id", done.id},
                         {"x-drainsim-kind", m.kind},
                         {"x-drainsim-key", m.key},
                         {"x-drainsim-parked", done.verdict.detail}};
  if (!park_conn_->Publish(state_.topology.parking_queue, std::to_string(done.id), headers, "{}") ||
      !park_conn_->WaitConfirms(std::chrono::seconds(10)) ||
      park_conn_->confirmed() != park_conn_->published()) {
    state_.Fail("worker parking: " + park_conn_->error());
    return false;
  }
  state_.log->Write("park", done.id, index_, done.attempt, done.verdict.detail);
  return conn_->Ack(done.delivery_tag);
}

bool Worker::Settle(const Done& done) {
  bool ok = true;
  switch (done.verdict.action) {
    case Action::kAck:
      ok = conn_->Ack(done.delivery_tag);
      state_.acked[done.id] = true;
      state_.log->Write("ack", done.id, index_, done.attempt, done.verdict.detail);
      break;
    case Action::kRequeue:
    case Action::kDeadLetter: {
      const bool requeue = done.verdict.action == Action::kRequeue;
      const bool nack = state_.scenario.retry.requeue_with == scenario::RequeueWith::kNack;
      ok = conn_->Reject(done.delivery_tag, requeue, nack);
      state_.log->Write(requeue ? (nack ? "nack_requeue" : "reject_requeue")
                                : (nack ? "nack_dead_letter" : "reject_dead_letter"),
                        done.id, index_, done.attempt, done.verdict.detail);
      break;
    }
    case Action::kPark:
      ok = Park(done);
      break;
  }
  --state_.in_flight;
  state_.Touch();
  return ok;
}

void Worker::Run() {
  std::string error;
  conn_ = AmqpConnection::Open(state_.amqp_url, "drainsim live: worker " + std::to_string(index_),
                               &error);
  if (!conn_ || !conn_->Qos(static_cast<int>(state_.scenario.workers.prefetch)) ||
      !conn_->Consume(state_.topology.main_queue)) {
    state_.Fail("worker " + std::to_string(index_) + ": " + (conn_ ? conn_->error() : error));
    return;
  }
  std::vector<std::thread> slots;
  for (int64_t s = 0; s < state_.scenario.workers.concurrency; ++s) {
    slots.emplace_back([this] {
      while (std::optional<Job> job = mailbox_.PopJob(closing_)) {
        Verdict verdict = RunHandler(state_, job->message, job->id, job->attempt, index_);
        mailbox_.PushDone(Done{job->delivery_tag, job->id, job->attempt, std::move(verdict)});
      }
    });
  }
  // 2 ms waits: a slot's result is acked at most 2 ms after it is ready, while deliveries
  // buffered by the client are taken without waiting at all.
  while (!StopRequested() && !state_.workers_done && !state_.failed && conn_->Ok()) {
    for (const Done& done : mailbox_.TakeDone()) {
      if (!Settle(done)) break;
    }
    if (std::optional<AmqpMessage> message = conn_->NextDelivery(std::chrono::milliseconds(2))) {
      Receive(std::move(*message));
    }
  }
  // Stopping: the jobs not started are left unacked (the broker requeues them when the
  // connection closes); the running ones finish and are settled.
  mailbox_.DropJobs();
  closing_ = true;
  for (std::thread& slot : slots) slot.join();
  // Work that committed is acked if the connection still can: an interrupted run should not
  // turn into a crash between commit and ack.
  for (const Done& done : mailbox_.TakeDone()) {
    if (!conn_->Ok() || !Settle(done)) break;
  }
  if (!conn_->Ok()) state_.Fail("worker " + std::to_string(index_) + ": " + conn_->error());
}

}  // namespace

void RunWorker(RunState& state, int index) { Worker(state, index).Run(); }

}  // namespace drainsim::live
