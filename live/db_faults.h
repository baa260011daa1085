// The scenario's db_slowdown and db_connections faults for real (issue 14), in the run's
// PostgreSQL and its pool, on the run's clock (wall seconds since the plan's time 0, as
// db_outage's).
//
// What the model does (sim/model/world_faults.cc FaultEdge, sim/model/database.cc) and what this
// does:
//  - At every window edge the model recomputes the database's settings from the faults active
//    then: slowdown = the product of the active db_slowdown factors, capacity = the
//    `connections` of the active db_connections fault of the highest index (else
//    database.connections). DbFaultSchedule() is that, as steps in time order (a step only
//    where something changes). A window open at the run's end closes at run.until_s live (the
//    model's run ends there; a live run that settles later runs on without the fault).
//  - Slowdown: a query's service time is its drawn time x the factor at the moment it STARTS
//    service (StartWaiting): a change never touches a query already running. Live, the
//    handler's and the live traffic's statements call the run's function RUN_work(s) instead
//    of pg_sleep(s) (live/pg_pool.h, CreateSlowdown): it sleeps s x the factor read from the
//    run's one-row table when the statement starts, and the controller changes that row at the
//    edges. The time is spent in the server, holding the backend, and statement_timeout cancels
//    a slowed statement like any other (a db timeout, compared in the side-by-side).
//  - Connections: the model's pool capacity changes; running queries finish, no query starts
//    service while busy >= capacity, and waiting ones start when it grows. Live, the pool opens
//    PoolSizeMax() connections and SetLimit() changes how many may be checked out: those out
//    finish, and no new checkout happens beyond the limit. The model's pool is per query, the
//    live pool per transaction (BEGIN .. COMMIT): the same for a kind with one db_op and no
//    claim row.
//
// Contract:
//  (1) DbFaultSchedule() is pure and ordered by at_s (strictly increasing); each step holds the
//      whole setting (factor, connections) from at_s on; before the first, factor 1 and
//      database.connections.
//  (2) DbFaultController applies each step at its instant (the factor by an UPDATE on a
//      connection of its own, outside the pool, so a shrunk or busy pool never delays it; the
//      limit on the pool) and logs it (events db_slowdown, db_connections): the steps due at 0
//      when it is made, before the run's clock starts; Run() the others, returning once every
//      step is applied or the run stops. Its errors go to state.Fail(); the factor's UPDATE is
//      retried (on a new connection) only in a scenario with a db_outage, which ends backends.
//  (3) CheckDbFaultSupport() accepts db_slowdown and db_connections up to kLivePoolMax
//      connections (each is a real PostgreSQL backend) and marks them handled.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "live/run_state.h"
#include "sim/config/config.h"

namespace drainsim::live {

inline constexpr int64_t kLivePoolMax = 200;

struct DbFaultStep {
  double at_s = 0;
  double factor = 1;
  int64_t connections = 1;
  bool operator==(const DbFaultStep&) const = default;
};

std::vector<scenario::Problem> CheckDbFaultSupport(const config::Scenario& scenario,
                                                   std::vector<bool>* handled);

// REQUIRES: scenario.database
std::vector<DbFaultStep> DbFaultSchedule(const config::Scenario& scenario);

// The connections the live pool opens: database.connections or more for a db_connections fault
// that grows it (0 without a database).
int64_t PoolSizeMax(const config::Scenario& scenario);

bool HasDbSlowdown(const config::Scenario& scenario);

class DbFaultController {
 public:
  // Connects (with a db_slowdown) and applies the steps due at 0.
  // REQUIRES: state.pool; with a db_slowdown, state.pool->CreateSlowdown() done.
  DbFaultController(RunState& state, const std::string& conninfo);
  ~DbFaultController();
  DbFaultController(const DbFaultController&) = delete;
  DbFaultController& operator=(const DbFaultController&) = delete;

  // The later steps, on the run's clock (run by a thread of the harness).
  void Run();

 private:
  bool Apply(const DbFaultStep& step);

  RunState& state_;
  std::string conninfo_;
  std::vector<DbFaultStep> steps_;
  size_t next_ = 0;
  double factor_ = 1;
  int64_t connections_ = 0;
  PGconn* conn_ = nullptr;  // the factor's writer
};

}  // namespace drainsim::live
