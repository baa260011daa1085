// The scenario's broker_restart faults for real, on the run's private RabbitMQ (issue 14,
// "faults for real": the node restarted).
//
// The model (sim/model/world_broker.cc, World::BrokerRestart): at `at_s` every unacked delivery
// goes back to the queue (without counting towards the delivery limit; its redelivery's
// duplicate has cause "other"), the attempts running go on as stale copies whose acks are
// ignored, for `downtime_s` and then `recovery_s` nothing is delivered or acked, publishes still
// enter the queue, and then delivery resumes at once. recovery_s is the model's stand-in for
// what the real broker does here: its start and the clients' reconnection. So the real downtime
// is downtime_s only (recovery_s is never added to it); what the recovery really took is
// measured and reported beside the scenario's recovery_s (RestartRecord::measured_recovery_s),
// for calibrating it.
//
// How, for real: the RabbitMQ application of the node is stopped and started again inside the
// running Erlang VM (rabbit:stop() then rabbit:start(), what `rabbitmqctl stop_app` and
// `start_app` call), by one `rabbitmqctl eval` launched kLeadS before the instant: the
// expression itself waits for the instant on the node's clock (os:system_time, the machine's
// clock, which drainsim converts to the run's), so the stop is not late by the CLI's own start
// (1.5-2 s of Erlang boot), then waits until at_s + downtime_s and starts the application. Why
// the application and not the process: stopping it closes every client connection
// (CONNECTION_FORCED), stops the queues and returns every unacked delivery, exactly what the
// model's restart does, and starting it recovers the durable queues and their persistent
// messages from disk (a quorum queue replays its Raft log) in about 0.5-1 s, against 5-10 s for
// a whole new VM; and a new process would have to be launched by the thread that owns the
// services (the parent-death signal belongs to the forking thread), not by the run's.
// What the model does not have, reported beside it: the real downtime is downtime_s plus the
// application's start (the broker answers again only after rabbit:start() returned) plus the
// clients' reconnection (live/reconnect.h); publishes due meanwhile wait in the producer.
//
// Contract:
//  (1) BrokerRestartProblems() refuses broker_restart at /faults/N/type when the broker is not
//      the run's own (--amqp): we never restart someone else's broker.
//  (2) RunBrokerRestarts() performs the scenario's restarts in time order (overlapping ones:
//      the later one starts when the earlier one has ended), sets RunState::broker_restarting
//      from the launch of each CLI until the broker accepts a connection again, logs
//      broker_stop / broker_start / broker_up events at the node's instants, and fills
//      RestartFigures; an operating error (the CLI failed, the broker never came back within
//      the reconnect schedule) is RunState::Fail(). It returns early when the run stops.
//  (3) RestartExpression() and ParseRestartOutput() are pure: the expression waits with
//      timer:sleep for whole milliseconds, and the parser accepts the CLI's printed term with
//      any whitespace (the term printer wraps long lines).
//  (4) AttachConsumerReconnects() is pure: each restart's first_consumer_s is the earliest
//      worker reconnect at or after its stop_called_s and before the next restart's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "live/process.h"
#include "live/run_state.h"

namespace drainsim::live {

inline constexpr double kRestartLeadS = 5.0;  // the CLI is launched this long before the instant

struct PlannedRestart {
  int fault_index = -1;
  double at_s = 0;
  double downtime_s = 0;
  double recovery_s = 0;  // the scenario's, reported only: never added to the real downtime
};

// The scenario's broker_restart faults, by instant.
std::vector<PlannedRestart> BrokerRestarts(const config::Scenario& scenario);

// Contract (1).
std::vector<scenario::Problem> BrokerRestartProblems(const config::Scenario& scenario,
                                                     bool external_broker);

// The node-side program of one restart: wait until stop_at_unix_us, rabbit:stop(), wait until
// stop_at_unix_us + downtime_us, rabbit:start(); returns
// {drainsim_restart, StopResult, StartResult, T0, T1, T2, T3} (os:system_time in µs: stop
// called, stop returned, start called, start returned).
std::string RestartExpression(int64_t stop_at_unix_us, int64_t downtime_us);

struct RestartTimes {
  int64_t stop_called_us = 0, stop_returned_us = 0, start_called_us = 0, start_returned_us = 0;
};
// Contract (3): nullopt unless the output holds {drainsim_restart,ok,ok,T0,T1,T2,T3}.
std::optional<RestartTimes> ParseRestartOutput(const std::string& output);

// What rabbitmqctl needs to reach the private node (PrivateRabbitMq::ControlSpec), and the node's
// log, where it writes "Server startup complete" at every start.
struct BrokerControl {
  ChildSpec ctl;            // argv: rabbitmqctl and its global options; the command is appended
  std::string output_path;  // the CLI's stdout and stderr
  std::string node_log_path;
};

// One restart as it happened, in seconds of the run's clock.
struct RestartRecord {
  double planned_at_s = 0, downtime_s = 0, recovery_s = 0;
  double stop_called_s = 0, stop_returned_s = 0, start_called_s = 0, start_returned_s = 0;
  // The first AMQP connection accepted after the planned start (probed every 50 ms from then:
  // the listener opens before rabbit:start() returns).
  std::optional<double> up_s;
  // The first worker that consumed again after the restart (contract (4)); null: none did.
  std::optional<double> first_consumer_s;
  double real_downtime_s() const { return (up_s ? *up_s : start_returned_s) - stop_called_s; }
  // What the model's recovery_s stands for, measured: the application's start plus the first
  // consumer's reconnection, first_consumer_s - start_called_s (= (up_s - start_called_s) +
  // (first_consumer_s - up_s)). Null without a consumer back.
  std::optional<double> measured_recovery_s() const {
    if (!first_consumer_s) return std::nullopt;
    return *first_consumer_s - start_called_s;
  }
};

struct RestartFigures {
  bool active = false;  // the scenario has a broker_restart fault
  std::vector<RestartRecord> restarts;
  // "Server startup complete" in the node's log: before the first restart, and after the last
  // (waiting up to 10 s for the node to write it: its log is written with a delay).
  int64_t starts_before = -1, starts_after = -1;
};

// Counts the node's starts in its log; -1 when it cannot be read.
int64_t CountNodeStarts(const std::string& node_log_path);

// Contract (2).
void RunBrokerRestarts(RunState& state, const BrokerControl& control, RestartFigures* figures);

// Contract (4): reconnects_s in any order (RunState::consumer_reconnects_s).
void AttachConsumerReconnects(std::vector<double> reconnects_s, RestartFigures* figures);

}  // namespace drainsim::live
