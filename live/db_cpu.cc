#include "live/db_cpu.h"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "live/pg_pool.h"
#include "sim/base/check.h"

namespace drainsim::live {

namespace {

constexpr int64_t kWarmupIterations = 200'000;
constexpr double kCalibrationRunMs = 50;

// SELECT RUN_spin(n) on `conn`: the server's elapsed ms.
base::Expected<double> Spin(PGconn* conn, const std::string& run_id, int64_t n) {
  const std::string sql = "SELECT " + run_id + "_spin(" + std::to_string(n) + ")";
  PGresult* res = PQexec(conn, sql.c_str());
  const bool ok = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1;
  const double ms = ok ? std::atof(PQgetvalue(res, 0, 0)) : 0;
  PQclear(res);
  if (!ok) return base::Failure{std::string("calibrating the CPU work: ") + PQerrorMessage(conn)};
  return ms;
}

// The backend's pid (for its CPU time), 0 if unknown.
int BackendPid(PGconn* conn) {
  PGresult* res = PQexec(conn, "SELECT pg_backend_pid()");
  const int pid = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1
                      ? std::atoi(PQgetvalue(res, 0, 0))
                      : 0;
  PQclear(res);
  return pid;
}

// The calibration's runs on one connection: a warm-up (the plan cache, the CPU's clock), then
// kCalibrationRuns runs sized from it to about kCalibrationRunMs each, each with the backend's
// CPU time when it can be read.
base::Expected<CpuCalibration> Calibrate(PGconn* conn, const std::string& run_id) {
  const int pid = BackendPid(conn);
  const base::Expected<double> warm = Spin(conn, run_id, kWarmupIterations);
  if (!warm) return base::Failure{warm.error()};
  const double warm_ipm = static_cast<double>(kWarmupIterations) / std::max(*warm, 0.001);
  const int64_t n =
      std::clamp<int64_t>(std::llround(warm_ipm * kCalibrationRunMs), 1000, kSpinIterationsMax);
  CpuCalibration calibration;
  for (int i = 0; i < kCalibrationRuns; ++i) {
    const std::optional<double> cpu_before = ProcessCpuMs(pid);
    const base::Expected<double> ms = Spin(conn, run_id, n);
    if (!ms) return base::Failure{ms.error()};
    const std::optional<double> cpu_after = ProcessCpuMs(pid);
    // The CPU time includes the statement's parse and the protocol: microseconds against 50 ms.
    const double cpu_ms = cpu_before && cpu_after ? *cpu_after - *cpu_before : 0;
    calibration.runs.push_back({n, *ms, cpu_ms});
  }
  calibration.iterations_per_ms = MedianIterationsPerMs(calibration.runs);
  return calibration;
}

// The calibration's statements on `conn` (checked out): no statement timeout, RUN_spin, the
// runs, RUN_cpu. A failure leaves the timeout off and maybe RUN_spin: the caller cleans up.
base::Expected<CpuCalibration> CalibrateOn(PGconn* conn, const std::string& run_id,
                                           const std::string& slowdown_table) {
  for (const std::string& sql :
       {std::string("SET statement_timeout = 0"), SpinFunctionSql(run_id)}) {
    if (const base::Expected<int64_t> done = PgExec(conn, sql); !done) {
      return base::Failure{done.error()};
    }
  }
  base::Expected<CpuCalibration> calibration = Calibrate(conn, run_id);
  if (!calibration) return calibration;
  if (const base::Expected<int64_t> created =
          PgExec(conn, CpuFunctionSql(run_id, calibration->iterations_per_ms, slowdown_table));
      !created) {
    return base::Failure{created.error()};
  }
  return calibration;
}

}  // namespace

std::optional<DbWork> ParseDbWork(const std::string& text) {
  if (text == "sleep") return DbWork::kSleep;
  if (text == "cpu") return DbWork::kCpu;
  return std::nullopt;
}

const char* DbWorkName(DbWork work) { return work == DbWork::kCpu ? "cpu" : "sleep"; }

base::Status CheckDbWork(const DbWorkOptions& options, bool postgres_given, int cpus_allowed) {
  if (options.cpus == 0) return {};
  if (postgres_given) {
    return base::Failure{
        "--db-cpus pins only the private PostgreSQL that drainsim live starts; the server "
        "given by --postgres is not ours to pin (drop --db-cpus, or --postgres)"};
  }
  if (options.cpus < 1 || options.cpus > cpus_allowed) {
    return base::Failure{"--db-cpus must be in 1.." + std::to_string(cpus_allowed) +
                         " (the CPUs this process may use)"};
  }
  return {};
}

base::Status CheckDbWorkForScenario(const DbWorkOptions& options, bool scenario_has_database) {
  if (scenario_has_database || (options.work == DbWork::kSleep && options.cpus == 0)) return {};
  return base::Failure{
      "the scenario has no database, so --db-work cpu and --db-cpus have nothing to act on"};
}

namespace {
std::string FormatCores(double cores) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", cores);
  return text;
}
}  // namespace

DbWorkOptions WithScenarioCores(DbWorkOptions options, bool work_given, bool cpus_given,
                                double cores, bool postgres_given, int cpus_allowed,
                                std::string* note) {
  std::string said = "database: the scenario's cores " + FormatCores(cores) + ":";
  if (!work_given) {
    options.work = DbWork::kCpu;
    said += " --db-work cpu";
  }
  const bool whole = cores == std::floor(cores);
  if (!cpus_given && whole && !postgres_given && cores <= cpus_allowed) {
    options.cpus = static_cast<int>(cores);
    said += " --db-cpus " + std::to_string(options.cpus);
  } else if (!cpus_given) {
    said += postgres_given ? " (the --postgres server is not pinned)"
            : !whole       ? " (not pinned: a fraction of a CPU cannot be)"
                           : " (not pinned: more than the " + std::to_string(cpus_allowed) +
                           " CPUs this process may use)";
  }
  if (note != nullptr) *note = work_given && cpus_given ? "" : said;
  return options;
}

