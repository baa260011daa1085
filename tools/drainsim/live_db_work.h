// `drainsim live`'s database-work options (live/db_cpu.h): --db-work sleep|cpu, --db-cpus K,
// and the --db-curve measurement (live/db_curve.h).
//
// Decisions: the work and the pinning are options of the command, not scenario fields, since
// they say how the live run reproduces the scenario's `db_op_ms` and not what the system is (the
// simulation has no cores: its overload is `overload_factor`); sleep stays the default, so every
// existing live scenario and test keeps its behaviour. The server is pinned with
// sched_setaffinity on the postmaster before exec (its backends inherit it), to the last K CPUs
// drainsim may use: no cgroup or taskset needed, and the pinning is checked by reading the
// postmaster's Cpus_allowed_list back.
//
// Contract:
//  (1) ReadDbWorkOptions() refuses (message on stderr, false) an unknown --db-work, --db-cpus
//      outside 1..the CPUs allowed, and --db-cpus with --postgres.
//  (2) RunDbCurve() starts only the private PostgreSQL (pinned if asked), calibrates the CPU work
//      with --db-work cpu, measures the cells, prints one line per cell and stops the server;
//      exit 0, or 2 when the server cannot start or the calibration fails.
#pragma once

#include "live/db_cpu.h"
#include "live/services.h"
#include "sim/base/expected.h"
#include "tools/drainsim/options.h"

namespace drainsim::cli {

void AddDbWorkOptions(po::options_description& options);
bool ReadDbWorkOptions(const po::variables_map& vm, live::DbWorkOptions* out);
// The private server's CPUs for --db-cpus (none when 0).
std::vector<int> DbCpus(const live::DbWorkOptions& options);
// Success, or the problem: the server's Cpus_allowed_list is not what was asked.
base::Status CheckPinned(pid_t pid, const std::vector<int>& cpus);
int RunDbCurve(const live::DbWorkOptions& work, live::ServiceOptions services, double cell_s);

}  // namespace drainsim::cli
