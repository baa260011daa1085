// What `drainsim backtest` computes (experiments/backtest.h), as reports render it
// (reports/backtest_report.h): a recorded incident's series against the simulated band of a
// scenario's replications, per figure, and whether the model missed beyond the tolerances.
//
// Units are in the names; instants are seconds from the start of the run (the observed series'
// own origin: docs/TELEMETRY.md, "Metric series"). "Never" (a time that was never reached) is
// +infinity, later than any instant; the reports write it as null / "never".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace drainsim::experiments {

// When the model counts as missing (docs/TELEMETRY.md, "Tolerances"; `--tolerance`).
struct BacktestTolerances {
  // A series figure passes iff at least this share of its observed points lies in the band (or
  // the share that 97.5% of the replications reach themselves, when lower: SeriesComparison).
  double share_in_band_min = 0.8;
  // A single figure (time to empty, peak DLQ depth) passes iff the observed value lies in the
  // band widened by this fraction: low * (1 - r) <= observed <= high * (1 + r).
  double relative = 0.1;
};

// The simulated band at one observed instant: quantiles across replications.
struct BandPoint {
  double t_s = 0;
  double observed = 0;
  double low = 0;       // 2.5%
  double median = 0;    // 50%
  double high = 0;      // 97.5%
  bool inside = false;  // low <= observed <= high
};

// A series figure: depth, dlq_depth, oldest_age_s.
struct SeriesComparison {
  std::string name;
  std::vector<BandPoint> points;  // the observed points inside every replication's run
  int64_t points_beyond_run = 0;  // observed points after some replication's run had ended
  double share_in_band = 0;       // of `points`
  // The share it must reach: BacktestTolerances::share_in_band_min, or the 2.5% quantile of the
  // replications' own shares in the band when lower (docs/TELEMETRY.md, "Tolerances").
  double share_floor = 0;
  double mean_abs_error = 0;  // mean |observed - median| over `points`, in the figure's unit
  double max_abs_error = 0;
  bool passed = false;
};

// A single figure: time_to_empty_s, peak_dlq_depth.
struct ScalarComparison {
  std::string name;
  std::string rule;  // how it is read from a series, for the reports
  double observed = 0;
  double low = 0;
  double median = 0;
  double high = 0;
  double never_share = 0;  // replications where it was never reached (time to empty)
  bool inside = false;     // low <= observed <= high
  bool passed = false;
};

struct BacktestResult {
  std::string scenario_name;
  std::string scenario_path;
  std::string scenario_hash;
  std::string version;
  std::string observed_file;
  uint64_t base_seed = 0;
  int64_t replications = 0;
  BacktestTolerances tolerances;
  std::vector<SeriesComparison> series;  // in order depth, dlq_depth, oldest_age_s (those given)
  std::vector<ScalarComparison> scalars;
  std::vector<std::string> notes;  // figures read but not compared, and why
  bool passed = false;             // every comparison passed
};

}  // namespace drainsim::experiments
