#include "live/fault_plan.h"

#include <algorithm>

#include "sim/config/enum_names.h"

namespace drainsim::live {

std::vector<scenario::Problem> CheckFaultSupport(const config::Scenario& s,
                                                 std::vector<bool>* handled) {
  std::vector<scenario::Problem> out;
  handled->assign(s.faults.size(), false);
  for (size_t i = 0; i < s.faults.size(); ++i) {
    if (std::holds_alternative<config::WorkerCrashFault>(s.faults[i])) {
      (*handled)[i] = true;
    } else if (std::holds_alternative<config::DbOutageFault>(s.faults[i])) {
      (*handled)[i] = true;  // live/db_outage.h
    } else if (std::holds_alternative<config::BrokerRestartFault>(s.faults[i])) {
      (*handled)[i] = true;  // live/broker_restart.h
    } else if (std::holds_alternative<config::AckLossFault>(s.faults[i])) {
      (*handled)[i] = true;
      if (s.broker.on_visibility_timeout != config::OnVisibilityTimeout::kCloseChannel) {
        out.push_back({"/broker/on_visibility_timeout",
                       "ack_loss live needs on_visibility_timeout close_channel: a lost ack is an "
                       "unacked delivery, and RabbitMQ's consumer timeout closes its channel"});
      }
    }
  }
  return out;
}

std::optional<int64_t> ConsumerTimeoutMs(const config::Scenario& s) {
  for (const config::Fault& fault : s.faults) {
    if (std::holds_alternative<config::AckLossFault>(fault)) {
      return s.broker.visibility_timeout.micros() / 1000;
    }
  }
  return std::nullopt;
}

void FaultRecorder::Fated(uint64_t id, int success, SuccessFault what) {
  fates_[id].push_back(SuccessFate{success, what, -1});
  (what == SuccessFault::kAckLost ? figures_.acks_lost : figures_.crash_after_commit) += 1;
}

void FaultRecorder::CountAfterFate(uint64_t id, int success, bool committed) {
  const auto it = fates_.find(id);
  if (it == fates_.end() || it->second.front().success >= success) return;
  (committed ? figures_.duplicates_after_fault : figures_.suppressed_after_fault) += 1;
}

void FaultRecorder::OnCommit(const model::CommitInfo& info) {
  const int success = ++successes_[info.message_id];
  CountAfterFate(info.message_id, success, /*committed=*/true);
  last_commit_ = LastCommit{info.message_id, info.worker, info.at, success, true};
}

void FaultRecorder::OnAttemptEnd(const model::AttemptEndInfo& info) {
  int success = 0;
  if (info.outcome == model::AttemptOutcome::kSuppressed) {
    success = ++successes_[info.message_id];
    CountAfterFate(info.message_id, success, /*committed=*/false);
  } else if (info.outcome == model::AttemptOutcome::kSucceeded) {
    success = successes_[info.message_id];  // OnCommit counted it
  } else {
    return;
  }
  if (info.ack == model::AckFate::kLost) Fated(info.message_id, success, SuccessFault::kAckLost);
}

void FaultRecorder::OnWorkerCrash(uint32_t worker, bool after_commit, engine::Instant at) {
  PlannedCrash crash{worker, static_cast<double>(at.micros()) / 1e6, after_commit, -1};
  // CrashWorker(after_commit) runs inside World::Commit, right after the commit's notification.
  if (after_commit && last_commit_.valid && last_commit_.worker == worker &&
      last_commit_.at == at) {
    crash.message_id = static_cast<int64_t>(last_commit_.id);
    Fated(last_commit_.id, last_commit_.success, SuccessFault::kCrashAfterCommit);
  }
  ++figures_.crashes;
  crashes_.push_back(crash);
  last_commit_.valid = false;
}

void FaultRecorder::Finish(Plan* plan) const {
  for (const auto& [id, fates] : fates_) {
    if (id >= plan->messages.size()) continue;
    std::vector<SuccessFate>& out = plan->messages[id].success_fates;
    out = fates;
    std::stable_sort(out.begin(), out.end(), [](const SuccessFate& a, const SuccessFate& b) {
      return a.success < b.success;
    });
    for (SuccessFate& fate : out) {
      for (size_t f = 0; f < scenario_.faults.size(); ++f) {
        const config::FaultType type = config::TypeOf(scenario_.faults[f]);
        const bool match = fate.what == SuccessFault::kAckLost
                               ? type == config::kTypeOf<config::AckLossFault>
                               : type == config::kTypeOf<config::WorkerCrashFault>;
        if (match) {
          fate.fault_index = static_cast<int>(f);
          break;
        }
      }
    }
  }
  plan->crashes = crashes_;
  plan->faults = figures_;
  for (const config::Fault& fault : scenario_.faults) {
    const config::FaultType type = config::TypeOf(fault);
    if (type == config::kTypeOf<config::WorkerCrashFault> ||
        type == config::kTypeOf<config::AckLossFault>) {
      plan->faults.active = true;
    }
  }
}

}  // namespace drainsim::live
