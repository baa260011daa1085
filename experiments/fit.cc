#include "experiments/fit.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "experiments/fit_arrivals.h"
#include "experiments/fit_windows.h"
#include "sim/base/check.h"

namespace drainsim::experiments {

namespace {

constexpr int64_t kNanosPerSecond = 1'000'000'000;
constexpr const char* kScenarioClasses[] = {"rate_limited", "transient", "permanent", "unknown"};

// Lognormal when the data do not reject it at 5%, else the table (experiments/fit.h).
HandlerFit FitHandler(std::vector<double> durations_ms) {
  std::sort(durations_ms.begin(), durations_ms.end());
  HandlerFit fit;
  fit.n = static_cast<int64_t>(durations_ms.size());
  if (durations_ms.empty()) {
    fit.why = "no duration of a success: nothing to fit";
    return fit;
  }
  fit.empirical = FitEmpirical(durations_ms);
  fit.ks_critical = 1.358 / std::sqrt(static_cast<double>(fit.n));
  if (durations_ms.size() < 2 || durations_ms.front() <= 0) {
    fit.why = durations_ms.size() < 2 ? "one duration: the empirical table"
                                      : "a duration of 0 ms: no lognormal; the empirical table";
    fit.cdf = CdfCurve(durations_ms, fit);
    return fit;
  }
  fit.lognormal = FitLognormal(durations_ms);
  fit.chose_lognormal = fit.lognormal->ks <= fit.ks_critical;
  fit.cdf = CdfCurve(durations_ms, fit);
  fit.why = fit.chose_lognormal ? "lognormal: its KS distance is within the 5% critical value"
                                : "empirical table: the lognormal's KS distance exceeds the 5% "
                                  "critical value";
  return fit;
}

// Scenario classes in ErrorClass order, then the others by name.
std::vector<std::string> ClassOrder(const std::vector<std::string>& seen) {
  std::vector<std::string> order;
  for (const char* name : kScenarioClasses) {
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) order.emplace_back(name);
  }
  std::vector<std::string> others;
  for (const std::string& name : seen) {
    if (std::find(order.begin(), order.end(), name) == order.end()) others.push_back(name);
  }
  std::sort(others.begin(), others.end());
  order.insert(order.end(), others.begin(), others.end());
  return order;
}

std::vector<ClassFit> FitClasses(const std::map<std::string, int64_t>& failures,
                                 const std::map<std::string, std::vector<double>>& failed_ms,
                                 int64_t attempts) {
  std::vector<std::string> seen;
  for (const auto& [name, count] : failures) seen.push_back(name);
  std::vector<ClassFit> out;
  int64_t trials = attempts;
  for (const std::string& name : ClassOrder(seen)) {
    ClassFit c;
    c.error_class = name;
    c.in_scenario = std::find(std::begin(kScenarioClasses), std::end(kScenarioClasses), name) !=
                    std::end(kScenarioClasses);
    c.failures = failures.at(name);
    c.trials = trials;
    DRAINSIM_CHECK(c.trials >= c.failures && c.trials > 0);
    c.probability = static_cast<double>(c.failures) / static_cast<double>(c.trials);
    c.wilson = Wilson95(c.failures, c.trials);
    c.share = static_cast<double>(c.failures) / static_cast<double>(attempts);
    c.fail_after_ms = FitMean(failed_ms.at(name));
    trials -= c.failures;
    out.push_back(c);
  }
  return out;
}

// Windows of window_s seconds (fit.h).
std::vector<ArrivalWindow> FitArrivals(const std::vector<int64_t>& arrivals_ns, int64_t origin_ns,
                                       double window_s, double end_s) {
  const auto windows = static_cast<size_t>(std::ceil(end_s / window_s));
  DRAINSIM_CHECK(windows >= 1 && windows <= kArrivalWindowsMax + 1);
  std::vector<int64_t> counts(windows, 0);
  for (const int64_t at_ns : arrivals_ns) {
    const double t_s = static_cast<double>(at_ns - origin_ns) / 1e9;
    ++counts[std::min(windows - 1, static_cast<size_t>(t_s / window_s))];
  }
  std::vector<ArrivalWindow> out;
  for (size_t i = 0; i < windows; ++i) {
    out.push_back(PoissonWindow(static_cast<double>(i) * window_s,
                                std::min(end_s, static_cast<double>(i + 1) * window_s), counts[i]));
  }
  return out;
}

// A kind's database statements (those whose parent process span is of the kind).
struct StatementData {
  int64_t spans = 0;
  int64_t failed = 0;
  std::vector<double> latency_ms;  // of those that did not fail
};

// Each process span's statements, matched by key (telemetry::StatementSpan): per span how many
// did not fail and their total duration, which the span's handler time is taken without.
struct Statements {
  std::vector<int32_t> count;  // by process span; empty when no statement was read
  std::vector<int64_t> sum_ns;
  std::map<std::string, StatementData> kinds;
  int64_t unmatched = 0;
};

Statements MatchStatements(const telemetry::TelemetrySet& set) {
  Statements out;
  if (set.statements.empty()) return out;
  std::unordered_map<uint64_t, size_t> parent;  // the first span of each key
  parent.reserve(set.spans.size());
  for (size_t i = 0; i < set.spans.size(); ++i) {
    if (set.spans[i].key != 0) parent.emplace(set.spans[i].key, i);
  }
  out.count.assign(set.spans.size(), 0);
  out.sum_ns.assign(set.spans.size(), 0);
  for (const telemetry::StatementSpan& st : set.statements) {
    const auto it = parent.find(st.parent_key);
    if (it == parent.end()) {
      ++out.unmatched;
      continue;
    }
    StatementData& d = out.kinds[set.kinds[set.spans[it->second].kind]];
    ++d.spans;
    if (st.failed) {
      ++d.failed;
      continue;
    }
    d.latency_ms.push_back(static_cast<double>(st.end_ns - st.start_ns) / 1e6);
    ++out.count[it->second];
    out.sum_ns[it->second] += st.end_ns - st.start_ns;
  }
  return out;
}

// The statement fit of a kind: latency by the handler time's rules, the most common count per
// successful attempt (the smaller on a tie).
StatementFit FitStatements(StatementData d, const std::map<int32_t, int64_t>& per_attempt) {
  StatementFit fit;
  fit.spans = d.spans;
  fit.failed = d.failed;
  fit.latency = FitHandler(std::move(d.latency_ms));
  int64_t attempts = 0;
  int64_t most = 0;
  for (const auto& [count, attempts_with] : per_attempt) {
    attempts += attempts_with;
    if (attempts_with > most) {
      most = attempts_with;
      fit.per_attempt = count;
    }
  }
  if (attempts > 0)
    fit.per_attempt_share = static_cast<double>(most) / static_cast<double>(attempts);
  return fit;
}

struct KindData {
  std::map<int32_t, int64_t> statements_per_attempt;  // successful attempts by statement count
  std::vector<double> durations_ms;
  std::map<std::string, int64_t> failures;
  std::map<std::string, std::vector<double>> failed_ms;  // the failed attempts' durations
  // Each finished attempt's start and the class that failed it (-1: none), for the windows.
  std::vector<std::pair<int64_t, int32_t>> outcomes;
  int64_t attempts = 0;                       // finished (not censored)
  std::map<int64_t, int64_t> attempts_of;     // message -> spans
  std::map<int64_t, int64_t> first_start_ns;  // message -> its first attempt's start
};

}  // namespace

