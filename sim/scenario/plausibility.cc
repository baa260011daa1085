#include "sim/scenario/plausibility.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>

#include "sim/config/engine_distribution.h"

namespace drainsim::scenario {

namespace {

constexpr double kP99 = 0.99;

// Three significant digits: computed figures, unlike the user's own values.
std::string Figure(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

// The independent terms an attempt of `handler` sums, in milliseconds, each with how often it
// is drawn. A database operation lasts at most the database's timeout (wait + service).
struct Term {
  engine::Distribution distribution;
  int64_t times;
  std::optional<double> cap_ms;
};

std::vector<Term> AttemptTerms(const config::Scenario& s, const config::Handler& handler) {
  std::vector<Term> terms;
  terms.push_back({config::ToEngineDistribution(handler.validate_ms), 1, std::nullopt});
  terms.push_back({config::ToEngineDistribution(handler.cpu_ms), 1, std::nullopt});
  if (handler.db_ops > 0 && handler.db_op_ms && s.database) {
    terms.push_back({config::ToEngineDistribution(*handler.db_op_ms), handler.db_ops,
                     s.database->timeout.seconds() * 1e3});
  }
  if (handler.downstream_calls > 0 && s.downstream) {
    terms.push_back({config::ToEngineDistribution(s.downstream->call_ms), handler.downstream_calls,
                     std::nullopt});
  }
  return terms;
}

double CappedQuantile(const Term& t, double p) {
  const double q = t.distribution.Quantile(p);
  return t.cap_ms ? std::min(q, *t.cap_ms) : q;
}

// A lower bound of the p99 of an attempt's time at no load, in ms. For independent terms
// X_1..X_n, P(sum > sum of q_i) >= prod P(X_i > q_i); with every q_i the quantile at
// 1 - 0.01^(1/n) that product is 0.01, so the sum of those quantiles is <= the p99. Any single
// term's p99 is a bound too (the other terms are >= 0); the larger of the two is returned.
double AttemptP99LowerBoundMs(const std::vector<Term>& terms) {
  int64_t n = 0;
  for (const Term& t : terms) n += t.times;
  const double p_each = 1 - std::pow(1 - kP99, 1.0 / static_cast<double>(n));
  double sum = 0;
  double largest = 0;
  for (const Term& t : terms) {
    sum += static_cast<double>(t.times) * CappedQuantile(t, p_each);
    largest = std::max(largest, CappedQuantile(t, kP99));
  }
  return std::max(sum, largest);
}

double AttemptMeanMs(const std::vector<Term>& terms) {
  double mean = 0;
  for (const Term& t : terms) {
    const double m = t.cap_ms ? std::min(t.distribution.Mean(), *t.cap_ms) : t.distribution.Mean();
    mean += static_cast<double>(t.times) * m;
  }
  return mean;
}

void CheckDatabaseTimeout(const config::Scenario& s, std::vector<Problem>& out) {
  if (!s.database) return;
  const double timeout_ms = s.database->timeout.seconds() * 1e3;
  const std::string* worst_kind = nullptr;
  double worst_p99_ms = 0;
  for (const auto& [name, kind] : s.kinds) {
    if (kind.handler.db_ops == 0 || !kind.handler.db_op_ms) continue;
    const double p99_ms = config::ToEngineDistribution(*kind.handler.db_op_ms).Quantile(kP99);
    if (p99_ms > worst_p99_ms) {
      worst_p99_ms = p99_ms;
      worst_kind = &name;
    }
  }
  if (!worst_kind || timeout_ms >= worst_p99_ms) return;
  out.push_back({"/database/timeout_ms",
                 Figure(timeout_ms) + " ms is below the p99 of kinds/" + *worst_kind +
                     "/handler/db_op_ms (" + Figure(worst_p99_ms) +
                     " ms on an idle database): more than 1% of its queries time out before any "
                     "overload. Is it in milliseconds?"});
}

void CheckVisibilityTimeout(const config::Scenario& s, std::vector<Problem>& out) {
  const double visibility_ms = s.broker.visibility_timeout.seconds() * 1e3;
  const std::string* worst_kind = nullptr;
  double worst_ms = 0;
  for (const auto& [name, kind] : s.kinds) {
    const double p99_ms = AttemptP99LowerBoundMs(AttemptTerms(s, kind.handler));
    if (p99_ms > worst_ms) {
      worst_ms = p99_ms;
      worst_kind = &name;
    }
  }
  if (!worst_kind || visibility_ms >= worst_ms) return;
  out.push_back({"/broker/visibility_timeout_s",
                 Figure(visibility_ms / 1e3) +
                     " s is shorter than the p99 of an attempt of kinds/" + *worst_kind +
                     " (at least " + Figure(worst_ms / 1e3) +
                     " s on an idle system): more than 1% of its attempts are delivered again "
                     "while still running, each a duplicate execution"});
}

struct Capacity {
  double attempts_per_s = std::numeric_limits<double>::infinity();
  std::string why;
};

// The most attempts per second the system can ever finish: per kind, the workers' slots over
// the mean attempt, and the database's connections over the database time per attempt; the
// fastest kind's figure bounds any mix.
Capacity MaxCapacity(const config::Scenario& s) {
  const double slots = static_cast<double>(s.workers.count * s.workers.concurrency);
  Capacity best{0, ""};
  for (const auto& [name, kind] : s.kinds) {
    const std::vector<Term> terms = AttemptTerms(s, kind.handler);
    const double mean_ms = AttemptMeanMs(terms);
    if (mean_ms <= 0) return {};
    Capacity kind_capacity{slots / (mean_ms / 1e3),
                           Figure(slots) + " worker slots over the mean attempt of kinds/" + name +
                               " (" + Figure(mean_ms) + " ms)"};
    if (kind.handler.db_ops > 0 && s.database && terms.size() > 2) {
      const double db_ms = AttemptMeanMs({terms[2]});
      const double db_rate = static_cast<double>(s.database->connections) / (db_ms / 1e3);
      if (db_ms > 0 && db_rate < kind_capacity.attempts_per_s) {
        kind_capacity = {db_rate, std::to_string(s.database->connections) +
                                      " database connections over the database time of an "
                                      "attempt of kinds/" +
                                      name + " (" + Figure(db_ms) + " ms)"};
      }
    }
    if (kind_capacity.attempts_per_s > best.attempts_per_s) best = kind_capacity;
  }
  return best;
}

void CheckDrainRatePlausibility(const config::Scenario& s, std::vector<Problem>& out) {
  if (s.drains.empty()) return;
  const Capacity capacity = MaxCapacity(s);
  if (!std::isfinite(capacity.attempts_per_s)) return;
  for (size_t i = 0; i < s.drains.size(); ++i) {
    std::optional<double> rate;
    std::string key = "rate_per_s";
    if (const auto* drip = std::get_if<config::DripDrain>(&s.drains[i].strategy)) {
      rate = drip->rate_per_s;
    } else if (const auto* bounded = std::get_if<config::BoundedDrain>(&s.drains[i].strategy)) {
      rate = bounded->rate_per_s;
    } else if (const auto* adaptive = std::get_if<config::AdaptiveDrain>(&s.drains[i].strategy)) {
      rate = adaptive->rate_max_per_s;
      key = "rate_max_per_s";
    }
    if (!rate || *rate <= capacity.attempts_per_s) continue;
    out.push_back({"/drains/" + std::to_string(i) + "/" + key,
                   Figure(*rate) +
                       " messages/s is faster than the system can ever consume: at "
                       "most " +
                       Figure(capacity.attempts_per_s) + " attempts/s (" + capacity.why +
                       "), so the replayed messages pile up in the main queue"});
  }
}

}  // namespace

std::vector<Problem> PlausibilityWarnings(const config::Scenario& s) {
  std::vector<Problem> out;
  CheckDatabaseTimeout(s, out);
  CheckVisibilityTimeout(s, out);
  CheckDrainRatePlausibility(s, out);
  return out;
}

}  // namespace drainsim::scenario
