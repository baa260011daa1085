// What each database work statement of a live run cost: its drawn time against the wall time the
// statement took, grouped by how many work statements were running in the server when it started
// (itself included) — the measured side of the model's database overload curve (docs/LIVE.md,
// "The database under CPU contention").
//
// Contract:
//  (1) Start() counts the statement as running and returns (running, waiting) at its start:
//      `running` the work statements in the server then, this one included, `waiting` the
//      checkouts queued for a pool connection then (what the model's `waiting` is).
//  (2) Finish() with Start()'s answer adds one statement to the cell of that `running`; every
//      Start() is matched by exactly one Finish(), failed statements (a timeout) included in
//      `running` but not in the cells' times (a cancelled statement's time says nothing of its
//      draw).
//  (3) Figures() sorts the cells by `running`; ratio = sum of measured / sum of drawn.
//
// Thread-safety: every member from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace drainsim::live {

struct DbWorkCell {
  int running = 0;  // work statements running at the start, this one included
  int64_t statements = 0;
  double drawn_ms_sum = 0, measured_ms_sum = 0, waiting_sum = 0;
  double ratio() const { return drawn_ms_sum > 0 ? measured_ms_sum / drawn_ms_sum : 0; }
  double waiting_mean() const { return statements > 0 ? waiting_sum / statements : 0; }
};

struct DbWorkTotals {
  std::vector<DbWorkCell> by_running;  // ascending `running`
  DbWorkCell all;                      // running = 0: every cell together
  double running_mean = 0;             // statement-weighted mean of `running`
};

class DbWorkMeter {
 public:
  struct Begun {
    int running = 0;
    int waiting = 0;
  };
  Begun Start(int waiting);
  void Finish(const Begun& begun, int64_t drawn_us, int64_t measured_us, bool ok);
  DbWorkTotals Figures() const;
  // Forgets the cells (between the curve's cells, after a warm-up); a statement running then is
  // counted when it finishes.
  void Reset();

 private:
  std::atomic<int> running_{0};
  mutable std::mutex mu_;
  std::map<int, DbWorkCell> cells_;
};

}  // namespace drainsim::live