namespace {

// A kind's arrivals (each message's first attempt start): per --window-s window when one is
// given, else the rate chosen from the data (fit_arrivals.h), with the bins the report draws.
void FitKindArrivals(const KindData& d, const FitResult& result, double end_s, KindFit& fit) {
  std::vector<int64_t> arrivals_ns;
  for (const auto& [message, at_ns] : d.first_start_ns) arrivals_ns.push_back(at_ns);
  if (result.window_s > 0) {
    fit.arrivals = FitArrivals(arrivals_ns, result.origin_unix_ns, result.window_s, end_s);
    fit.bin_s = result.window_s;
    for (const ArrivalWindow& w : fit.arrivals) fit.bin_counts.push_back(w.arrivals);
    return;
  }
  std::vector<double> arrivals_s;
  for (const int64_t at_ns : arrivals_ns) {
    arrivals_s.push_back(static_cast<double>(at_ns - result.origin_unix_ns) / 1e9);
  }
  ArrivalRateFit rate = FitArrivalRate(arrivals_s, end_s);
  fit.arrivals = std::move(rate.segments);
  fit.dispersion = rate.dispersion;
  fit.bin_s = rate.dispersion.bin_s;
  fit.bin_counts = std::move(rate.counts);
}

// Each class's probability over time (fit_windows.h): its trials are the attempts that no earlier
// class failed, by their start from the origin; the data end at the last start, ceiled.
void FitClassWindows(const KindData& d, const std::vector<std::string>& names, int64_t origin_ns,
                     std::vector<ClassFit>& classes) {
  std::map<std::string, size_t> rank;
  for (size_t r = 0; r < classes.size(); ++r) rank[classes[r].error_class] = r;
  double end_s = 0;
  for (const auto& [start_ns, error_class] : d.outcomes) {
    end_s = std::max(end_s, static_cast<double>(start_ns - origin_ns) / 1e9);
  }
  end_s = std::floor(end_s) + 1;
  for (size_t r = 0; r < classes.size(); ++r) {
    std::vector<Trial> trials;
    for (const auto& [start_ns, error_class] : d.outcomes) {
      const size_t failed_by = error_class < 0 ? classes.size() : rank.at(names[error_class]);
      if (failed_by < r) continue;  // an earlier class failed it: no trial for this one
      trials.push_back(
          {std::max(0.0, static_cast<double>(start_ns - origin_ns) / 1e9), failed_by == r});
    }
    FailureWindowsFit windows = FitFailureWindows(trials, end_s);
    classes[r].homogeneity = windows.homogeneity;
    if (windows.windows.size() > 1) classes[r].windows = std::move(windows.windows);
  }
}

// Each process span counted into its kind's fit (spans, censored) and data (fit.cc's rules).
void CollectSpans(const telemetry::TelemetrySet& set, const Statements& statements,
                  std::map<std::string, KindFit>& fits, std::map<std::string, KindData>& data) {
  for (size_t i = 0; i < set.spans.size(); ++i) {
    const telemetry::ProcessSpan& s = set.spans[i];
    const std::string& kind = set.kinds[s.kind];
    KindFit& fit = fits[kind];
    KindData& d = data[kind];
    ++fit.spans;
    if (s.message >= 0) {
      ++d.attempts_of[s.message];
      auto [it, added] = d.first_start_ns.emplace(s.message, s.start_ns);
      if (!added) it->second = std::min(it->second, s.start_ns);
    }
    if (s.censored) {
      ++fit.censored;
      continue;
    }
    ++d.attempts;
    d.outcomes.emplace_back(s.start_ns, s.failed ? s.error_class : -1);
    if (s.failed) {
      ++d.failures[set.classes[s.error_class]];
      d.failed_ms[set.classes[s.error_class]].push_back(static_cast<double>(s.end_ns - s.start_ns) /
                                                        1e6);
    } else if (statements.kinds.count(kind) == 0) {
      d.durations_ms.push_back(static_cast<double>(s.end_ns - s.start_ns) / 1e6);
    } else {  // the handler's own time: statements that overlap may leave less than nothing
      const int64_t own_ns = std::max<int64_t>(0, s.end_ns - s.start_ns - statements.sum_ns[i]);
      d.durations_ms.push_back(static_cast<double>(own_ns) / 1e6);
      ++d.statements_per_attempt[statements.count[i]];
    }
  }
}

}  // namespace

