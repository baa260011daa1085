#include "experiments/tune.h"

#include <charconv>
#include <cmath>
#include <map>

#include "experiments/replicate.h"
#include "experiments/replications_report.h"
#include "experiments/table.h"
#include "reports/metrics.h"
#include "sim/base/check.h"

namespace drainsim::experiments {

namespace {

using nlohmann::json;

std::string OpText(Constraint::Op op) {
  switch (op) {
    case Constraint::Op::kAtMost:
      return "<=";
    case Constraint::Op::kAtLeast:
      return ">=";
    case Constraint::Op::kEquals:
      return "==";
  }
  return "?";
}

std::string Percent(double level) { return reports::Decimal(level * 100, 4) + "%"; }

// Each line its own Markdown paragraph.
std::string Paragraphs(const std::string& lines) {
  std::string out;
  for (char c : lines) out += c == '\n' ? std::string("\n\n") : std::string(1, c);
  return out;
}

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

std::string Constraint::Text() const { return metric + " " + OpText(op) + " " + Number(bound); }

std::optional<Constraint> ParseConstraint(const std::string& text, std::string* error) {
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
    *error = "'" + text + "' is not METRIC<=BOUND, METRIC>=BOUND or METRIC==BOUND";
    return std::nullopt;
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
    *error = "'" + text + "': need a metric name and a number, as in live_p99_ms<=250";
    return std::nullopt;
  }
  return c;
}

double DefaultResolution(double low, double high) {
  DRAINSIM_CHECK(high > low);
  return std::pow(10.0, std::floor(std::log10((high - low) / 100)));
}

json ValueJson(const TuneSpec& spec, double value) {
  if (spec.integer) return json(static_cast<int64_t>(std::llround(value)));
  return json(value);
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
    std::optional<config::Scenario> s = scenario_at(e.value, error);
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

Rendered RenderTune(const TuneSpec& spec, const TuneResult& result, const TuneContext& context) {
  const std::string direction = spec.maximize ? "maximize" : "minimize";
  const std::string range = "[" + Number(spec.low) + ", " + Number(spec.high) + "]";
  const std::string level = Percent(spec.confidence);
  std::string head =
      "tune " + context.scenario_name + " (" + context.scenario_path + "): " + direction + " " +
      spec.pointer + " in " + range + ", resolution " + Number(spec.resolution) + "\n" +
      std::to_string(spec.replications) + " replications per value (seeds ReplicationSeed(" +
      std::to_string(spec.base_seed) +
      ", i), the same at every value); every constraint must hold with " + level + " confidence:\n";
  for (const Constraint& c : spec.constraints) {
    const std::string how = c.op == Constraint::Op::kEquals
                                ? "in every replication"
                                : std::string("its one-sided ") + level + " " +
                                      (c.op == Constraint::Op::kAtMost ? "upper" : "lower") +
                                      " bound of the mean";
    head += "  " + c.Text() + "  (" + how + ")\n";
  }

  std::string verdict;
  if (result.found) {
    verdict = "recommended: " + spec.pointer + " = " + Number(result.best) + "\n";
    const std::string extreme = spec.maximize ? "largest" : "smallest";
    verdict += "why: the " + extreme + " value evaluated in " + range +
               " at which every constraint held (" + std::to_string(spec.replications) +
               " replications each)";
    if (result.first_failing) {
      const Evaluation& fail = result.evaluations[*result.first_failing_evaluation];
      std::string broken;
      for (const ConstraintResult& c : fail.constraints) {
        if (!c.held) broken += (broken.empty() ? "" : "; ") + c.why;
      }
      verdict += "; the next value, " + Number(*result.first_failing) + " (" +
                 (spec.maximize ? "+" : "-") +
                 Number(std::abs(*result.first_failing - result.best)) + "), fails: " + broken +
                 "\n";
    } else {
      verdict += "; it is the end of the range: the constraints may hold beyond it\n";
    }
    const Evaluation* at_best = nullptr;
    for (const Evaluation& e : result.evaluations) {
      if (e.value == result.best) at_best = &e;
    }
    if (at_best != nullptr) {
      std::string margins;
      for (const ConstraintResult& c : at_best->constraints) {
        margins += (margins.empty() ? "" : "; ") + c.why;
      }
      verdict += "at " + Number(result.best) + ": " + margins + "\n";
    }
  } else {
    verdict = "no value in " + range + " satisfied every constraint (of the " +
              std::to_string(result.evaluations.size()) +
              " evaluated, evenly spaced over the range; a window narrower than their spacing "
              "could be missed)\n";
  }
  const std::string assumption =
      "assumes the constraints hold on one side of a single threshold (" +
      std::string(spec.maximize ? "below it" : "above it") +
      "); the evidence shows every value evaluated\n";

  Table table;
  table.header = {"#", "phase", spec.pointer};
  for (const Constraint& c : spec.constraints) {
    table.header.push_back(c.Text() + ": mean");
    table.header.push_back(c.op == Constraint::Op::kEquals ? "range" : level + " bound");
    table.header.push_back("holds");
  }
  table.header.push_back("all hold");
  table.right.assign(table.header.size(), true);
  table.right[1] = false;
  for (size_t i = 0; i < result.evaluations.size(); ++i) {
    const Evaluation& e = result.evaluations[i];
    std::vector<std::string> row = {std::to_string(i + 1), e.phase, Number(e.value)};
    for (size_t c = 0; c < e.constraints.size(); ++c) {
      const ConstraintResult& r = e.constraints[c];
      const bool any = r.stats.count > 0;
      row.push_back(any ? Number(r.stats.mean) : "undefined");
      if (spec.constraints[c].op == Constraint::Op::kEquals) {
        row.push_back(any ? "[" + Number(r.stats.min) + ", " + Number(r.stats.max) + "]" : "-");
      } else {
        row.push_back(any && r.stats.undefined == 0 ? Number(r.bound_at_confidence) : "-");
      }
      row.push_back(r.held ? "yes" : "no");
    }
    row.push_back(e.held ? "yes" : "no");
    table.rows.push_back(std::move(row));
  }

  Rendered out;
  out.exit_code = result.found ? 0 : 1;
  out.text =
      head + "\n" + verdict + assumption + "\nevidence (in the order evaluated):\n" + table.Text();
  out.files.push_back({"tune.md", "# Tuning " + spec.pointer + " of " + context.scenario_name +
                                      "\n\n```\n" + head + "```\n\n**" +
                                      verdict.substr(0, verdict.find('\n')) + "**\n\n" +
                                      Paragraphs(verdict.substr(verdict.find('\n') + 1)) + "\n" +
                                      assumption + "\n## Evidence\n\n" + table.Markdown()});

  json constraints = json::array();
  for (const Constraint& c : spec.constraints) {
    constraints.push_back({{"metric", c.metric}, {"op", OpText(c.op)}, {"bound", c.bound}});
  }
  json evaluations = json::array();
  for (const Evaluation& e : result.evaluations) {
    json results = json::array();
    for (size_t c = 0; c < e.constraints.size(); ++c) {
      const ConstraintResult& r = e.constraints[c];
      json entry = StatisticsJson(r.stats);
      entry["constraint"] = spec.constraints[c].Text();
      entry["bound_at_confidence"] = reports::Fixed(r.bound_at_confidence);
      entry["held"] = r.held;
      entry["why"] = r.why;
      results.push_back(std::move(entry));
    }
    evaluations.push_back({{"phase", e.phase},
                           {"value", ValueJson(spec, e.value)},
                           {"held", e.held},
                           {"constraints", std::move(results)}});
  }
  const json document = {
      {"experiments_version", 1},
      {"command", "tune"},
      {"scenario",
       {{"name", context.scenario_name},
        {"path", context.scenario_path},
        {"hash", context.scenario_hash}}},
      {"drainsim_version", context.drainsim_version},
      {"param", spec.pointer},
      {"range", {spec.low, spec.high}},
      {"resolution", spec.resolution},
      {"direction", direction},
      {"replications", spec.replications},
      {"confidence", spec.confidence},
      {"base_seed", spec.base_seed},
      {"constraints", std::move(constraints)},
      {"found", result.found},
      {"recommended", result.found ? ValueJson(spec, result.best) : json(nullptr)},
      {"first_failing",
       result.first_failing ? ValueJson(spec, *result.first_failing) : json(nullptr)},
      {"evaluations", std::move(evaluations)}};
  out.files.push_back({"tune.json", document.dump(2) + "\n"});
  return out;
}

}  // namespace drainsim::experiments
