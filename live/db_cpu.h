// Database work that costs the server real CPU (`drainsim live --db-work cpu`), and the private
// PostgreSQL pinned to K CPUs (`--db-cpus K`), so that the number of cores behind the pool is
// known. By default (`--db-work sleep`) a statement of d ms is `SELECT pg_sleep(d)`: it holds a
// connection and a backend but costs the server nothing, so the pool's contention is real and the
// server is never overloaded. With cpu, the run creates
//   RUN_spin(n bigint) -> double precision   a PL/pgSQL loop of n iterations (pure CPU in the
//                                             backend); returns the server's elapsed ms
//   RUN_cpu(s double precision) -> double    RUN_spin of s x 1000 x IPM iterations (x the
//                                             db_slowdown factor, read at the statement's start)
// where IPM, iterations per ms, is calibrated on the server when the run starts: the median of
// kCalibrationRuns runs of one backend alone (CalibrateCpuWork), per ms of the backend's own CPU
// time (/proc/PID/schedstat, nanoseconds on a CPU) when drainsim can read it, as it can for the
// private server, else per ms of the server's wall clock. Decision: CPU time, so that a machine
// busy with other work during the calibration does not shrink the work (on a shared machine the
// wall-clock rate measures the backend's share of a core, not the core). A statement of d ms
// then costs d ms of a core: about d ms alone on an idle core, and longer when more statements
// (or other processes) run at once than the server has cores.
// The statement timeout cancels it as any other (PL/pgSQL checks for interrupts per statement).
//
// Contract:
//  (1) CheckDbWork() refuses, with the reason, what cannot be run: --db-cpus K outside
//      1..the CPUs this process may use, or with --postgres (only the run's own server is pinned);
//      CheckDbWorkForScenario() refuses --db-work cpu or --db-cpus for a scenario without a
//      database.
//  (1a) WithScenarioCores() runs a scenario whose database has `cores` K as a CPU-bound server:
//      --db-work cpu unless given, and --db-cpus K unless given, K is whole, within the CPUs
//      allowed and the PostgreSQL is the private one (otherwise not pinned, and said so).
//  (2) MedianIterationsPerMs() is the median over the runs with iterations > 0 and a time > 0 of
//      iterations / RunMs(run) (the mean of the middle two for an even count); RunMs is cpu_ms
//      when measured (> 0), else elapsed_ms.
//  (3) RUN_cpu(s) spins round(s x 1000 x IPM) iterations, at most kSpinIterationsMax.
//  (4) CalibrateCpuWork() leaves both functions created (and the pool calling RUN_cpu), or, on a
//      failure, neither.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/base/expected.h"

namespace drainsim::live {

class PgPool;

enum class DbWork { kSleep, kCpu };

struct DbWorkOptions {
  DbWork work = DbWork::kSleep;
  int cpus = 0;  // the private PostgreSQL pinned to this many CPUs; 0: not pinned
};

std::optional<DbWork> ParseDbWork(const std::string& text);  // "sleep" | "cpu"
const char* DbWorkName(DbWork work);

// Whether the options can run, else why not (contract (1)).
base::Status CheckDbWork(const DbWorkOptions& options, bool postgres_given, int cpus_allowed);
// Whether the scenario can take the options, else why not: --db-work cpu and --db-cpus act on
// the database, so a scenario without one is refused rather than run with nothing to measure.
base::Status CheckDbWorkForScenario(const DbWorkOptions& options, bool scenario_has_database);
// Contract (1a). `work_given` / `cpus_given`: the command line set --db-work / --db-cpus.
// `note` (may be null) gets one line saying what was chosen and why.
DbWorkOptions WithScenarioCores(DbWorkOptions options, bool work_given, bool cpus_given,
                                double cores, bool postgres_given, int cpus_allowed,
                                std::string* note);
// The CPUs this process may run on (sched_getaffinity), ascending.
std::vector<int> AllowedCpus();
// The CPUs the private server is pinned to: the last `k` of `allowed` (the first CPU takes most
// interrupts and whatever is not pinned). REQUIRES: 1 <= k <= allowed.size().
std::vector<int> PinnedCpus(const std::vector<int>& allowed, int k);
std::string CpuList(const std::vector<int>& cpus);  // "0,1"

struct CalibrationRun {
  int64_t iterations = 0;
  double elapsed_ms = 0;  // measured in the server (clock_timestamp)
  double cpu_ms = 0;      // the backend's CPU time (schedstat); 0: not measured
};

double RunMs(const CalibrationRun& run);  // contract (2)
// The CPU time process `pid` has had, in ms, from /proc/PID/schedstat; nullopt if unreadable.
std::optional<double> ProcessCpuMs(int pid);

// The CPU time a set of processes (the pool's backends) has had: the pids, in order, and the sum.
struct BackendsCpu {
  std::vector<int> pids;
  double cpu_ms = 0;
};
// nullopt if any pid is 0 or its schedstat unreadable (a server given by --postgres on another
// machine or user).
std::optional<BackendsCpu> ReadBackendsCpu(const std::vector<int>& pids);
// The CPU the same backends had between `start` and `end`; nullopt if either is missing or the
// pids differ (a connection was reset: its new backend's time started from 0, the old one's is
// gone).
std::optional<double> BackendsCpuBetween(const std::optional<BackendsCpu>& start,
                                         const std::optional<BackendsCpu>& end);

struct CpuCalibration {
  double iterations_per_ms = 0;
  std::vector<CalibrationRun> runs;
};

constexpr int kCalibrationRuns = 7;
constexpr int64_t kSpinIterationsMax = 2'000'000'000;  // PL/pgSQL's integer FOR loop

// REQUIRES: at least one run with iterations > 0 and elapsed_ms > 0 (others are ignored).
double MedianIterationsPerMs(const std::vector<CalibrationRun>& runs);

// The SQL that creates the functions (names from the run id) and drops them.
std::string SpinFunctionSql(const std::string& run_id);
std::string CpuFunctionSql(const std::string& run_id, double iterations_per_ms,
                           const std::string& slowdown_table);
std::string DropCpuFunctionsSql(const std::string& run_id);

// Creates RUN_spin, calibrates it (a warm-up, then kCalibrationRuns runs of about 50 ms each on
// one connection, nothing else of the run started), creates RUN_cpu and makes the pool call it.
// With a db_slowdown (the pool's slowdown table), RUN_cpu multiplies by its factor.
// REQUIRES: nothing else uses the pool yet; CreateSlowdown() before, if at all.
base::Expected<CpuCalibration> CalibrateCpuWork(PgPool& pool, const std::string& run_id);

}  // namespace drainsim::live
