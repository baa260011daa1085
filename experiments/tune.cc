#include "experiments/tune.h"

#include <charconv>
#include <cmath>
#include <map>

#include "experiments/replicate.h"
#include "experiments/replications_report.h"
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

std::optional<TuneResult> Tune(const TuneSpec& spec, const ScenarioAt& scenario_at,
                               const RunnerOptions& options, std::string* error) {
  DRAINSIM_CHECK(spec.high > spec.low);
  DRAINSIM_CHECK(spec.resolution > 0);
  DRAINSIM_CHECK(spec.constraints.size() == spec.metrics.size());
  const Grid grid(spec);
  const int64_t n = grid.count();
  // Positions p count from the end being optimised's opposite: the constraints are assumed to
  // hold for p <= some threshold, and the search wants the largest such p.
  auto index_of = [&](int64_t p) { return spec.maximize ? p : n - 1 - p; };

  TuneResult result;
  std::map<int64_t, size_t> evaluated;  // position -> evaluation
  std::vector<int64_t> replications;
  for (int64_t i = 0; i < spec.replications; ++i) replications.push_back(i);

  auto evaluate = [&](int64_t p, const char* phase) -> std::optional<bool> {
    if (const auto it = evaluated.find(p); it != evaluated.end()) {
      return result.evaluations[it->second].held;
    }
    Evaluation e;
    e.phase = phase;
    e.value = grid.Value(index_of(p));
    std::optional<scenario::Scenario> s = scenario_at(e.value, error);
    if (!s) return std::nullopt;
    const std::vector<RunRecord> records =
        RunReplications(*s, spec.metrics, spec.base_seed, replications, options);
    e.held = true;
    for (size_t c = 0; c < spec.constraints.size(); ++c) {
      e.constraints.push_back(Judge(spec.constraints[c], records, c, spec.confidence));
      e.held = e.held && e.constraints.back().held;
    }
    evaluated[p] = result.evaluations.size();
    result.evaluations.push_back(std::move(e));
    return result.evaluations.back().held;
  };

  // Coarse scan: nine evenly spaced positions, from the top down, until one holds.
  constexpr int64_t kScanIntervals = 8;
  std::optional<int64_t> held;
  std::optional<int64_t> failed;  // the scanned position just above `held`
  for (int64_t j = kScanIntervals; j >= 0; --j) {
    const int64_t p = (j * (n - 1) + kScanIntervals / 2) / kScanIntervals;
    if (failed && p >= *failed) continue;  // a small grid repeats positions
    const std::optional<bool> ok = evaluate(p, "scan");
    if (!ok) return std::nullopt;
    if (*ok) {
      held = p;
      break;
    }
    failed = p;
  }
  if (!held) return result;
  // Bisection between the holding position and the failing one above it.
  if (failed) {
    int64_t low = *held;
    int64_t high = *failed;
    while (high - low > 1) {
      const int64_t middle = low + (high - low) / 2;
      const std::optional<bool> ok = evaluate(middle, "bisect");
      if (!ok) return std::nullopt;
      (*ok ? low : high) = middle;
    }
    held = low;
    failed = high;
    result.first_failing = grid.Value(index_of(high));
    result.first_failing_evaluation = evaluated.at(high);
  }
  result.found = true;
  result.best = grid.Value(index_of(*held));
  return result;
}

}  // namespace drainsim::experiments
