// `drainsim live --db-curve`: the database's real overload curve, measured on the private
// PostgreSQL alone (no broker): for each pool size c and each queue behind it, `clients` threads
// (c + the queue) each loop "check out a connection, run one work statement of work_us, return
// it" for cell_s wall seconds, so the pool stays full (c statements running) with clients - c
// waiting for it — the closed-loop backlog of a drain. Each statement's measured time against its
// draw, by the number running at its start (live/db_work_meter.h), is the curve the model's
// `1 + overload_factor x waiting / connections` is meant to describe (docs/LIVE.md, "The database
// under CPU contention").
//
// Contract:
//  (1) The cells are measured one after another, in the order of `connections` then `queue`
//      (queue q: q x c clients waiting), each for warmup_s then cell_s wall seconds; only the
//      statements finished within the cell_s part are counted (and one running at the warm-up's
//      end).
//  (2) Every client thread is joined before the next cell; the pool's limit is c during the cell.
//  (3) Bounded: cells x (warmup_s + cell_s + one statement's time) wall seconds.
#pragma once

#include <string>
#include <vector>

#include "live/db_work_meter.h"

namespace drainsim::live {

class PgPool;

struct DbCurveOptions {
  std::vector<int> connections = {1, 2, 4, 8};
  std::vector<int> queue = {0, 1, 3};  // clients waiting, per connection
  int64_t work_us = 20'000;            // each statement's drawn work
  double warmup_s = 0.25;
  double cell_s = 1.5;
};

struct DbCurveCell {
  int connections = 0;
  int clients = 0;
  double seconds = 0;  // the measured part
  DbWorkTotals totals;
  double throughput_per_s = 0;  // statements finished per wall second
  double load_1m = 0;           // /proc/loadavg at the cell's end
};

double LoadAverage1m();  // /proc/loadavg's first figure; 0 if unreadable

// REQUIRES: the pool is open with at least max(connections) connections and nothing else uses it.
std::vector<DbCurveCell> MeasureDbCurve(PgPool& pool, const DbCurveOptions& options);

}  // namespace drainsim::live
