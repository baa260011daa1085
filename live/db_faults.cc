#include "live/db_faults.h"

#include <libpq-fe.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "live/db_outage.h"
#include "live/stop_signal.h"

namespace drainsim::live {

std::vector<scenario::Problem> CheckDbFaultSupport(const config::Scenario& s,
                                                   std::vector<bool>* handled) {
  std::vector<scenario::Problem> out;
  handled->assign(s.faults.size(), false);
  for (size_t i = 0; i < s.faults.size(); ++i) {
    if (std::holds_alternative<config::DbSlowdownFault>(s.faults[i])) {
      (*handled)[i] = true;
    } else if (const auto* c = std::get_if<config::DbConnectionsFault>(&s.faults[i])) {
      (*handled)[i] = true;
      if (c->connections > kLivePoolMax) {
        out.push_back({"/faults/" + std::to_string(i) + "/connections",
                       "db_connections above " + std::to_string(kLivePoolMax) +
                           " is not supported by drainsim live (each connection is a PostgreSQL "
                           "backend: live/db_faults.h)"});
      }
    }
  }
  return out;
}

std::vector<DbFaultStep> DbFaultSchedule(const config::Scenario& s) {
  std::vector<double> edges;
  for (const config::Fault& fault : s.faults) {
    const config::Window* w = nullptr;
    if (const auto* slow = std::get_if<config::DbSlowdownFault>(&fault)) w = &slow->window;
    if (const auto* c = std::get_if<config::DbConnectionsFault>(&fault)) w = &c->window;
    if (w == nullptr) continue;
    edges.push_back(w->from.seconds());
    edges.push_back(w->until.seconds());
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  std::vector<DbFaultStep> steps;
  DbFaultStep last{0, 1, s.database->connections};
  for (const double at_s : edges) {
    // The model's FaultEdge: recomputed from every fault active at this instant.
    DbFaultStep step{at_s, 1, s.database->connections};
    for (const config::Fault& fault : s.faults) {
      if (const auto* slow = std::get_if<config::DbSlowdownFault>(&fault)) {
        if (slow->window.from.seconds() <= at_s && at_s < slow->window.until.seconds()) {
          step.factor *= slow->factor;
        }
      } else if (const auto* c = std::get_if<config::DbConnectionsFault>(&fault)) {
        if (c->window.from.seconds() <= at_s && at_s < c->window.until.seconds()) {
          step.connections = c->connections;  // the highest index wins, as in the model
        }
      }
    }
    if (step.factor != last.factor || step.connections != last.connections) {
      steps.push_back(step);
      last = step;
    }
  }
  return steps;
}

int64_t PoolSizeMax(const config::Scenario& s) {
  if (!s.database) return 0;
  int64_t n = s.database->connections;
  for (const config::Fault& fault : s.faults) {
    if (const auto* c = std::get_if<config::DbConnectionsFault>(&fault)) {
      n = std::max(n, c->connections);
    }
  }
  return n;
}

bool HasDbSlowdown(const config::Scenario& s) {
  return std::any_of(s.faults.begin(), s.faults.end(), [](const config::Fault& f) {
    return std::holds_alternative<config::DbSlowdownFault>(f);
  });
}

DbFaultController::DbFaultController(RunState& state, const std::string& conninfo)
    : state_(state),
      conninfo_(conninfo),
      steps_(DbFaultSchedule(state.scenario)),
      connections_(state.scenario.database->connections) {
  if (HasDbSlowdown(state.scenario)) {
    conn_ = PQconnectdb(conninfo.c_str());
    if (PQstatus(conn_) != CONNECTION_OK) {
      state.Fail(std::string("db_slowdown: cannot connect: ") + PQerrorMessage(conn_));
      return;
    }
  }
  while (next_ < steps_.size() && steps_[next_].at_s <= 0) {
    if (!Apply(steps_[next_++])) return;
  }
}

DbFaultController::~DbFaultController() {
  if (conn_ != nullptr) PQfinish(conn_);
}

bool DbFaultController::Apply(const DbFaultStep& step) {
  if (step.factor != factor_) {
    // A db_outage may have ended this backend (live/db_outage.h): reconnect and retry, until
    // the database takes it or the run stops. Without an outage a failure is an error.
    const bool outages = !DbOutageWindows(state_.scenario).empty();
    for (;;) {
      const base::Expected<int64_t> set = PgExec(conn_, state_.pool->SetFactorSql(step.factor));
      if (set) break;
      if (!outages) {
        state_.Fail("db_slowdown: " + set.error());
        return false;
      }
      if (StopRequested() || state_.workers_done || state_.failed) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      PQreset(conn_);
    }
    factor_ = step.factor;
    state_.log->Write("db_slowdown", EventLog::kNoMessage, -1, -1,
                      "factor=" + std::to_string(step.factor));
  }
  if (step.connections != connections_) {
    state_.pool->SetLimit(static_cast<int>(step.connections));
    connections_ = step.connections;
    state_.log->Write("db_connections", EventLog::kNoMessage, -1, -1,
                      "connections=" + std::to_string(step.connections));
  }
  return true;
}

void DbFaultController::Run() {
  while (next_ < steps_.size() && !state_.failed) {
    const DbFaultStep& step = steps_[next_];
    while (state_.log->Now() - state_.run_start_s < step.at_s) {
      if (StopRequested() || state_.workers_done || state_.failed) return;
      // 1 ms polls: the edge is applied within about a millisecond of its instant.
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (!Apply(step)) return;
    ++next_;
  }
}

}  // namespace drainsim::live
