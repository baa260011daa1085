#include "reports/expectations.h"

#include <cmath>
#include <variant>

#include "reports/measure.h"
#include "reports/metrics.h"
#include "sim/base/check.h"
#include "sim/config/enum_names.h"

namespace drainsim::reports {

namespace {

using config::Bounds;
using config::During;

// Bounds are the user's numbers: printed with more room than measured values.
std::string BoundNumber(double value) { return Decimal(value, 9); }

bool Within(double value, const Bounds& b) {
  if (b.equals && value != *b.equals) return false;
  if (b.min && value < *b.min) return false;
  if (b.max && value > *b.max) return false;
  return true;
}

// How far outside the bounds `value` is; 0 iff within.
double Distance(double value, const Bounds& b) {
  if (b.equals) return std::fabs(value - *b.equals);
  double d = 0;
  if (b.min && value < *b.min) d = *b.min - value;
  if (b.max && value > *b.max) d = value - *b.max;
  return d;
}

// The bound `value` breaks, as "24 > 0"; REQUIRES: !Within(value, b).
std::string Violation(double value, const Bounds& b) {
  const std::string v = Decimal(value);
  if (b.equals) return v + " != " + BoundNumber(*b.equals);
  if (b.min && value < *b.min) return v + " < " + BoundNumber(*b.min);
  DRAINSIM_CHECK(b.max && value > *b.max);
  return v + " > " + BoundNumber(*b.max);
}

std::string DuringSuffix(During during) {
  return during == During::kRun ? "" : " during " + std::string(config::NameOf(during));
}

std::string Samples(size_t count) {
  return std::to_string(count) + (count == 1 ? " sample" : " samples");
}

std::string At(double t_s) { return "at t=" + Decimal(t_s, 3) + " s"; }

Verdict EvaluateMetric(const model::Results& r, const config::MetricExpectation& e, Verdict v) {
  const Measurement m = Measure(r, e);
  switch (m.status) {
    case Measurement::Status::kValue:
      v.measured = m.value;
      v.measured_text = Decimal(m.value);
      v.passed = Within(m.value, e.bounds);
      v.reason = v.passed ? "within bounds" : Violation(m.value, e.bounds);
      if (!m.note.empty()) v.reason += "; " + m.note;
      break;
    case Measurement::Status::kUndefined:
      v.measured_text = "undefined";
      v.reason = m.note + "; undefined fails every bound";
      break;
    case Measurement::Status::kNotMeasured:
      v.measured_text = "not measured";
      v.reason = m.note + "; not measured counts as a failure";
      break;
  }
  return v;
}

struct Point {
  double t_s;
  double value;
};

// The samples a property looks at (see the contract in the header).
std::vector<Point> Window(const model::Results& r, const config::PropertyExpectation& e) {
  const SeriesColumn* column = FindSeriesColumn(config::NameOf(e.metric));
  DRAINSIM_CHECK(column != nullptr);
  const bool live_latency =
      e.metric == config::SeriesMetric::kLiveP50 || e.metric == config::SeriesMetric::kLiveP99;
  std::vector<Point> points;
  for (size_t i = 0; i < r.series.size(); ++i) {
    if (!InWindow(r.series, i, e.during, column->over_interval)) continue;
    const model::Sample& s = r.series[i];
    const double raw = column->value(s);
    if (live_latency && raw == 0) continue;
    points.push_back({Fixed(s.t_s), column->type == SeriesColumn::Type::kReal ? Fixed(raw) : raw});
  }
  return points;
}

Verdict EvaluateProperty(const model::Results& r, const config::PropertyExpectation& e, Verdict v) {
  const std::vector<Point> points = Window(r, e);
  const Bounds& b = e.bounds;
  const std::string samples = Samples(points.size()) + DuringSuffix(e.during);
  const bool always = e.quantifier == config::Quantifier::kAlways;
  if (points.empty()) {
    v.measured_text = "no samples";
    v.passed = always;
    v.reason = always ? "vacuously true: no samples" + DuringSuffix(e.during)
                      : "no samples" + DuringSuffix(e.during) + ": nothing can satisfy it";
    return v;
  }
  size_t within = 0;
  const Point* first_in = nullptr;
  const Point* first_out = nullptr;
  const Point* worst = &points.front();    // largest distance, earliest on ties
  const Point* closest = &points.front();  // smallest distance, earliest on ties
  const Point* highest = &points.front();
  const Point* lowest = &points.front();
  for (const Point& p : points) {
    const bool in = Within(p.value, b);
    within += in ? 1 : 0;
    if (in && first_in == nullptr) first_in = &p;
    if (!in && first_out == nullptr) first_out = &p;
    if (Distance(p.value, b) > Distance(worst->value, b)) worst = &p;
    if (Distance(p.value, b) < Distance(closest->value, b)) closest = &p;
    if (p.value > highest->value) highest = &p;
    if (p.value < lowest->value) lowest = &p;
  }
  const size_t out = points.size() - within;
  if (always && out > 0) {
    v.measured = worst->value;
    v.reason = std::to_string(out) + " of " + samples + " out of bounds; worst " +
               Violation(worst->value, b) + " " + At(worst->t_s) + ", first " + At(first_out->t_s);
  } else if (always) {
    // The extreme toward the bound: what came closest to breaking it.
    const Point* extreme = b.max ? highest : b.min ? lowest : &points.front();
    v.measured = extreme->value;
    v.passed = true;
    v.reason = "all " + samples + " within bounds; " +
               (b.max   ? "maximum "
                : b.min ? "minimum "
                        : "value ") +
               Decimal(extreme->value) + " " + At(extreme->t_s);
  } else if (within > 0) {
    v.measured = first_in->value;
    v.passed = true;
    v.reason = std::to_string(within) + " of " + samples + " within bounds; first " +
               Decimal(first_in->value) + " " + At(first_in->t_s);
  } else {
    v.measured = closest->value;
    v.reason = "none of " + samples + " within bounds; closest " + Violation(closest->value, b) +
               " " + At(closest->t_s);
  }
  v.measured_text = Decimal(*v.measured);
  return v;
}

}  // namespace

std::string BoundsText(const Bounds& b) {
  if (b.equals) return "== " + BoundNumber(*b.equals);
  if (b.min && b.max) return ">= " + BoundNumber(*b.min) + " and <= " + BoundNumber(*b.max);
  if (b.min) return ">= " + BoundNumber(*b.min);
  if (b.max) return "<= " + BoundNumber(*b.max);
  return "(no bound)";
}

std::string ExpectationText(const config::Expectation& expectation) {
  if (const auto* m = std::get_if<config::MetricExpectation>(&expectation)) {
    std::string text(config::NameOf(m->metric));
    if (m->kind) text += " for kind " + *m->kind;
    return text + " " + BoundsText(m->bounds) + DuringSuffix(m->during);
  }
  const auto& p = std::get<config::PropertyExpectation>(expectation);
  return std::string(config::NameOf(p.quantifier)) + " " + std::string(config::NameOf(p.metric)) +
         " " + BoundsText(p.bounds) + DuringSuffix(p.during);
}

const Bounds& ExpectationBounds(const config::Expectation& expectation) {
  if (const auto* m = std::get_if<config::MetricExpectation>(&expectation)) return m->bounds;
  return std::get<config::PropertyExpectation>(expectation).bounds;
}

std::string ExpectationMetricName(const config::Expectation& expectation) {
  if (const auto* m = std::get_if<config::MetricExpectation>(&expectation)) {
    return std::string(config::NameOf(m->metric));
  }
  return std::string(config::NameOf(std::get<config::PropertyExpectation>(expectation).metric));
}

Verdict Evaluate(const model::Results& results, const config::Expectation& expectation) {
  Verdict v;
  v.text = ExpectationText(expectation);
  if (const auto* m = std::get_if<config::MetricExpectation>(&expectation)) {
    v.type = "metric";
    v.metric = config::NameOf(m->metric);
    v.kind = m->kind;
    v.during = config::NameOf(m->during);
    v.bounds = m->bounds;
    return EvaluateMetric(results, *m, std::move(v));
  }
  const auto& p = std::get<config::PropertyExpectation>(expectation);
  v.type = config::NameOf(p.quantifier);
  v.metric = config::NameOf(p.metric);
  v.during = config::NameOf(p.during);
  v.bounds = p.bounds;
  return EvaluateProperty(results, p, std::move(v));
}

std::vector<Verdict> EvaluateExpectations(const model::Results& results,
                                          const std::vector<config::Expectation>& expectations) {
  std::vector<Verdict> verdicts;
  verdicts.reserve(expectations.size());
  for (const config::Expectation& e : expectations) verdicts.push_back(Evaluate(results, e));
  return verdicts;
}

std::string FailureMessage(const Verdict& verdict) {
  const std::string measured = verdict.measured ? "measured " + verdict.measured_text
                                                : "no value (" + verdict.measured_text + ")";
  return measured + ", bound " + BoundsText(verdict.bounds);
}

std::string VerdictLine(const Verdict& verdict) {
  if (verdict.passed) {
    return "PASS  " + verdict.text + ": measured " + verdict.measured_text + " (" + verdict.reason +
           ")";
  }
  return "FAIL  " + verdict.text + ": " + FailureMessage(verdict) + " (" + verdict.reason + ")";
}

size_t CountFailed(const std::vector<Verdict>& verdicts) {
  size_t failed = 0;
  for (const Verdict& v : verdicts) failed += v.passed ? 0 : 1;
  return failed;
}

}  // namespace drainsim::reports