std::vector<int> AllowedCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  }
  return cpus;
}

std::vector<int> PinnedCpus(const std::vector<int>& allowed, int k) {
  DRAINSIM_CHECK(k >= 1 && static_cast<size_t>(k) <= allowed.size());
  return std::vector<int>(allowed.end() - k, allowed.end());
}

std::string CpuList(const std::vector<int>& cpus) {
  std::string out;
  for (int c : cpus) {  // appends: "," + to_string warns falsely in GCC 12 (-Wrestrict)
    if (!out.empty()) out += ',';
    out += std::to_string(c);
  }
  return out;
}

double RunMs(const CalibrationRun& run) { return run.cpu_ms > 0 ? run.cpu_ms : run.elapsed_ms; }

std::optional<double> ProcessCpuMs(int pid) {
  if (pid <= 0) return std::nullopt;
  // proc(5): /proc/PID/schedstat, "time spent on the cpu (in nanoseconds)" first.
  std::ifstream in("/proc/" + std::to_string(pid) + "/schedstat");
  double ns = 0;
  if (!(in >> ns)) return std::nullopt;
  return ns / 1e6;
}

std::optional<BackendsCpu> ReadBackendsCpu(const std::vector<int>& pids) {
  BackendsCpu read{pids, 0};
  for (int pid : pids) {
    const std::optional<double> ms = ProcessCpuMs(pid);
    if (!ms) return std::nullopt;
    read.cpu_ms += *ms;
  }
  return read;
}

std::optional<double> BackendsCpuBetween(const std::optional<BackendsCpu>& start,
                                         const std::optional<BackendsCpu>& end) {
  if (!start || !end || start->pids != end->pids) return std::nullopt;
  return end->cpu_ms - start->cpu_ms;
}

double MedianIterationsPerMs(const std::vector<CalibrationRun>& runs) {
  std::vector<double> ipm;
  for (const CalibrationRun& r : runs) {
    if (r.iterations > 0 && RunMs(r) > 0) {
      ipm.push_back(static_cast<double>(r.iterations) / RunMs(r));
    }
  }
  DRAINSIM_CHECK(!ipm.empty());
  std::sort(ipm.begin(), ipm.end());
  const size_t mid = ipm.size() / 2;
  return ipm.size() % 2 == 1 ? ipm[mid] : (ipm[mid - 1] + ipm[mid]) / 2;
}

std::string SpinFunctionSql(const std::string& run_id) {
  // An integer FOR loop with one assignment: no table, no allocation, no I/O, so the statement's
  // time is the backend's CPU (and its wait for a core). Its own elapsed time is returned for the
  // calibration (clock_timestamp: the wall clock inside the server).
  return "CREATE FUNCTION " + run_id +
         "_spin(n bigint) RETURNS double precision LANGUAGE plpgsql AS $$\n"
         "DECLARE t0 timestamptz := clock_timestamp(); x integer := 0;\n"
         "BEGIN\n"
         "  FOR i IN 1..least(n, " +
         std::to_string(kSpinIterationsMax) +
         ")::integer LOOP x := x # i; END LOOP;\n"
         "  RETURN extract(epoch FROM clock_timestamp() - t0) * 1000;\n"
         "END $$";
}

std::string CpuFunctionSql(const std::string& run_id, double iterations_per_ms,
                           const std::string& slowdown_table) {
  char ipm[64];
  std::snprintf(ipm, sizeof ipm, "%.6f", iterations_per_ms);
  // The factor is read when the statement starts, as the sleeping work's (pg_pool.h).
  const std::string factor =
      slowdown_table.empty() ? "" : " * (SELECT factor FROM " + slowdown_table + ")";
  return "CREATE FUNCTION " + run_id +
         "_cpu(s double precision) RETURNS double precision LANGUAGE sql AS $$ SELECT " + run_id +
         "_spin(round(s * 1000 * " + ipm + factor + ")::bigint) $$";
}

std::string DropCpuFunctionsSql(const std::string& run_id) {
  return "DROP FUNCTION IF EXISTS " + run_id + "_cpu(double precision); DROP FUNCTION IF EXISTS " +
         run_id + "_spin(bigint)";
}

base::Expected<CpuCalibration> CalibrateCpuWork(PgPool& pool, const std::string& run_id) {
  PGconn* conn = pool.Acquire(std::chrono::seconds(30));
  if (conn == nullptr) {
    return base::Failure{"no database connection free in 30 s to calibrate the CPU work"};
  }
  // The runs are longer than a short statement_timeout may allow: none while calibrating, then
  // the connection's own again (RESET: the value its startup options set, pg_pool.cc). The
  // clean-up is best effort: its failure would not change what the run reports.
  base::Expected<CpuCalibration> calibration = CalibrateOn(conn, run_id, pool.slowdown_table());
  if (!calibration) (void)PgExec(conn, DropCpuFunctionsSql(run_id));
  (void)PgExec(conn, "RESET statement_timeout");
  pool.Release(conn);
  if (calibration) pool.UseWorkFunction(run_id + "_cpu", DropCpuFunctionsSql(run_id));
  return calibration;
}

}  // namespace drainsim::live
