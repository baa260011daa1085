// What `drainsim fit` computes from telemetry (experiments/fit.h), as reports render it
// (reports/fit_report.h): per message kind, the handler time (a lognormal by maximum
// likelihood and an empirical table, each with its Kolmogorov-Smirnov distance, and the one
// chosen), the failure probability of each error class with its Wilson 95% interval, attempts
// per message, the arrival rate per window or segment with its exact Poisson 95% interval
// (and, for segments chosen from the data, the dispersion test), and the latency of database
// statements when spans carry them.
//
// Units are in the names: handler times in milliseconds (the scenario's cpu_ms), rates per second,
// window bounds in seconds from the telemetry's origin (FitResult::origin_unix_ns).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace drainsim::experiments {

struct Interval95 {
  double low = 0;
  double high = 0;
};

// ln X ~ Normal(mu, sigma^2), X in milliseconds. mu and sigma by maximum likelihood; intervals
// exact for lognormal data: Student's t for mu, chi-squared for sigma.
struct LognormalFit {
  double mu = 0;
  double sigma = 0;
  Interval95 mu_interval;
  Interval95 sigma_interval;
  double ks = 0;  // sup |ECDF - CDF| over the data
};

// [cumulative probability, value in ms] rows, as the scenario's `empirical` distribution.
struct EmpiricalFit {
  std::vector<std::pair<double, double>> points;
  double ks = 0;
};

// One point of the handler-time chart (reports/fit_chart.h): at a data quantile, the data's ECDF
// and the fitted CDFs there.
struct CdfPoint {
  double value_ms = 0;
  double data = 0;       // the ECDF
  double lognormal = 0;  // 0 when there is no lognormal
  double table = 0;      // the empirical table's CDF as the engine samples it
};

struct HandlerFit {
  int64_t n = 0;                          // finished, successful attempts: the durations fitted
  std::optional<LognormalFit> lognormal;  // none when a duration is 0 or n < 2
  std::optional<EmpiricalFit> empirical;  // none when n == 0
  bool chose_lognormal = false;
  double ks_critical = 0;     // the Kolmogorov 5% critical value for n, 1.358 / sqrt(n)
  std::string why;            // the choice, in words
  std::vector<CdfPoint> cdf;  // the minimum and the data's percentiles (at most 101 points)
};

// The mean of a sample with Student's t 95% interval (the low end at least 0: durations).
struct MeanFit {
  int64_t n = 0;
  double mean = 0;
  std::optional<Interval95> interval;  // none when n < 2
};

// The homogeneity test of a class's failures over time bins (experiments/fit_windows.h).
struct FailureHomogeneity {
  bool tested = false;  // false: fewer than 10 failures or successes
  int64_t bins = 0;
  double bin_s = 0;
  double statistic = 0;   // Pearson's chi-squared of the 2 x bins table
  double p_value = 1;     // upper tail, bins with trials - 1 degrees of freedom
  bool rejected = false;  // p_value < 0.05: the probability changed over time
};

// A window [from_s, until_s) of a class's trials and its probability there.
struct ProbabilityWindow {
  double from_s = 0;
  double until_s = 0;
  int64_t failures = 0;
  int64_t trials = 0;
  double probability = 0;
  Interval95 wilson;
};

// One error class, conditional on the classes before it not having failed the attempt: the
// probability a scenario `errors` fault in this order states (faults are tried in order, the
// first that fires fails the attempt).
struct ClassFit {
  std::string error_class;
  bool in_scenario = false;  // rate_limited, transient, permanent or unknown
  int64_t failures = 0;
  int64_t trials = 0;      // attempts not failed by an earlier class
  double probability = 0;  // failures / trials
  Interval95 wilson;
  double share = 0;  // failures / every attempt: what dashboards show
  // The failed attempts' durations in ms: the errors fault's fail_after_ms (the validation they
  // include is in it: the fragment's handler has none).
  MeanFit fail_after_ms;
  FailureHomogeneity homogeneity;
  // More than one iff the homogeneity test rejected and segmentation split: the errors faults
  // are then one per window with failures, each with from_s (and until_s but the last).
  std::vector<ProbabilityWindow> windows;
};

struct ArrivalWindow {
  double from_s = 0;
  double until_s = 0;
  int64_t arrivals = 0;
  double rate_per_s = 0;
  Interval95 poisson;  // Garwood's exact interval, per second
};

// The dispersion test of the arrivals' bin counts (experiments/fit_arrivals.h): computed when
// the rate is chosen from the data (no --window-s).
struct ArrivalDispersion {
  bool tested = false;
  int64_t bins = 0;
  double bin_s = 0;
  double index = 0;       // variance / mean of the bin counts: 1 for a constant Poisson rate
  double statistic = 0;   // (bins - 1) * index, chi-squared with bins - 1 degrees of freedom
  double p_value = 1;     // upper tail
  bool rejected = false;  // p_value < 0.05: the rate is not constant
  double p_value_low = 1;  // lower tail
  // p_value_low < kRegularTestLevel: the arrivals are more even than a Poisson process's, as a
  // producer publishing at a fixed pace is (experiments/fit_arrivals.h, rule (5)).
  bool regular = false;
};

// The database statements under a kind's process spans (client spans with db.system.name).
struct StatementFit {
  int64_t spans = 0;   // statement spans whose process span is of the kind
  int64_t failed = 0;  // of which status ERROR: left out of the latency, as failed attempts are
  HandlerFit latency;  // of the others, in ms, by the handler time's rules
  // Statements per finished successful attempt: the most common count, and the share of those
  // attempts that made exactly that many.
  int64_t per_attempt = 0;
  double per_attempt_share = 0;
};

struct KindFit {
  std::string kind;
  int64_t spans = 0;     // process spans read of this kind
  int64_t censored = 0;  // of which still running at the end (left out of every fit)
  // Of the successful attempts' durations, less their statements' when the kind has any.
  HandlerFit handler;
  std::optional<StatementFit> statements;  // iff a statement span names a process span of it
  std::vector<ClassFit> classes;  // scenario classes in ErrorClass order, then others by name
  int64_t messages = 0;           // distinct messaging.message.id
  double attempts_per_message = 0;
  int64_t attempts_per_message_max = 0;
  int64_t messages_retried = 0;         // with more than one attempt
  std::vector<ArrivalWindow> arrivals;  // --window-s windows, or the segments chosen
  ArrivalDispersion dispersion;
  double bin_s = 0;  // the arrival counts drawn: dispersion bins or windows
  std::vector<int64_t> bin_counts;
  double bins_from_s = 0;  // where the first bin starts: 0, or a series' first t_s
  // Where the arrivals came from: empty for the spans (FitResult::from), else the metric
  // series file whose inflow_per_s replaced them (experiments/fit_series.h), with its points.
  std::string arrivals_from;
  int64_t series_steps = 0;
  double series_step_s = 0;
};

struct FitResult {
  std::vector<std::string> files;
  std::string from;  // the files, ", "-joined: provenance of every fitted value
  int64_t spans = 0;
  int64_t spans_skipped = 0;
  int64_t statements = 0;            // database statement spans read
  int64_t statements_unmatched = 0;  // of which no process span read is the parent
  int64_t origin_unix_ns = 0;        // time 0 of from_s/until_s: the first arrival, whole seconds
  double window_s = 0;               // 0: one window over all arrivals; else the width used
  double window_s_asked = 0;         // --window-s; less than window_s iff it was widened
  std::vector<KindFit> kinds;        // by name
  std::vector<std::string> series_files;  // metric series whose inflow gave arrivals
};

}  // namespace drainsim::experiments
