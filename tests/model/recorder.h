// A run observer that keeps what happened to which message when, for tests that check a
// message's history exactly (lease_test.cc, rabbitmq_quorum_test.cc).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/model/observer.h"
#include "sim/model/simulation.h"

namespace drainsim::model::testing {

// What happened to which message when, in seconds.
class Recorder final : public RunObserver {
 public:
  struct Move {
    double at_s;
    uint64_t id;
    MessageState to;
    TransitionCause cause;
    config::DlqReason dlq_reason;
  };
  struct Start {
    double at_s;
    uint64_t id;
    uint32_t worker;
  };
  struct End {
    double at_s;
    uint64_t id;
    AttemptOutcome outcome;
    AckFate ack;
  };
  void OnTransition(const TransitionInfo& i) override {
    moves.push_back({i.at.seconds(), i.message_id, i.to, i.cause, i.dlq_reason});
  }
  void OnAttemptStart(const AttemptInfo& i) override {
    starts.push_back({i.at.seconds(), i.message_id, i.worker});
  }
  void OnAttemptEnd(const AttemptEndInfo& i) override {
    ends.push_back({i.at.seconds(), i.message_id, i.outcome, i.ack});
  }
  // Times at which message `id` moved to `to`.
  std::vector<double> TimesTo(uint64_t id, MessageState to) const {
    std::vector<double> out;
    for (const Move& m : moves) {
      if (m.id == id && m.to == to) out.push_back(m.at_s);
    }
    return out;
  }
  std::vector<double> StartTimes(uint64_t id) const {
    std::vector<double> out;
    for (const Start& s : starts) {
      if (s.id == id) out.push_back(s.at_s);
    }
    return out;
  }
  std::vector<Move> moves;
  std::vector<Start> starts;
  std::vector<End> ends;
};

// RunAudited with an observer attached (observers never change a run).
inline Results RunRecorded(const config::Scenario& scenario, Recorder& recorder) {
  RunOptions options;
  options.audit_every_event = true;
  options.observer = &recorder;
  return RunSimulation(scenario, 1, options);
}

using Times = std::vector<double>;

}  // namespace drainsim::model::testing
