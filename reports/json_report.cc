#include "reports/json_report.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "reports/headline.h"
#include "reports/health.h"
#include "reports/metrics.h"
#include "reports/recovery.h"
#include "sim/base/json_integers.h"

namespace drainsim::reports {

namespace {

using nlohmann::json;

json Optional(const std::optional<double>& value) {
  return value ? json(Fixed(*value)) : json(nullptr);
}

json Distribution(const model::Histogram& h_us, double scale) {
  if (h_us.empty()) return json{{"count", 0}};
  return json{{"count", h_us.count()},
              {"mean", Fixed(*HistogramStat(h_us, Stat::kMean, scale))},
              {"p50", Fixed(*HistogramStat(h_us, Stat::kP50, scale))},
              {"p99", Fixed(*HistogramStat(h_us, Stat::kP99, scale))},
              {"max", Fixed(*HistogramStat(h_us, Stat::kMax, scale))}};
}

json JsonSeries(const model::Results& r) {
  const std::vector<model::Sample>& series = r.series;
  // Column-oriented: compact, and each chart reads one array.
  json columns = json::object();
  for (const SeriesColumn* column_ref : SeriesColumnsOf(r)) {
    const SeriesColumn& column = *column_ref;
    json values = json::array();
    for (const model::Sample& s : series) {
      const double value = column.value(s);
      switch (column.type) {
        case SeriesColumn::Type::kCount:
          values.push_back(static_cast<int64_t>(value));
          break;
        case SeriesColumn::Type::kReal:
          values.push_back(Fixed(value));
          break;
        case SeriesColumn::Type::kFlag:
          values.push_back(value != 0);
          break;
      }
    }
    columns[column.name] = std::move(values);
  }
  return columns;
}

json Bounds(const config::Bounds& b) {
  json bounds = json::object();
  if (b.min) bounds["min"] = *b.min;
  if (b.max) bounds["max"] = *b.max;
  if (b.equals) bounds["equals"] = *b.equals;
  return bounds;
}

// Attempts per first attempt while each fault window was open (docs/METRICS.md).
json FaultWindows(const std::vector<model::FaultWindowAttempts>& windows) {
  json out = json::array();
  for (const model::FaultWindowAttempts& w : windows) {
    out.push_back({{"fault", w.fault},
                   {"type", w.type},
                   {"from_s", Fixed(w.from_s)},
                   {"until_s", Fixed(w.until_s)},
                   {"attempts", w.attempts},
                   {"first_attempts", w.first_attempts},
                   {"retry_amplification", Optional(RetryAmplification(w))}});
  }
  return out;
}

json RecoveryJson(const Recovery& rec) {
  json out = {{"time_to_recover_s", Optional(rec.time_to_recover_s)},
              {"metastable", rec.metastable ? json(*rec.metastable) : json(nullptr)},
              {"baseline_work", Fixed(rec.baseline_work)},
              {"baseline_oldest_age_s", Fixed(rec.baseline_age_s)},
              {"baseline_live_p99_ms", Fixed(rec.baseline_live_p99_ms)}};
  if (!rec.why.empty()) out["why"] = rec.why;
  return out;
}

json Findings(const std::vector<Finding>& findings) {
  json out = json::array();
  for (const Finding& f : findings) out.push_back({{"id", f.id}, {"text", f.text}});
  return out;
}

json Expectations(const std::vector<Verdict>& verdicts) {
  json list = json::array();
  for (const Verdict& v : verdicts) {
    list.push_back({{"expectation", v.text},
                    {"type", v.type},
                    {"metric", v.metric},
                    {"kind", v.kind ? json(*v.kind) : json(nullptr)},
                    {"during", v.during},
                    {"bounds", Bounds(v.bounds)},
                    {"measured", Optional(v.measured)},
                    {"measured_text", v.measured_text},
                    {"passed", v.passed},
                    {"reason", v.reason}});
  }
  return list;
}

}  // namespace

std::string HashHex(const std::string& text) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  char buffer[17];
  std::snprintf(buffer, sizeof(buffer), "%016llx", static_cast<unsigned long long>(hash));
  return buffer;
}

