// The hand-off between a live worker's connection thread and its slot threads (worker.h): the
// jobs (deliveries) for the slots, and their results (what to settle) for the connection thread.
//
// Invariants:
//  (1) A job taken by PopJob counts in `running` from the moment it leaves the mailbox, so a
//      job is always either in the mailbox or counted running until its result is pushed.
//  (2) PopJob waits at most 50 ms between checks of `closing`.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <utility>

#include "live/amqp_connection.h"
#include "live/handler.h"
#include "live/plan.h"

namespace drainsim::live::worker_mailbox {

struct Job {
  int session = 0;  // the connection it came on (delivery tags are per channel)
  uint64_t delivery_tag = 0;
  AmqpMessage message;
  int64_t id = -1;
  int attempt = 0;
};

struct Done {
  int session = 0;
  uint64_t delivery_tag = 0;
  int64_t id = -1;
  int attempt = 0;
  Verdict verdict;
  std::optional<SuccessFault> fault;  // the plan's fate for this success (live/fault_plan.h)
  // kRetryLater (republish): the delivery's headers for the copy, and the backoff.
  AmqpHeaders headers;
  int64_t backoff_us = 0;
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
  // A job, or nullopt once `closing` and no job is left (checked every 50 ms); a job taken
  // counts in `running` from the moment it leaves the mailbox.
  std::optional<Job> PopJob(const std::atomic<bool>& closing, std::atomic<int>& running) {
    std::unique_lock<std::mutex> lock(mu_);
    while (jobs_.empty()) {
      if (closing) return std::nullopt;
      cv_.wait_for(lock, std::chrono::milliseconds(50));
    }
    Job job = std::move(jobs_.front());
    jobs_.pop_front();
    ++running;
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
  // Drops the jobs not started; returns how many.
  size_t DropJobs() {
    std::lock_guard<std::mutex> lock(mu_);
    const size_t n = jobs_.size();
    jobs_.clear();
    return n;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Job> jobs_;
  std::deque<Done> done_;
};

}  // namespace drainsim::live::worker_mailbox
