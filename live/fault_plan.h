// Worker crashes and lost acks for `drainsim live` (issue 14, "faults for real"): which of them
// the live run can reproduce, and the simulation's draws it reproduces.
//
// The simulation decides where its faults hit (sim/model/world_faults.cc): a worker_crash fault
// picks a worker at an instant, and with point between_commit_and_ack that worker dies at its
// next commit; an ack_loss fault draws, per (message, execution), whether the ack is lost. A
// live run cannot replay the simulation's worker assignment (which worker takes which message
// depends on real timing), so the plan pins each fault to what it hit:
//  - a crash between commit and ack -> the message whose commit it followed, and which of that
//    message's successes it was (live: the worker that makes that success drops its connection
//    instead of acking);
//  - a lost ack -> the message and which of its successes (a commit or a claim suppression);
//  - a crash at any point -> the worker index and the instant (live: that worker drops its
//    connection at that wall second).
//
// Contract:
//  (1) FaultRecorder observes one simulation (it never changes it) and, at Finish(), writes into
//      the plan: success_fates per message (sorted by success), crashes in time order, and the
//      figures `faults` counted the way harness.h counts them live: a success of a fated message
//      after its first fated success is a duplicate execution (a commit) or a suppression.
//  (2) CheckFaultSupport() accepts worker_crash (any point, at_s or rate_per_h), db_outage
//      (live/db_outage.h), broker_restart (live/broker_restart.h) and ack_loss, and refuses
//      ack_loss unless
//      broker.on_visibility_timeout is close_channel: a lost ack live is an unacked delivery,
//      and RabbitMQ's consumer timeout closes its channel.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "live/plan.h"
#include "sim/model/observer.h"

namespace drainsim::live {

// Problems of the scenario's worker_crash and ack_loss faults; `handled[i]` is set for every
// fault i this check covers (so that the generic check does not refuse it).
std::vector<scenario::Problem> CheckFaultSupport(const config::Scenario& scenario,
                                                 std::vector<bool>* handled);

// The private RabbitMQ's consumer_timeout for a scenario with an ack_loss fault:
// broker.visibility_timeout_s in milliseconds (a withheld ack comes back when the consumer
// timeout closes its channel); nullopt without one (RabbitMQ's default, 30 minutes).
std::optional<int64_t> ConsumerTimeoutMs(const config::Scenario& scenario);

class FaultRecorder : public model::RunObserver {
 public:
  explicit FaultRecorder(const config::Scenario& scenario) : scenario_(scenario) {}
  void OnCommit(const model::CommitInfo& info) override;
  void OnAttemptEnd(const model::AttemptEndInfo& info) override;
  void OnWorkerCrash(uint32_t worker, bool after_commit, engine::Instant at) override;
  // REQUIRES: the simulation has ended and plan->messages holds its publishes.
  void Finish(Plan* plan) const;

 private:
  void Fated(uint64_t id, int success, SuccessFault what);
  void CountAfterFate(uint64_t id, int success, bool committed);

  const config::Scenario& scenario_;
  std::map<uint64_t, int> successes_;  // per message id
  std::map<uint64_t, std::vector<SuccessFate>> fates_;
  std::vector<PlannedCrash> crashes_;
  FaultFigures figures_;
  struct LastCommit {
    uint64_t id = 0;
    uint32_t worker = 0;
    engine::Instant at;
    int success = 0;
    bool valid = false;
  } last_commit_;
};

}  // namespace drainsim::live