namespace {

json DuplicatesByCause(const model::Results& r) {
  json duplicates_by_cause = json::object();
  for (int c = 0; c < model::kDuplicateCauseCount; ++c) {
    // Written only when it happened: a run without Pub/Sub ordering keys keeps the report it had
    // before the cause existed (byte-identical reports, tools/frozen/check).
    if (static_cast<model::DuplicateCause>(c) == model::DuplicateCause::kOrderingKey &&
        r.duplicates_by_cause[static_cast<size_t>(c)] == 0) {
      continue;
    }
    duplicates_by_cause[model::DuplicateCauseName(static_cast<model::DuplicateCause>(c))] =
        r.duplicates_by_cause[static_cast<size_t>(c)];
  }
  return duplicates_by_cause;
}

json BrokerLostByCause(const model::Results& r) {
  json by_cause = json::object();
  for (int c = 0; c < model::kBrokerLossCauseCount; ++c) {
    // A cause added later is written only when it happened, so that a report of a scenario
    // that cannot have it is the same as before the cause existed.
    if (static_cast<model::BrokerLossCause>(c) == model::BrokerLossCause::kCommittedUnprocessed &&
        r.broker_lost_by_cause[static_cast<size_t>(c)] == 0) {
      continue;
    }
    by_cause[model::BrokerLossCauseName(static_cast<model::BrokerLossCause>(c))] =
        r.broker_lost_by_cause[static_cast<size_t>(c)];
  }
  return by_cause;
}

json FailuresByClass(const model::Results& r) {
  const char* kClassNames[] = {"rate_limited", "transient", "permanent", "unknown"};
  json failures = json::object();
  for (size_t c = 0; c < r.failures_by_class.size(); ++c)
    failures[kClassNames[c]] = r.failures_by_class[c];
  return failures;
}

json Kinds(const model::Results& r) {
  json kinds = json::object();
  for (const auto& [name, k] : r.kinds) {
    kinds[name] = json{{"published", k.published},
                       {"acked", k.acked},
                       {"attempts", k.attempts},
                       {"duplicate_executions", k.duplicate_executions},
                       {"duplicates_suppressed", k.duplicates_suppressed},
                       {"visible_duplicates", k.visible_duplicates},
                       {"message_latency_s", Distribution(k.message_latency_us, 1e6)}};
  }
  return kinds;
}

json JsonDrains(const model::Results& r) {
  json drains = json::array();
  for (const model::DrainResults& d : r.drains) {
    json drain = {{"started_at_s", Optional(d.started_at_s)},
                  {"ended_at_s", Optional(d.ended_at_s)},
                  {"replayed", d.replayed},
                  {"parked", d.parked},
                  {"refilled", d.refilled},
                  {"left", d.left},
                  {"achieved_rate_per_s", Fixed(d.achieved_rate_per_s)},
                  {"last_replay_at_s", Optional(d.last_replay_at_s)},
                  {"replay_rate_per_s", Optional(ReplayRatePerS(d))},
                  {"backlog_cleared_s", Optional(d.backlog_cleared_s)}};
    if (r.has_database) drain["db_utilisation"] = Fixed(d.db_utilisation);
    if (r.has_live_traffic) drain["live_latency_ms"] = Distribution(d.live_latency_us, 1e3);
    drains.push_back(drain);
  }
  return drains;
}

// The DLQ inspector: counts by reason and error, by kind, and the sampled messages.
json Inspector(const model::Results& r) {
  json sample = json::array();
  for (const model::DlqSample& m : r.dlq_sample) {
    sample.push_back({{"id", m.id},
                      {"kind", m.kind},
                      {"key", m.key},
                      {"reason", m.reason},
                      {"error", m.error},
                      {"attempts", m.attempts},
                      {"failures", m.failures},
                      {"replays", m.replays},
                      {"dead_letters", m.dead_letters},
                      {"first_reason", m.first_reason},
                      {"published_at_s", Fixed(m.published_at_s)},
                      {"first_failure_at_s", Fixed(m.first_failure_at_s)},
                      {"dead_lettered_at_s", Fixed(m.dead_lettered_at_s)}});
  }
  return {
      {"by_reason_error", r.dlq_by_reason_error}, {"by_kind", r.dlq_by_kind}, {"sample", sample}};
}

// REQUIRES: r.has_database
json Database(const model::Results& r) {
  json db = {{"utilisation", Fixed(r.db_utilisation)},
             {"queue_max", r.db_queue_max},
             {"timeouts", r.db_timeouts},
             {"refusals", r.db_refusals}};
  if (r.has_live_traffic) {
    db["live"] = {{"queries", r.live_queries},
                  {"errors", r.live_errors},
                  {"latency_ms", Distribution(r.live_latency_us, 1e3)},
                  {"latency_before_drains_ms", Distribution(r.live_latency_before_drains_us, 1e3)},
                  {"latency_during_drains_ms", Distribution(r.live_latency_during_drains_us, 1e3)}};
  }
  return db;
}

// Which report, of which run: version, scenario, seed, the run's extent.
json HeaderJson(const ReportInput& input) {
  const model::Results& r = input.results;
  const ReportContext& context = input.context;
  return {
      {"report_version", kReportVersion},
      {"drainsim_version", context.drainsim_version},
      {"scenario",
       {{"name", r.scenario_name},
        {"path", context.scenario_path},
        {"hash", context.scenario_hash}}},
      {"seed", base::Uint64Json(r.seed)},
      {"fingerprint", Hex16(r.fingerprint)},
      {"run",
       {{"events", r.events},
        {"ended_at_s", Fixed(r.ended_at_s)},
        {"reached_until", r.reached_until},
        {"events_max_reached", r.events_max_reached}}},
  };
}

// What became of the messages and the attempts (docs/METRICS.md).
json CountsJson(const model::Results& r) {
  return {
      {"published", r.published},
      {"acked", r.acked},
      {"parked", r.parked},
      {"expired", r.expired},
      {"dlq_trimmed", r.dlq_trimmed},
      {"retention_expired", r.retention_expired},
      {"rejected", r.rejected},
      {"dlq_duplicates", r.dlq_duplicates},
      {"dlq_end", r.dlq_end},
      {"broker_lost", r.broker_lost},
      {"broker_lost_by_cause", BrokerLostByCause(r)},
      {"lost", r.lost},
      {"not_terminal_end", r.not_terminal_end},
      {"dead_letter_waiting_end", r.dead_letter_waiting_end},
      {"attempts", r.attempts},
      {"attempts_per_success", Fixed(AttemptsPerSuccess(r.attempts, r.acked).value_or(0.0))},
      {"failures_by_class", FailuresByClass(r)},
      {"duplicate_executions", r.duplicate_executions},
      {"duplicates_by_cause", DuplicatesByCause(r)},
      {"duplicates_suppressed", r.duplicates_suppressed},
      {"visible_duplicates", r.visible_duplicates},
      {"human_needed", r.human_needed},
      {"human_needed_by_reason", r.human_needed_by_reason},
      {"refilled", r.refilled},
      {"replays", r.replays},
      {"dlq_inflow", r.dlq_inflow},
      {"dlq_outflow", r.dlq_outflow},
      {"wasted_worker_s", Fixed(r.wasted_worker_s)},
      {"breaker_openings", r.breaker_openings},
      {"downstream",
       {{"calls", r.downstream_calls},
        {"rate_limited_429", r.downstream_429s},
        {"calls_before_retry_after", r.calls_before_retry_after}}},
  };
}

// Latencies, queue figures, alerts and the times to empty, quiet and recover.
json TimesJson(const model::Results& r) {
  return {
      {"message_latency_s", Distribution(r.message_latency_us, 1e6)},
      {"queue_wait_s", Distribution(r.queue_wait_us, 1e6)},
      {"ready_mean", Fixed(r.ready_mean)},
      {"in_system_mean", Fixed(r.in_system_mean)},
      {"kinds", Kinds(r)},
      {"oldest_age_max_s", Fixed(r.oldest_age_max_s)},
      {"age_alert_first_s", Optional(r.age_alert_first_s)},
      {"depth_alert_first_s", Optional(r.depth_alert_first_s)},
      {"dlq_depth_alert_first_s", Optional(r.dlq_depth_alert_first_s)},
      {"time_to_empty_s", Optional(r.time_to_empty_s)},
      {"time_to_quiet_s", Optional(r.time_to_quiet_s)},
      {"backlog_cleared_s", Optional(r.backlog_cleared_s)},
      {"recovery", RecoveryJson(RecoveryOf(r))},
      {"first_attempts", r.first_attempts},
      {"retry_amplification", Optional(r.retry_amplification)},
  };
}

}  // namespace