FitResult FitTelemetry(const telemetry::TelemetrySet& set, double window_s) {
  DRAINSIM_CHECK(window_s >= 0);
  FitResult result;
  result.files = set.files;
  for (const std::string& file : set.files) result.from += (result.from.empty() ? "" : ", ") + file;
  result.spans = static_cast<int64_t>(set.spans.size());
  result.spans_skipped = set.spans_skipped;
  result.window_s_asked = window_s;
  const Statements statements = MatchStatements(set);
  result.statements = static_cast<int64_t>(set.statements.size());
  result.statements_unmatched = statements.unmatched;
  std::map<std::string, KindFit> fits;
  std::map<std::string, KindData> data;
  CollectSpans(set, statements, fits, data);
  int64_t first_ns = INT64_MAX;
  int64_t last_ns = INT64_MIN;
  for (const auto& [kind, d] : data) {
    for (const auto& [message, at_ns] : d.first_start_ns) {
      first_ns = std::min(first_ns, at_ns);
      last_ns = std::max(last_ns, at_ns);
    }
  }
  result.origin_unix_ns = first_ns == INT64_MAX ? 0 : first_ns / kNanosPerSecond * kNanosPerSecond;
  const double end_s =
      last_ns == INT64_MIN
          ? 0
          : std::floor(static_cast<double>(last_ns - result.origin_unix_ns) / 1e9) + 1;
  // Bounded: a window narrower than end_s / kArrivalWindowsMax is widened (fit.h).
  const double max_windows = static_cast<double>(kArrivalWindowsMax);
  result.window_s = window_s > 0 && end_s / window_s > max_windows ? end_s / max_windows : window_s;
  for (auto& [kind, fit] : fits) {
    KindData& d = data[kind];
    fit.kind = kind;
    fit.handler = FitHandler(std::move(d.durations_ms));
    if (const auto it = statements.kinds.find(kind); it != statements.kinds.end()) {
      fit.statements = FitStatements(it->second, d.statements_per_attempt);
    }
    if (d.attempts > 0) {
      fit.classes = FitClasses(d.failures, d.failed_ms, d.attempts);
      FitClassWindows(d, set.classes, result.origin_unix_ns, fit.classes);
    }
    fit.messages = static_cast<int64_t>(d.attempts_of.size());
    int64_t with_id = 0;
    for (const auto& [message, count] : d.attempts_of) {
      with_id += count;
      fit.attempts_per_message_max = std::max(fit.attempts_per_message_max, count);
      if (count > 1) ++fit.messages_retried;
    }
    if (fit.messages > 0) {
      fit.attempts_per_message = static_cast<double>(with_id) / static_cast<double>(fit.messages);
      FitKindArrivals(d, result, end_s, fit);
    }
    result.kinds.push_back(std::move(fit));
  }
  return result;
}

}  // namespace drainsim::experiments
