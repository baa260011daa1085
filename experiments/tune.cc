#include "experiments/tune.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

#include "experiments/experiment_result.h"
#include "experiments/replicate.h"
#include "reports/metrics.h"
#include "reports/table.h"
#include "sim/base/check.h"

namespace drainsim::experiments {

using reports::Number;

namespace {

ConstraintResult Judge(const Constraint& c, const std::vector<RunRecord>& records, size_t metric,
                       double confidence) {
  ConstraintResult r;
  r.stats = MetricStatistics(records, metric, confidence);
  const Statistics& s = r.stats;
  if (s.undefined > 0) {
    r.held = false;
    r.why = c.metric + " undefined in " + std::to_string(s.undefined) + " of " +
            std::to_string(s.runs) + " runs";
    return r;
  }
  switch (c.op) {
    case Constraint::Op::kAtMost:
      r.bound_at_confidence = s.has_interval() ? s.UpperBound(confidence) : s.mean;
      r.held = r.bound_at_confidence <= c.bound;
      r.why = c.metric + (s.has_interval() ? " upper bound " : " ") +
              Number(r.bound_at_confidence) + (r.held ? " <= " : " > ") + Number(c.bound);
      break;
    case Constraint::Op::kAtLeast:
      r.bound_at_confidence = s.has_interval() ? s.LowerBound(confidence) : s.mean;
      r.held = r.bound_at_confidence >= c.bound;
      r.why = c.metric + (s.has_interval() ? " lower bound " : " ") +
              Number(r.bound_at_confidence) + (r.held ? " >= " : " < ") + Number(c.bound);
      break;
    case Constraint::Op::kEquals:
      r.bound_at_confidence = s.mean;
      r.held = s.min == c.bound && s.max == c.bound;
      r.why = r.held ? c.metric + " == " + Number(c.bound) + " in every run"
                     : c.metric + " ranged over [" + Number(s.min) + ", " + Number(s.max) +
                           "], not always " + Number(c.bound);
      break;
  }
  return r;
}

// The candidate grid: LOW + k * resolution for k in [0, count), and HIGH when it is not on it.
class Grid {
 public:
  explicit Grid(const TuneSpec& spec) : spec_(spec) {
    on_grid_ =
        static_cast<int64_t>(std::floor((spec.high - spec.low) / spec.resolution + 1e-9)) + 1;
    const double last = spec.low + static_cast<double>(on_grid_ - 1) * spec.resolution;
    count_ = on_grid_ + (spec.high - last > 1e-9 * spec.resolution ? 1 : 0);
  }
  int64_t count() const { return count_; }
  double Value(int64_t k) const {
    DRAINSIM_CHECK(k >= 0);
    DRAINSIM_CHECK(k < count_);
    const double raw =
        k == on_grid_ ? spec_.high : spec_.low + static_cast<double>(k) * spec_.resolution;
    return spec_.integer ? std::round(raw) : reports::Fixed(raw);
  }

 private:
  const TuneSpec& spec_;
  int64_t on_grid_ = 1;
  int64_t count_ = 1;
};

}  // namespace

base::Expected<Constraint> ParseConstraint(const std::string& text) {
  Constraint c;
  size_t at = std::string::npos;
  size_t length = 2;
  for (const auto& [token, op] :
       {std::pair{"<=", Constraint::Op::kAtMost}, std::pair{">=", Constraint::Op::kAtLeast},
        std::pair{"==", Constraint::Op::kEquals}}) {
    const size_t found = text.find(token);
    if (found != std::string::npos && found < at) {
      at = found;
      c.op = op;
    }
  }
  if (at == std::string::npos) {
    return base::Failure{"'" + text + "' is not METRIC<=BOUND, METRIC>=BOUND or METRIC==BOUND"};
  }
  auto trim = [](std::string s) {
    while (!s.empty() && s.front() == ' ') s.erase(s.begin());
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
  };
  c.metric = trim(text.substr(0, at));
  const std::string bound = trim(text.substr(at + length));
  const auto [end, ec] = std::from_chars(bound.data(), bound.data() + bound.size(), c.bound);
  if (c.metric.empty() || bound.empty() || ec != std::errc() ||
      end != bound.data() + bound.size() || !std::isfinite(c.bound)) {
    return base::Failure{"'" + text + "': need a metric name and a number, as in live_p99_ms<=250"};
  }
  return c;
}

double DefaultResolution(double low, double high) {
  DRAINSIM_CHECK(high > low);
  return std::pow(10.0, std::floor(std::log10((high - low) / 100)));
}

namespace {

// The coarse scan tries kScanIntervals + 1 evenly spaced positions (ExpectedEvaluations
// counts them too: the one constant both use).
constexpr int64_t kScanIntervals = 8;

// One search: the evaluations made so far, by grid position. Positions p count from the end
// being optimised's opposite: the constraints are assumed to hold for p <= some threshold, and
// the search wants the largest such p.
class Search {
 public:
  Search(const TuneSpec& spec, const ScenarioAt& scenario_at, const RunnerOptions& options)
      : spec_(spec), scenario_at_(scenario_at), options_(options), grid_(spec) {
    for (int64_t i = 0; i < spec.replications; ++i) replications_.push_back(i);
  }
  int64_t count() const { return grid_.count(); }
  double ValueAt(int64_t p) const {
    return grid_.Value(spec_.maximize ? p : grid_.count() - 1 - p);
  }
  size_t EvaluationAt(int64_t p) const { return evaluated_.at(p); }
  TuneResult& result() { return result_; }

