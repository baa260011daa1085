#include "live/comparison.h"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>

#include "sim/base/check.h"

namespace drainsim::live {

namespace {

bool Within(double value, double low, double high, double tolerance) {
  return value >= low - tolerance && value <= high + tolerance;
}

}  // namespace

const char* VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kInside:
      return "inside";
    case Verdict::kOutside:
      return "outside";
    case Verdict::kNotCompared:
      return "not compared";
  }
  return "not compared";
}

Interval PredictionInterval(const experiments::Statistics& s, double level) {
  DRAINSIM_CHECK(s.count >= 2);
  DRAINSIM_CHECK(level > 0 && level < 1);
  if (s.sd == 0) return {s.mean, s.mean};
  const double n = static_cast<double>(s.count);
  const boost::math::students_t t(n - 1);
  const double half = boost::math::quantile(t, (1 + level) / 2) * s.sd * std::sqrt(1 + 1 / n);
  return {s.mean - half, s.mean + half};
}

Comparison Compare(const std::string& name, const std::string& unit, std::optional<double> live,
                   std::span<const std::optional<double>> simulated, double tolerance,
                   double level) {
  DRAINSIM_CHECK(tolerance >= 0);
  Comparison c;
  c.name = name;
  c.unit = unit;
  c.live = live;
  c.tolerance = tolerance;
  c.simulated = experiments::Describe(simulated, level);
  const experiments::Statistics& s = c.simulated;
  const std::string undefined_note = std::to_string(s.undefined) + " of " + std::to_string(s.runs) +
                                     " replications never reached it";
  if (s.count == 0) {  // contract (4): every replication undefined
    c.verdict = live ? Verdict::kOutside : Verdict::kInside;
    c.note = live ? "live reached it; no replication did" : "both never";
    return c;
  }
  if (!live) {
    c.verdict = Verdict::kOutside;
    c.note = "live never reached it" + (s.undefined > 0 ? "; " + undefined_note : "");
    return c;
  }
  if (s.undefined > 0) c.note = undefined_note;
  if (s.min == s.max && s.undefined == 0) {  // contract (2)
    c.exact = true;
    c.interval = Interval{s.min, s.max};
    c.verdict = Within(*live, s.min, s.max, tolerance) ? Verdict::kInside : Verdict::kOutside;
    return c;
  }
  if (s.count < 2) {
    c.verdict = Verdict::kNotCompared;
    c.note = "fewer than two replications reached it; " + undefined_note;
    return c;
  }
  c.interval = PredictionInterval(s, level);
  c.interval->low = std::max(0.0, c.interval->low);  // contract (6)
  c.verdict = Within(*live, c.interval->low, c.interval->high, tolerance) ? Verdict::kInside
                                                                          : Verdict::kOutside;
  return c;
}

Comparison CompareCount(const std::string& name, const std::string& unit,
                        std::optional<double> live,
                        std::span<const std::optional<double>> simulated, double level) {
  Comparison c = Compare(name, unit, live, simulated, 0, level);
  if (!c.interval || c.exact || !live) return c;
  c.interval = Interval{std::max(0.0, std::ceil(c.interval->low - 0.5)),
                        std::floor(c.interval->high + 0.5)};
  c.verdict = Within(*live, c.interval->low, c.interval->high, 0) ? Verdict::kInside
                                                                   : Verdict::kOutside;
  return c;
}

Comparison NotCompared(const std::string& name, const std::string& unit, const std::string& why) {
  Comparison c;
  c.name = name;
  c.unit = unit;
  c.verdict = Verdict::kNotCompared;
  c.note = why;
  return c;
}

int ComparisonExitCode(const std::vector<Comparison>& rows) {
  return std::any_of(rows.begin(), rows.end(),
                     [](const Comparison& c) { return c.verdict == Verdict::kOutside; })
             ? 1
             : 0;
}

}  // namespace drainsim::live