std::string JsonReport(const ReportInput& input) {
  const model::Results& r = input.results;
  json report = HeaderJson(input);  // an object: keys are written sorted, so parts merge freely
  report.update(CountsJson(r));
  report.update(TimesJson(r));
  report["fault_windows"] = FaultWindows(r.fault_windows);
  report["series"] = JsonSeries(r);
  report["expectations"] = Expectations(input.verdicts);
  report["health_findings"] = Findings(HealthFindings(r, input.verdicts));
  report["drains"] = JsonDrains(r);
  report["inspector"] = Inspector(r);
  if (r.has_database) report["database"] = Database(r);
  if (r.message_groups > 0) {  // written only with broker.message_groups (docs/METRICS.md)
    report["message_groups"] = r.message_groups;
    report["ordering_violations"] = r.ordering_violations;
    report["group_hold_max_s"] = Fixed(r.group_hold_max_s);
  }
  if (r.partitions > 0) {  // written only with broker.partitions (docs/METRICS.md)
    report["partitions"] = r.partitions;
    report["rebalances"] = r.rebalances;
    report["ordering_violations"] = r.ordering_violations;
    report["group_hold_max_s"] = Fixed(r.group_hold_max_s);
  }
  if (r.lambda_esm) {  // written only with workers.lambda_esm (docs/METRICS.md)
    report["throttles"] = r.throttles;
    report["dead_lettered_unprocessed"] = r.dead_lettered_unprocessed;
    report["esm_pollers_end"] = r.esm_pollers_end;
  }
  if (r.autoscale) {  // written only with workers.autoscale (docs/METRICS.md)
    report["autoscale"] = {
        {"scale_ups", r.autoscale_scale_ups},      {"scale_downs", r.autoscale_scale_downs},
        {"workers_max", r.autoscale_workers_max},  {"workers_end", r.autoscale_workers_end},
        {"worker_s", Fixed(r.autoscale_worker_s)}, {"prefetched_returned", r.autoscale_returned},
        {"attempts_killed", r.autoscale_kills}};
  }
  return report.dump(2) + "\n";
}

}  // namespace drainsim::reports
