#include "tools/drainsim/live_db_work.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "live/db_curve.h"
#include "live/pg_pool.h"
#include "live/stop_signal.h"
#include "tools/drainsim/cli.h"

namespace drainsim::cli {

void AddDbWorkOptions(po::options_description& options) {
  options.add_options()("db-work", po::value<std::string>()->default_value("sleep"),
                        "the handlers' database work: sleep (pg_sleep: holds a connection, no "
                        "server CPU) or cpu (a calibrated PL/pgSQL loop: real server CPU)")(
      "db-cpus", po::value<int>()->default_value(0),
      "pin the private PostgreSQL to this many CPUs (0: not pinned; not with --postgres)")(
      "db-curve", po::bool_switch(),
      "measure the database's overload curve on the private PostgreSQL (no scenario)")(
      "db-curve-cell-s", po::value<double>()->default_value(1.5, "1.5"),
      "--db-curve: wall seconds measured per cell (0.2..30)");
}

bool ReadDbWorkOptions(const po::variables_map& vm, live::DbWorkOptions* out) {
  const std::optional<live::DbWork> work = live::ParseDbWork(vm["db-work"].as<std::string>());
  if (!work) {
    std::fprintf(stderr, "drainsim live: --db-work must be sleep or cpu\n");
    return false;
  }
  out->work = *work;
  out->cpus = vm["db-cpus"].as<int>();
  const base::Status runnable = live::CheckDbWork(*out, vm.count("postgres") > 0,
                                                  static_cast<int>(live::AllowedCpus().size()));
  if (!runnable) {
    std::fprintf(stderr, "drainsim live: %s\n", runnable.error().c_str());
    return false;
  }
  return true;
}

std::vector<int> DbCpus(const live::DbWorkOptions& options) {
  if (options.cpus == 0) return {};
  return live::PinnedCpus(live::AllowedCpus(), options.cpus);
}

base::Status CheckPinned(pid_t pid, const std::vector<int>& cpus) {
  if (cpus.empty()) return {};
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Cpus_allowed_list:", 0) != 0) continue;
    const std::string list = line.substr(line.find_first_not_of(" \t", 18));
    // The kernel writes ranges ("0-1"); ours is one CPU or a list, compared both ways.
    if (list == live::CpuList(cpus) ||
        (cpus.size() > 1 &&
         list == std::to_string(cpus.front()) + "-" + std::to_string(cpus.back()))) {
      return {};
    }
    return base::Failure{"the private PostgreSQL runs on CPUs " + list + ", not " +
                         live::CpuList(cpus)};
  }
  return base::Failure{"cannot read the private PostgreSQL's CPUs (/proc/" + std::to_string(pid) +
                       "/status)"};
}

namespace {

void PrintCell(const live::DbCurveCell& c, int cores) {
  const live::DbWorkCell& a = c.totals.all;
  const double ps = std::max(1.0, c.totals.running_mean / cores);
  const double per_conn = a.waiting_mean() / c.connections;
  // The overload_factor the model would need for this cell's ratio (only with a queue).
  char f[32] = "-";
  if (per_conn > 0.05) std::snprintf(f, sizeof f, "%.2f", (a.ratio() - 1) / per_conn);
  std::printf("%11d %7d %12.2f %12.2f %10lld %11.2f %7.2f %12.1f %9.2f %9s %6.2f\n", c.connections,
              c.clients, c.totals.running_mean, a.waiting_mean(),
              static_cast<long long>(a.statements),
              a.measured_ms_sum / std::max<int64_t>(1, a.statements), a.ratio(), c.throughput_per_s,
              ps, f, c.load_1m);
}

}  // namespace

