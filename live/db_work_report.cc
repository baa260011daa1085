#include "live/db_work_report.h"

namespace drainsim::live {

nlohmann::json DbWorkCellJson(const DbWorkCell& cell) {
  const double n = static_cast<double>(std::max<int64_t>(cell.statements, 1));
  return {{"running", cell.running},
          {"statements", cell.statements},
          {"drawn_ms_mean", cell.drawn_ms_sum / n},
          {"measured_ms_mean", cell.measured_ms_sum / n},
          {"ratio", cell.ratio()},
          {"waiting_mean", cell.waiting_mean()}};
}

nlohmann::json DbWorkJson(const DbWorkFigures& f) {
  nlohmann::json j;
  j["work"] = DbWorkName(f.work);
  j["cpus"] = f.cpus;
  if (f.calibration) {
    nlohmann::json runs = nlohmann::json::array();
    for (const CalibrationRun& r : f.calibration->runs) {
      runs.push_back(
          {{"iterations", r.iterations}, {"elapsed_ms", r.elapsed_ms}, {"cpu_ms", r.cpu_ms}});
    }
    const bool cpu = !f.calibration->runs.empty() && f.calibration->runs.front().cpu_ms > 0;
    j["calibration"] = {{"iterations_per_ms", f.calibration->iterations_per_ms},
                        {"per", cpu ? "backend cpu ms" : "server wall ms"},
                        {"runs", runs}};
  } else {
    j["calibration"] = nullptr;
  }
  nlohmann::json all = DbWorkCellJson(f.totals.all);
  all.erase("running");
  all["running_mean"] = f.totals.running_mean;
  j["statements"] = all;
  nlohmann::json cells = nlohmann::json::array();
  for (const DbWorkCell& c : f.totals.by_running) cells.push_back(DbWorkCellJson(c));
  j["by_running"] = cells;
  j["backends_cpu_ms"] = f.backends_cpu_ms ? nlohmann::json(*f.backends_cpu_ms) : nullptr;
  j["backends_cpu_ms_per_statement"] =
      f.backends_cpu_ms && f.totals.all.statements > 0
          ? nlohmann::json(*f.backends_cpu_ms / static_cast<double>(f.totals.all.statements))
          : nullptr;
  return j;
}

void PrintDbWork(std::FILE* out, const DbWorkFigures& f) {
  if (f.totals.all.statements == 0) return;
  std::fprintf(out, "database work: %s", DbWorkName(f.work));
  if (!f.cpus.empty()) std::fprintf(out, ", server pinned to CPU %s", CpuList(f.cpus).c_str());
  if (f.calibration) {
    std::fprintf(out, ", %.0f iterations/ms calibrated", f.calibration->iterations_per_ms);
  }
  std::fprintf(out, "; %lld statements, measured/drawn %.2f (running at start: mean %.1f;",
               static_cast<long long>(f.totals.all.statements), f.totals.all.ratio(),
               f.totals.running_mean);
  for (const DbWorkCell& c : f.totals.by_running) {
    std::fprintf(out, " %d: %.2f x%lld", c.running, c.ratio(),
                 static_cast<long long>(c.statements));
  }
  std::fprintf(out, ")");
  if (f.backends_cpu_ms) {
    const double n = static_cast<double>(f.totals.all.statements);
    std::fprintf(out, "; backends' CPU %.0f ms, %.2f ms a statement against %.2f drawn",
                 *f.backends_cpu_ms, *f.backends_cpu_ms / n, f.totals.all.drawn_ms_sum / n);
  }
  std::fprintf(out, "\n");
}

}  // namespace drainsim::live
