// The database work of a live run in live.json ("db_work") and in the summary: which work
// (--db-work sleep | cpu), the CPUs the private PostgreSQL was pinned to, the CPU work's
// calibration, and every work statement's measured time against its draw by the number running
// at its start (live/db_work_meter.h).
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "live/db_cpu.h"
#include "live/db_work_meter.h"

namespace drainsim::live {

struct DbWorkFigures {
  DbWork work = DbWork::kSleep;
  std::vector<int> cpus;                      // the private server's CPUs; empty: not pinned
  std::optional<CpuCalibration> calibration;  // with cpu work
  DbWorkTotals totals;
  // The CPU time the pool's backends had from the calibration's end to the run's end: what the
  // statements really cost the server, against the calibration's promise (the drawn ms). nullopt:
  // schedstat unreadable (a server given by --postgres) or a connection was reset.
  std::optional<double> backends_cpu_ms;
};

nlohmann::json DbWorkCellJson(const DbWorkCell& cell);
nlohmann::json DbWorkJson(const DbWorkFigures& f);
// "database work: cpu on CPUs 1 (calibrated ... iterations/ms); N statements, measured/drawn
// x.xx; by running at start: 1: x.xx ..." (nothing without a database statement).
void PrintDbWork(std::FILE* out, const DbWorkFigures& f);

}  // namespace drainsim::live
