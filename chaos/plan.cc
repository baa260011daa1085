#include "chaos/plan.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <variant>

#include "chaos/fault_draw.h"
#include "sim/model/publish_spacing.h"

namespace drainsim::chaos {

namespace {

using config::Scenario;
using engine::Duration;
using engine::Instant;

// The loader's limit: at most 1000 producers (and run.until_s at most 100 days, kRunMicrosMax).
constexpr size_t kProducersMax = 1000;

// How many publishes of a stream spaced at `rate_per_s` from `start` fall before `end`: the
// model's own spacing (sim/model/publish_spacing.h).
int64_t PublishesBefore(Instant start, int64_t count, double rate_per_s, Instant end) {
  const auto spaced_before_end = [&](int64_t k) {
    return model::Spaced(start, k, rate_per_s) < end;
  };
  int64_t low = 0;  // publish `low` is before end (start < end)
  int64_t high = count;
  while (high - low > 1) {
    const int64_t mid = low + (high - low) / 2;
    if (spaced_before_end(mid)) {
      low = mid;
    } else {
      high = mid;
    }
  }
  return low + 1;
}

// The firings of a trigger at `at` repeated `every` that fall before `end`.
std::vector<Instant> FiringsBefore(Instant at, const std::optional<Duration>& every, Instant end,
                                   size_t limit) {
  std::vector<Instant> firings;
  for (Instant t = at; t < end && firings.size() <= limit; t = t + *every) {
    firings.push_back(t);
    if (!every) break;
  }
  return firings;
}

std::string Numbered(const char* what, size_t index) {
  return std::string(what) + " " + std::to_string(index);
}

// Clips the producers to [0, safety_end). Returns an error, or "".
std::string ClipProducers(Scenario& s, Instant safety_end, std::vector<std::string>& notes) {
  std::vector<config::Producer> clipped;
  for (size_t i = 0; i < s.producers.size(); ++i) {
    const config::Producer& p = s.producers[i];
    const size_t before = clipped.size();
    auto add = [&](config::Producer::Schedule schedule) {
      config::Producer copy = p;
      copy.schedule = std::move(schedule);
      clipped.push_back(std::move(copy));
    };
    bool changed = false;
    if (const auto* c = std::get_if<config::ConstantSchedule>(&p.schedule)) {
      config::ConstantSchedule out = *c;
      changed = out.window.until > safety_end;
      out.window.until = std::min(out.window.until, safety_end);
      if (out.window.from < out.window.until) add(out);
    } else if (const auto* q = std::get_if<config::PoissonSchedule>(&p.schedule)) {
      config::PoissonSchedule out = *q;
      changed = out.window.until > safety_end;
      out.window.until = std::min(out.window.until, safety_end);
      if (out.window.from < out.window.until) add(out);
    } else if (const auto* b = std::get_if<config::BurstSchedule>(&p.schedule)) {
      // A repeating trigger cannot be told to stop, so each firing becomes its own producer.
      changed = b->every.has_value();
      for (Instant t : FiringsBefore(b->at, b->every, safety_end, kProducersMax)) {
        add(config::BurstSchedule{t, b->count, std::nullopt});
      }
    } else {
      const auto& f = std::get<config::FanoutSchedule>(p.schedule);
      changed = f.every.has_value();
      for (Instant t : FiringsBefore(f.at, f.every, safety_end, kProducersMax)) {
        int64_t count = f.count;
        if (f.publish_rate_per_s) {
          count = PublishesBefore(t, f.count, *f.publish_rate_per_s, safety_end);
          changed = changed || count < f.count;
        }
        add(config::FanoutSchedule{t, count, f.publish_rate_per_s, std::nullopt});
      }
    }
    if (clipped.size() == before) {
      notes.push_back(Numbered("producer", i) + " starts after the safety phase: dropped");
    } else if (changed) {
      notes.push_back(Numbered("producer", i) + " clipped to the safety phase");
    }
    if (clipped.size() > kProducersMax) {
      return "the producers' repeated firings in the safety phase come to more than " +
             std::to_string(kProducersMax) + " producers; use a shorter --safety-s";
    }
  }
  s.producers = std::move(clipped);
  if (s.producers.empty() && s.backlog.empty()) {
    return "nothing is published in the safety phase [0, " +
           FormatSeconds(safety_end - Instant::Zero()) + ") s; use a longer --safety-s";
  }
  return "";
}

void KeepDrainsInSafetyPhase(Scenario& s, Instant safety_end, std::vector<std::string>& notes) {
  std::vector<config::Drain> kept;
  for (size_t i = 0; i < s.drains.size(); ++i) {
    const config::Drain& d = s.drains[i];
    if (d.start_after_fix) {
      notes.push_back(Numbered("drain", i) +
                      " starts after a bug fix, and variants have no bug fault: dropped");
    } else if (d.start_at && *d.start_at >= safety_end) {
      notes.push_back(Numbered("drain", i) + " starts after the safety phase: dropped");
    } else {
      kept.push_back(d);
    }
  }
  s.drains = std::move(kept);
}

}  // namespace

std::string FormatSeconds(Duration span) {
  const int64_t us = span.micros();
  // |INT64_MIN| does not fit an int64; no span the swarm formats comes near it.
  const uint64_t magnitude = us < 0 ? 0 - static_cast<uint64_t>(us) : static_cast<uint64_t>(us);
  char text[48];
  std::snprintf(text, sizeof text, "%s%" PRIu64 ".%06" PRIu64, us < 0 ? "-" : "",
                magnitude / 1'000'000, magnitude % 1'000'000);
  std::string out = text;
  while (out.back() == '0') out.pop_back();
  if (out.back() == '.') out.pop_back();
  return out;
}

PlanOrError MakeSwarmPlan(const Scenario& base, const SwarmParams& params) {
  PlanOrError out;
  const Duration safety = params.safety.value_or(base.run.until - Instant::Zero());
  Duration liveness = params.liveness.value_or(DefaultLiveness(base));
  if (!params.liveness && safety.micros() > 0 && safety.micros() < kRunMicrosMax &&
      liveness.micros() > kRunMicrosMax - safety.micros()) {
    // The default bound is generous (a broker that counts to 1,000 at a 30 s timeout, a
    // Sidekiq timeout of 100 days): what is left of the 100-day run limit has to do.
    liveness = Duration::Micros(kRunMicrosMax - safety.micros());
  }
  if (safety <= Duration::Zero()) {
    out.error = "the safety phase must be longer than 0 s (got " + FormatSeconds(safety) + ")";
    return out;
  }
  if (safety < Duration::Millis(1)) {
    out.error = "the safety phase must be at least 0.001 s (got " + FormatSeconds(safety) + ")";
    return out;
  }
  if (liveness <= Duration::Zero()) {
    out.error = "the liveness bound must be longer than 0 s (got " + FormatSeconds(liveness) + ")";
    return out;
  }
  if (safety.micros() > kRunMicrosMax || liveness.micros() > kRunMicrosMax - safety.micros()) {
    out.error = "safety phase plus liveness bound must be at most 100 days (got " +
                FormatSeconds(safety) + " s + " + FormatSeconds(liveness) + " s)";
    return out;
  }
  SwarmPlan plan;
  plan.safety_end = Instant::Zero() + safety;
  plan.liveness = liveness;
  plan.liveness_given = params.liveness.has_value();
  plan.vary_policies = params.vary_policies;
  Scenario& s = plan.skeleton;
  s = base;
  s.faults.clear();
  if (!s.expect.empty()) {
    plan.notes.push_back("expectations dropped: the swarm judges a run by its own checks");
    s.expect.clear();
  }
  for (const config::BacklogEntry& entry : s.backlog) {
    if (entry.due_in && Instant::Zero() + *entry.due_in >= plan.safety_end) {
      out.error = "a delayed backlog entry is due at " + FormatSeconds(*entry.due_in) +
                  " s, after the safety phase; use a longer --safety-s";
      return out;
    }
  }
  if (std::string error = ClipProducers(s, plan.safety_end, plan.notes); !error.empty()) {
    out.error = std::move(error);
    return out;
  }
  KeepDrainsInSafetyPhase(s, plan.safety_end, plan.notes);
  s.run.until = plan.safety_end + liveness;
  out.plan = std::move(plan);
  return out;
}

}  // namespace drainsim::chaos