namespace {

// What a curve runs on: the private PostgreSQL (pinned if asked) and a pool on it, with the
// CPU work's functions created when the work is cpu.
struct CurveRig {
  std::unique_ptr<live::Services> services;
  std::unique_ptr<live::PgPool> pool;
  live::CpuCalibration calibration;
};

base::Expected<CurveRig> StartCurveRig(const live::DbWorkOptions& work,
                                       const live::ServiceOptions& services,
                                       const std::string& run_id) {
  CurveRig rig;
  base::Expected<std::unique_ptr<live::Services>> started = live::Services::Start(services);
  if (!started) return base::Failure{started.error()};
  rig.services = std::move(*started);
  if (const base::Status pinned =
          CheckPinned(rig.services->postgres()->pid(), services.postgres_cpus);
      !pinned) {
    return base::Failure{pinned.error()};
  }
  base::Expected<std::unique_ptr<live::PgPool>> opened =
      live::PgPool::Open(rig.services->postgres_url(), 8, 60'000, run_id);
  if (!opened) return base::Failure{opened.error()};
  rig.pool = std::move(*opened);
  if (work.work == live::DbWork::kCpu) {
    base::Expected<live::CpuCalibration> calibrated = live::CalibrateCpuWork(*rig.pool, run_id);
    if (!calibrated) return base::Failure{calibrated.error()};
    rig.calibration = std::move(*calibrated);
  }
  return rig;
}

void PrintCurveHeader(const live::DbWorkOptions& work, const std::vector<int>& postgres_cpus,
                      const live::DbCurveOptions& options, const live::CpuCalibration& calibration,
                      int cores) {
  std::printf(
      "db curve: work %s, server on CPU %s (%d), statement %.1f ms drawn, %.2f s per cell, "
      "load %.2f\n",
      live::DbWorkName(work.work),
      postgres_cpus.empty() ? "any" : live::CpuList(postgres_cpus).c_str(), cores,
      static_cast<double>(options.work_us) / 1000, options.cell_s, live::LoadAverage1m());
  if (work.work == live::DbWork::kCpu) {
    std::printf("calibration: %.0f iterations/ms (median of %zu runs:",
                calibration.iterations_per_ms, calibration.runs.size());
    for (const live::CalibrationRun& r : calibration.runs) {
      std::printf(" %.1f/%.1f", r.cpu_ms, r.elapsed_ms);
    }
    std::printf(" ms of CPU/wall)\n");
  }
  std::printf(
      "connections clients running_mean waiting_mean statements measured_ms   ratio "
      "throughput/s  PS_ratio  model_f  load\n");
  std::fflush(stdout);
}

}  // namespace

int RunDbCurve(const live::DbWorkOptions& work, live::ServiceOptions services, double cell_s) {
  if (!(cell_s >= 0.2 && cell_s <= 30)) {
    std::fprintf(stderr, "drainsim live: --db-curve-cell-s must be in 0.2..30\n");
    return kExitBadInput;
  }
  if (!services.postgres_url.empty()) {
    std::fprintf(stderr, "drainsim live: --db-curve runs on the private PostgreSQL only\n");
    return kExitBadInput;
  }
  live::DbCurveOptions options;
  options.cell_s = cell_s;
  services.amqp_url = "-";  // no broker
  services.max_connections = 16;
  services.postgres_cpus = DbCpus(work);
  const std::string run_id = "drainsim_curve_" + std::to_string(getpid());
  base::Expected<CurveRig> rig = StartCurveRig(work, services, run_id);
  if (!rig) {
    std::fprintf(stderr, "drainsim live: %s\n", rig.error().c_str());
    return kExitBadInput;
  }
  const int cores = work.cpus > 0 ? work.cpus : static_cast<int>(live::AllowedCpus().size());
  PrintCurveHeader(work, services.postgres_cpus, options, rig->calibration, cores);
  for (const live::DbCurveCell& c : live::MeasureDbCurve(*rig->pool, options)) {
    PrintCell(c, cores);
    std::fflush(stdout);
  }
  if (work.work == live::DbWork::kCpu) {  // the curve made no tables: only the functions
    PGconn* conn = rig->pool->Acquire(std::chrono::seconds(30));
    if (conn != nullptr) {
      (void)live::PgExec(conn, live::DropCpuFunctionsSql(run_id));  // best effort
      rig->pool->Release(conn);
    }
  }
  rig->pool.reset();
  std::printf("services stopped in %.3f s\n", rig->services->Stop());
  return live::StopRequested() ? kExitBadInput : kExitOk;
}

}  // namespace drainsim::cli
