// The scenario's db_outage faults for real, on the run's private PostgreSQL: from `from_s` the
// database refuses new connections (ALTER DATABASE ... WITH ALLOW_CONNECTIONS false) and every
// backend of it but the driver's own is ended (pg_terminate_backend), so running statements
// fail and pooled connections are dead; at `until_s` connections are allowed again. The pool
// reconnects a failed connection when it is released (pg_pool.h), which fails while the outage
// lasts: every query fails at once, as the simulation's outage says (a transient error). The
// first query on a connection the outage ended fails once after it too (libpq learns a backend
// is gone only when it uses it): a cost the simulation does not have.
//
// Contract:
//  (1) Windows that overlap are merged (the simulation's outage is on while any is active).
//  (2) Run() returns once every window has ended, or the run stops (workers_done, a stop); in
//      every case connections are allowed again before it returns.
//  (3) Each edge is logged (db_outage_start with the backends ended, db_outage_end).
// REQUIRES: a database the run owns (drainsim live refuses db_outage with --postgres).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "live/run_state.h"

namespace drainsim::live {

// The merged outage windows of a scenario, in seconds from the run's start; empty: none.
std::vector<std::pair<double, double>> DbOutageWindows(const config::Scenario& scenario);

// Drives the windows on `conninfo` (a connection of its own); errors go to state.Fail().
void RunDbOutages(RunState& state, const std::string& conninfo);

}  // namespace drainsim::live
