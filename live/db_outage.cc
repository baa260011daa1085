#include "live/db_outage.h"

#include <libpq-fe.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "live/pg_pool.h"
#include "live/stop_signal.h"

namespace drainsim::live {

std::vector<std::pair<double, double>> DbOutageWindows(const config::Scenario& s) {
  std::vector<std::pair<double, double>> windows;
  for (const config::Fault& fault : s.faults) {
    if (const auto* outage = std::get_if<config::DbOutageFault>(&fault)) {
      windows.emplace_back(outage->window.from.seconds(), outage->window.until.seconds());
    }
  }
  std::sort(windows.begin(), windows.end());
  std::vector<std::pair<double, double>> merged;
  for (const auto& w : windows) {
    if (!merged.empty() && w.first <= merged.back().second) {
      merged.back().second = std::max(merged.back().second, w.second);
    } else {
      merged.push_back(w);
    }
  }
  return merged;
}

namespace {

// Waits until the run's clock reaches `at_s`; false when the run stops first.
bool WaitUntil(RunState& state, double at_s) {
  while (state.log->Now() - state.run_start_s < at_s) {
    if (StopRequested() || state.workers_done || state.failed) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

}  // namespace

void RunDbOutages(RunState& state, const std::string& conninfo) {
  const std::vector<std::pair<double, double>> windows = DbOutageWindows(state.scenario);
  if (windows.empty()) return;
  // The run's database name, then a connection to template1: PostgreSQL refuses to disallow
  // connections to the database a session is connected to.
  std::string db;
  if (PGconn* probe = PQconnectdb(conninfo.c_str()); probe != nullptr) {
    if (PQstatus(probe) == CONNECTION_OK) db = PQdb(probe);
    PQfinish(probe);
  }
  const char* keywords[] = {"dbname", "dbname", nullptr};
  const char* values[] = {conninfo.c_str(), "template1", nullptr};
  PGconn* admin = PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
  if (db.empty() || PQstatus(admin) != CONNECTION_OK) {
    state.Fail(std::string("db_outage: cannot connect: ") + PQerrorMessage(admin));
    PQfinish(admin);
    return;
  }
  const std::string name = "\"" + db + "\"";
  for (const auto& [from_s, until_s] : windows) {
    if (!WaitUntil(state, from_s)) break;
    if (const base::Expected<int64_t> closed =
            PgExec(admin, "ALTER DATABASE " + name + " WITH ALLOW_CONNECTIONS false");
        !closed) {
      state.Fail("db_outage: " + closed.error());
      break;
    }
    const base::Expected<int64_t> ended =
        PgExec(admin, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" +
                          db + "'");
    if (!ended) {
      state.Fail("db_outage: " + ended.error());
      break;
    }
    state.log->Write("db_outage_start", EventLog::kNoMessage, -1, -1,
                     "backends ended " + std::to_string(*ended));
    const bool went_on = WaitUntil(state, until_s);
    if (const base::Expected<int64_t> opened =
            PgExec(admin, "ALTER DATABASE " + name + " WITH ALLOW_CONNECTIONS true");
        !opened) {
      state.Fail("db_outage: " + opened.error());
      break;
    }
    state.log->Write("db_outage_end", EventLog::kNoMessage);
    if (!went_on) break;
  }
  PQfinish(admin);
}

}  // namespace drainsim::live
