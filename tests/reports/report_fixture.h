// Hand-made Results for the report tests: every figure set to a known value, so a test can say
// exactly what an expectation should measure.
#pragma once

#include <string>
#include <vector>

#include "reports/report_input.h"
#include "sim/config/expect.h"
#include "sim/model/results.h"

namespace drainsim::testing {

// A run of 100 s sampled every 10 s (11 samples, t = 0..100). A drain is active at the samples
// t = 40, 50, 60; a fault window at t = 20..30. dlq_depth is 0 except 5 at t = 30 and 40;
// live_p99_ms is 10 + t / 10 except 0 (no live query) at t = 70; dlq_inflow_per_s is 0.5 at
// t = 30 (5 dead-letterings in that interval) and 0.2 at t = 50 (2).
inline model::Results FixtureResults() {
  model::Results r;
  r.scenario_name = "fixture";
  r.seed = 42;
  r.fingerprint = 0x0123456789abcdefULL;
  r.events = 1000;
  r.ended_at_s = 100;
  r.reached_until = true;
  r.published = 200;
  r.acked = 190;
  r.parked = 4;
  r.dlq_end = 6;
  r.human_needed = 10;
  r.human_needed_by_reason = {{"dlq:max_attempts", 6}, {"parked:drain", 4}};
  r.attempts = 250;
  r.successes = 190;
  r.duplicate_executions = 3;
  r.duplicates_suppressed = 2;
  r.visible_duplicates = 1;
  r.refilled = 1;
  r.replays = 7;
  r.dlq_inflow = 7;
  r.dlq_outflow = 7;
  r.wasted_worker_s = 12.5;
  for (int v : {100000, 200000, 300000}) r.message_latency_us.Record(v);
  for (int v : {1000, 2000}) r.queue_wait_us.Record(v);
  r.oldest_age_max_s = 32.5;
  r.age_alert_first_s = 30;
  r.depth_alert_first_s = 20;
  r.dlq_depth_alert_first_s = 30;
  r.time_to_empty_s = 24.95;
  r.time_to_quiet_s = 90;
  r.backlog_cleared_s = 12;
  r.first_attempts = 200;
  r.retry_amplification = 1.25;  // attempts / first_attempts
  r.has_database = true;
  r.db_utilisation = 0.25;
  r.db_queue_max = 7;
  r.db_timeouts = 1;
  r.has_live_traffic = true;
  for (int v : {4000, 5000, 300000}) r.live_latency_us.Record(v);
  for (int v : {4000, 33000}) r.live_latency_during_drains_us.Record(v);
  r.live_queries = 3;
  r.live_errors = 1;

  model::KindResults purge;
  purge.published = 150;
  purge.acked = 145;
  purge.attempts = 200;
  purge.duplicates_suppressed = 2;
  purge.message_latency_us.Record(100000);
  model::KindResults email;
  email.published = 50;
  email.acked = 45;
  email.attempts = 50;
  email.duplicate_executions = 3;
  email.visible_duplicates = 1;
  for (int v : {200000, 300000}) email.message_latency_us.Record(v);
  r.kinds["email"] = std::move(email);
  r.kinds["purge"] = std::move(purge);

  model::DrainResults drain;
  drain.started_at_s = 35;
  drain.ended_at_s = 65;
  drain.replayed = 7;
  drain.last_replay_at_s = 49;
  drain.parked = 4;
  drain.refilled = 1;
  drain.db_utilisation = 0.5;
  drain.achieved_rate_per_s = 7.0 / 30;
  drain.live_latency_us.Record(33000);
  r.drains.push_back(std::move(drain));
  r.dlq_by_reason_error = {{"max_attempts/transient", 6}};
  r.dlq_by_kind = {{"purge", 6}};

  for (int i = 0; i <= 10; ++i) {
    model::Sample s;
    s.t_s = 10.0 * i;
    s.depth = i;
    s.dlq_depth = (i == 3 || i == 4) ? 5 : 0;
    s.oldest_age_s = 3.25 * i;
    s.live_p99_ms = (i == 0 || i == 7) ? 0 : 10 + i;
    s.live_p50_ms = s.live_p99_ms / 2;
    s.dlq_inflow_per_s = i == 3 ? 0.5 : i == 5 ? 0.2 : 0;
    s.db_utilisation = i == 0 ? 0 : 0.1 * i;
    s.workers_busy = 2;
    s.drain_active = i >= 4 && i <= 6;
    s.fault_active = i >= 2 && i <= 3;
    r.series.push_back(s);
  }
  return r;
}

inline config::Bounds Max(double v) { return config::Bounds{std::nullopt, v, std::nullopt}; }
inline config::Bounds Min(double v) { return config::Bounds{v, std::nullopt, std::nullopt}; }
inline config::Bounds Equals(double v) { return config::Bounds{std::nullopt, std::nullopt, v}; }
inline config::Bounds Between(double lo, double hi) { return config::Bounds{lo, hi, std::nullopt}; }

inline config::Expectation Metric(config::RunMetric metric, config::Bounds bounds,
                                  config::During during = config::During::kRun,
                                  std::optional<std::string> kind = std::nullopt) {
  config::MetricExpectation e;
  e.metric = metric;
  e.bounds = bounds;
  e.during = during;
  e.kind = std::move(kind);
  return e;
}

inline config::Expectation Property(config::Quantifier q, config::SeriesMetric metric,
                                    config::Bounds bounds,
                                    config::During during = config::During::kRun) {
  config::PropertyExpectation e;
  e.quantifier = q;
  e.metric = metric;
  e.bounds = bounds;
  e.during = during;
  return e;
}

}  // namespace drainsim::testing
