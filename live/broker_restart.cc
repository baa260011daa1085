#include "live/broker_restart.h"

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

#include "live/reconnect.h"
#include "live/stop_signal.h"

namespace drainsim::live {

std::vector<PlannedRestart> BrokerRestarts(const config::Scenario& s) {
  std::vector<PlannedRestart> out;
  for (size_t i = 0; i < s.faults.size(); ++i) {
    if (const auto* r = std::get_if<config::BrokerRestartFault>(&s.faults[i])) {
      out.push_back({static_cast<int>(i), (r->at - engine::Instant::Zero()).seconds(),
                     r->downtime.seconds(), r->recovery.seconds()});
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const PlannedRestart& a, const PlannedRestart& b) {
    return a.at_s < b.at_s;
  });
  return out;
}

std::vector<scenario::Problem> BrokerRestartProblems(const config::Scenario& s,
                                                     bool external_broker) {
  std::vector<scenario::Problem> out;
  if (!external_broker) return out;
  for (const PlannedRestart& r : BrokerRestarts(s)) {
    out.push_back({"/faults/" + std::to_string(r.fault_index) + "/type",
                   "broker_restart is run only on the private RabbitMQ, not --amqp (drainsim live "
                   "never restarts someone else's broker)"});
  }
  return out;
}

std::string RestartExpression(int64_t stop_at_unix_us, int64_t downtime_us) {
  const std::string stop_at = std::to_string(stop_at_unix_us);
  const std::string start_at = std::to_string(stop_at_unix_us + downtime_us);
  return "Wait = fun(T) -> D = T - os:system_time(microsecond), "
         "if D > 0 -> timer:sleep((D + 999) div 1000); true -> ok end end, "
         "Wait(" +
         stop_at +
         "), T0 = os:system_time(microsecond), S = rabbit:stop(), "
         "T1 = os:system_time(microsecond), Wait(" +
         start_at +
         "), "
         "T2 = os:system_time(microsecond), R = rabbit:start(), "
         "T3 = os:system_time(microsecond), {drainsim_restart, S, R, T0, T1, T2, T3}.";
}

std::optional<RestartTimes> ParseRestartOutput(const std::string& output) {
  std::string compact;
  for (char c : output) {
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r') compact += c;
  }
  const size_t at = compact.find("{drainsim_restart,ok,ok,");
  if (at == std::string::npos) return std::nullopt;
  RestartTimes t;
  long long v[4];
  char close = 0;
  if (std::sscanf(compact.c_str() + at, "{drainsim_restart,ok,ok,%lld,%lld,%lld,%lld%c", &v[0],
                  &v[1], &v[2], &v[3], &close) != 5 ||
      close != '}') {
    return std::nullopt;
  }
  t.stop_called_us = v[0];
  t.stop_returned_us = v[1];
  t.start_called_us = v[2];
  t.start_returned_us = v[3];
  return t;
}

int64_t CountNodeStarts(const std::string& node_log_path) {
  std::ifstream in(node_log_path);
  if (!in) return -1;
  int64_t n = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.find("Server startup complete") != std::string::npos) ++n;
  }
  return n;
}