  // Whether every constraint holds at position p (evaluated once, then remembered), or why the
  // value's scenario was refused.
  base::Expected<bool> Holds(int64_t p, const char* phase) {
    if (const auto it = evaluated_.find(p); it != evaluated_.end()) {
      return result_.evaluations[it->second].held;
    }
    Evaluation e;
    e.phase = phase;
    e.value = ValueAt(p);
    base::Expected<config::Scenario> s = scenario_at_(e.value);
    if (!s) return base::Failure{s.error()};
    const std::vector<RunRecord> records =
        RunReplications(*s, spec_.metrics, spec_.base_seed, replications_, options_);
    e.held = true;
    for (size_t c = 0; c < spec_.constraints.size(); ++c) {
      e.constraints.push_back(Judge(spec_.constraints[c], records, c, spec_.confidence));
      e.held = e.held && e.constraints.back().held;
    }
    evaluated_[p] = result_.evaluations.size();
    result_.evaluations.push_back(std::move(e));
    return result_.evaluations.back().held;
  }

 private:
  const TuneSpec& spec_;
  const ScenarioAt& scenario_at_;
  const RunnerOptions& options_;
  const Grid grid_;
  std::vector<int64_t> replications_;
  std::map<int64_t, size_t> evaluated_;  // position -> evaluation
  TuneResult result_;
};

// The scanned position that held and the scanned one just above it that failed (if any).
struct ScanEnd {
  std::optional<int64_t> held;
  std::optional<int64_t> failed;
};

// Coarse scan: nine evenly spaced positions, from the top down, until one holds.
base::Expected<ScanEnd> Scan(Search& search) {
  const int64_t n = search.count();
  ScanEnd end;
  for (int64_t j = kScanIntervals; j >= 0; --j) {
    const int64_t p = (j * (n - 1) + kScanIntervals / 2) / kScanIntervals;
    if (end.failed && p >= *end.failed) continue;  // a small grid repeats positions
    const base::Expected<bool> ok = search.Holds(p, "scan");
    if (!ok) return base::Failure{ok.error()};
    if (*ok) {
      end.held = p;
      break;
    }
    end.failed = p;
  }
  return end;
}

}  // namespace

double ExpectedEvaluations(const TuneSpec& spec) {
  const double values = (spec.high - spec.low) / spec.resolution + 1;
  return (kScanIntervals + 1) + std::ceil(std::log2(std::max(2.0, values / kScanIntervals)));
}

base::Expected<TuneResult> Tune(const TuneSpec& spec, const ScenarioAt& scenario_at,
                                const RunnerOptions& options) {
  DRAINSIM_CHECK(spec.high > spec.low);
  DRAINSIM_CHECK(spec.resolution > 0);
  DRAINSIM_CHECK(spec.constraints.size() == spec.metrics.size());
  Search search(spec, scenario_at, options);
  const base::Expected<ScanEnd> scan = Scan(search);
  if (!scan) return base::Failure{scan.error()};
  TuneResult& result = search.result();
  if (!scan->held) return std::move(result);
  int64_t low = *scan->held;
  // Bisection between the holding position and the failing one above it.
  if (scan->failed) {
    int64_t high = *scan->failed;
    while (high - low > 1) {
      const int64_t middle = low + (high - low) / 2;
      const base::Expected<bool> ok = search.Holds(middle, "bisect");
      if (!ok) return base::Failure{ok.error()};
      (*ok ? low : high) = middle;
    }
    result.first_failing = search.ValueAt(high);
    result.first_failing_evaluation = search.EvaluationAt(high);
  }
  result.found = true;
  result.best = search.ValueAt(low);
  return std::move(result);
}

}  // namespace drainsim::experiments
