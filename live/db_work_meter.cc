#include "live/db_work_meter.h"

namespace drainsim::live {

DbWorkMeter::Begun DbWorkMeter::Start(int waiting) {
  return Begun{running_.fetch_add(1) + 1, waiting};
}

void DbWorkMeter::Finish(const Begun& begun, int64_t drawn_us, int64_t measured_us, bool ok) {
  running_.fetch_sub(1);
  if (!ok) return;
  std::lock_guard<std::mutex> lock(mu_);
  DbWorkCell& cell = cells_[begun.running];
  cell.running = begun.running;
  ++cell.statements;
  cell.drawn_ms_sum += static_cast<double>(drawn_us) / 1000.0;
  cell.measured_ms_sum += static_cast<double>(measured_us) / 1000.0;
  cell.waiting_sum += begun.waiting;
}

DbWorkTotals DbWorkMeter::Figures() const {
  std::lock_guard<std::mutex> lock(mu_);
  DbWorkTotals t;
  double running_sum = 0;
  for (const auto& [running, cell] : cells_) {  // std::map: ascending `running`
    t.by_running.push_back(cell);
    t.all.statements += cell.statements;
    t.all.drawn_ms_sum += cell.drawn_ms_sum;
    t.all.measured_ms_sum += cell.measured_ms_sum;
    t.all.waiting_sum += cell.waiting_sum;
    running_sum += static_cast<double>(running) * static_cast<double>(cell.statements);
  }
  if (t.all.statements > 0) t.running_mean = running_sum / static_cast<double>(t.all.statements);
  return t;
}

void DbWorkMeter::Reset() {
  std::lock_guard<std::mutex> lock(mu_);
  cells_.clear();
}

}  // namespace drainsim::live