namespace {

using Clock = std::chrono::steady_clock;

int64_t UnixNowUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

bool Stopping(RunState& state) { return StopRequested() || state.workers_done || state.failed; }

// Waits until the run's clock reaches at_s; false when the run stops first.
bool WaitRunClock(RunState& state, double at_s) {
  while (state.log->Now() - state.run_start_s < at_s) {
    if (Stopping(state)) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// One restart: the CLI launched now, for the instant `r.at_s` of the run's clock.
// Waits for the restart's CLI to finish, probing the broker every 50 ms from the planned end of
// the downtime on. False (the run failed or stops) when it did not finish in time. *up_s: the
// first probe that found the broker back after one that found it down, if any.
bool WaitForRestartCli(RunState& state, Child& cli, const PlannedRestart& r, double run_now_s,
                       std::optional<double>* up_s) {
  // Bounded: the wait for the instant, the downtime, and a minute for the stop and the start.
  const auto deadline =
      Clock::now() + std::chrono::milliseconds(static_cast<int64_t>(
                         (std::max(0.0, r.at_s - run_now_s) + r.downtime_s + 60) * 1000));
  // Up only after a probe found the broker down: a stop later than planned (the CLI's own start
  // on a busy machine: 1.8-8.5 s late measured at load 11-14) is not the broker back. The
  // listener opens before rabbit:start() returns, and clients connect from then on.
  bool seen_down = false;
  while (!cli.WaitExit(std::chrono::milliseconds(50))) {
    if (StopRequested() || state.failed || Clock::now() >= deadline) {
      cli.Stop(SIGKILL, std::chrono::milliseconds(0));
      if (!StopRequested()) state.Fail("broker_restart: rabbitmqctl eval did not finish in time");
      return false;
    }
    const double now_s = state.log->Now() - state.run_start_s;
    if (!*up_s && now_s >= r.at_s + r.downtime_s) {
      if (!AmqpConnection::Open(state.amqp_url, "drainsim live: restart probe")) {
        seen_down = true;
      } else if (seen_down) {
        *up_s = now_s;
      }
    }
  }
  return true;
}

// The node's own instants of the stop and the start, in run seconds, logged now (the log's
// lines are in the order written). False (the run failed) when the CLI's output has none.
bool RecordNodeTimes(RunState& state, const BrokerControl& control, int64_t unix_zero_us,
                     RestartRecord* record) {
  const std::string output = ReadFile(control.output_path);
  const std::optional<RestartTimes> t = ParseRestartOutput(output);
  if (!t) {
    state.Fail("broker_restart: rabbitmqctl eval failed: " + output);
    return false;
  }
  auto run_s = [&](int64_t unix_us) { return static_cast<double>(unix_us - unix_zero_us) / 1e6; };
  record->stop_called_s = run_s(t->stop_called_us);
  record->stop_returned_s = run_s(t->stop_returned_us);
  record->start_called_s = run_s(t->start_called_us);
  record->start_returned_s = run_s(t->start_returned_us);
  char detail[200];
  std::snprintf(detail, sizeof detail,
                "stop_called_s=%.6f stop_returned_s=%.6f start_called_s=%.6f start_returned_s=%.6f",
                record->stop_called_s, record->stop_returned_s, record->start_called_s,
                record->start_returned_s);
  state.log->Write("broker_restart", EventLog::kNoMessage, -1, -1, detail);
  return true;
}

// Up: the first connection the broker accepts (as a client sees it), at most 50 ms late.
std::optional<double> AwaitBrokerUp(RunState& state) {
  const base::Expected<std::unique_ptr<AmqpConnection>> probe =
      OpenWithRetry(state.amqp_url, "drainsim live: restart probe", ReconnectPolicy{}, {},
                    [&] { return StopRequested() || state.failed; });
  if (!probe) {
    if (!StopRequested()) {
      state.Fail("broker_restart: the broker did not come back: " + probe.error());
    }
    return std::nullopt;
  }
  return state.log->Now() - state.run_start_s;
}

bool RestartOnce(RunState& state, const BrokerControl& control, const PlannedRestart& r,
                 RestartRecord* record) {
  // The run's clock in the machine's: unix µs of run time 0 (both read now, a few µs apart).
  const double run_now_s = state.log->Now() - state.run_start_s;
  const int64_t unix_zero_us = UnixNowUs() - static_cast<int64_t>(run_now_s * 1e6);
  ChildSpec spec = control.ctl;
  spec.argv.push_back("eval");
  spec.argv.push_back(RestartExpression(unix_zero_us + static_cast<int64_t>(r.at_s * 1e6),
                                        static_cast<int64_t>(r.downtime_s * 1e6)));
  spec.log_path = control.output_path;
  std::remove(control.output_path.c_str());
  state.broker_restarting = true;
  base::Expected<Child> cli = Child::Spawn(spec);
  if (!cli) {
    state.Fail("broker_restart: " + cli.error());
    return false;
  }
  std::optional<double> up_s;
  if (!WaitForRestartCli(state, *cli, r, run_now_s, &up_s)) return false;
  record->planned_at_s = r.at_s;
  record->downtime_s = r.downtime_s;
  record->recovery_s = r.recovery_s;
  if (!RecordNodeTimes(state, control, unix_zero_us, record)) return false;
  if (!up_s) up_s = AwaitBrokerUp(state);
  if (!up_s) return false;
  record->up_s = up_s;
  state.log->Write("broker_up", EventLog::kNoMessage, -1, -1,
                   "real downtime " + std::to_string(record->real_downtime_s()) + " s");
  state.broker_restarting = false;
  return true;
}

}  // namespace

void RunBrokerRestarts(RunState& state, const BrokerControl& control, RestartFigures* figures) {
  const std::vector<PlannedRestart> restarts = BrokerRestarts(state.scenario);
  figures->active = !restarts.empty();
  if (restarts.empty()) return;
  for (const PlannedRestart& r : restarts) {
    if (!WaitRunClock(state, r.at_s - kRestartLeadS)) break;
    if (figures->starts_before < 0) figures->starts_before = CountNodeStarts(control.node_log_path);
    RestartRecord record;
    const bool done = RestartOnce(state, control, r, &record);
    state.broker_restarting = false;
    if (!done) break;
    figures->restarts.push_back(record);
  }
  // The node writes its log with a delay (the logger's file handler buffers): wait, at most
  // kLogWaitS, for the line of every restart made.
  constexpr double kLogWaitS = 10;
  const auto until =
      Clock::now() + std::chrono::milliseconds(static_cast<int64_t>(kLogWaitS * 1000));
  const int64_t expected = figures->starts_before + static_cast<int64_t>(figures->restarts.size());
  do {
    figures->starts_after = CountNodeStarts(control.node_log_path);
    if (figures->starts_after >= expected || figures->starts_before < 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  } while (Clock::now() < until && !StopRequested());
}

void AttachConsumerReconnects(std::vector<double> reconnects_s, RestartFigures* figures) {
  std::sort(reconnects_s.begin(), reconnects_s.end());
  std::vector<RestartRecord>& restarts = figures->restarts;
  for (size_t i = 0; i < restarts.size(); ++i) {
    const auto first =
        std::lower_bound(reconnects_s.begin(), reconnects_s.end(), restarts[i].stop_called_s);
    const bool before_next = i + 1 == restarts.size() || (first != reconnects_s.end() &&
                                                          *first < restarts[i + 1].stop_called_s);
    restarts[i].first_consumer_s.reset();
    if (first != reconnects_s.end() && before_next) restarts[i].first_consumer_s = *first;
  }
}

}  // namespace drainsim::live
