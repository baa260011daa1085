#include "live/db_curve.h"

#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>

#include "live/pg_pool.h"
#include "live/stop_signal.h"

namespace drainsim::live {

namespace {

using Clock = std::chrono::steady_clock;

// One client: check out, run the work, return, until `stop`.
void Client(PgPool& pool, int64_t work_us, const std::atomic<bool>& stop) {
  while (!stop.load() && !StopRequested()) {
    PGconn* conn = pool.Acquire(std::chrono::seconds(60));
    if (conn == nullptr) continue;
    // A failed statement is measured as one (the meter counts it); the curve goes on.
    (void)pool.RunWork(conn, work_us, "");
    pool.Release(conn);
  }
}

DbCurveCell MeasureCell(PgPool& pool, const DbCurveOptions& o, int connections, int clients) {
  DbCurveCell cell;
  cell.connections = connections;
  cell.clients = clients;
  pool.SetLimit(connections);
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (int i = 0; i < clients; ++i) {
    threads.emplace_back([&pool, &o, &stop] { Client(pool, o.work_us, stop); });
  }
  const auto seconds = [](double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  };
  std::this_thread::sleep_for(seconds(o.warmup_s));
  pool.meter().Reset();
  const auto from = Clock::now();
  std::this_thread::sleep_for(seconds(o.cell_s));
  cell.totals = pool.meter().Figures();  // the statements finished by now
  cell.seconds = std::chrono::duration<double>(Clock::now() - from).count();
  stop.store(true);
  for (std::thread& t : threads) t.join();
  cell.throughput_per_s = static_cast<double>(cell.totals.all.statements) / cell.seconds;
  cell.load_1m = LoadAverage1m();
  return cell;
}

}  // namespace

double LoadAverage1m() {
  std::ifstream in("/proc/loadavg");
  double load = 0;
  in >> load;
  return load;
}

std::vector<DbCurveCell> MeasureDbCurve(PgPool& pool, const DbCurveOptions& options) {
  std::vector<DbCurveCell> cells;
  for (int c : options.connections) {
    for (int q : options.queue) {
      if (StopRequested()) return cells;
      cells.push_back(MeasureCell(pool, options, c, c + q * c));
    }
  }
  return cells;
}

}  // namespace drainsim::live
