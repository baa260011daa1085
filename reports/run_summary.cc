#include "reports/run_summary.h"

#include <cstdarg>
#include <cstdio>

#include "reports/headline.h"
#include "reports/recovery.h"

namespace drainsim::reports {

namespace {

void SummaryAppend(std::string& out, const char* format, ...) {
  char buffer[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  out += buffer;
}

std::string SummarySeconds(const std::optional<double>& value) {
  if (!value) return "never";
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.1f s", *value);
  return buffer;
}

// What the run was and where its messages ended: identity, length, the terminal states, then
// attempts, retry amplification and recovery.
void AppendRun(std::string& out, const model::Results& r, const ReportContext& context) {
  SummaryAppend(out, "scenario %s  seed %llu  fingerprint %016llx\n", r.scenario_name.c_str(),
                static_cast<unsigned long long>(r.seed),
                static_cast<unsigned long long>(r.fingerprint));
  SummaryAppend(out, "drainsim %s; scenario hash %s\n", context.drainsim_version.c_str(),
                context.scenario_hash.c_str());
  SummaryAppend(out, "simulated %.1f s in %lld events%s\n", r.ended_at_s,
                static_cast<long long>(r.events),
                r.events_max_reached ? " (STOPPED at run.events_max: figures are partial)"
                : r.reached_until    ? " (reached run.until_s)"
                                     : " (nothing left to happen)");
  SummaryAppend(out,
                "messages: %lld published, %lld acked, %lld parked, %lld in DLQ, %lld expired, "
                "%lld unfinished, %lld lost\n",
                static_cast<long long>(r.published), static_cast<long long>(r.acked),
                static_cast<long long>(r.parked), static_cast<long long>(r.dlq_end),
                static_cast<long long>(r.expired), static_cast<long long>(r.not_terminal_end),
                static_cast<long long>(r.lost));
  if (r.dlq_trimmed > 0 || r.retention_expired > 0) {
    SummaryAppend(
        out,
        "expired: %lld trimmed from a full DLQ (broker.dlq_max_length), %lld past main-queue "
        "retention (broker.retention_s)\n",
        static_cast<long long>(r.dlq_trimmed), static_cast<long long>(r.retention_expired));
  }
  if (r.dlq_duplicates > 0) {
    SummaryAppend(
        out,
        "dead-lettered twice: %lld second copies (best-effort dead-lettering), counted as "
        "published\n",
        static_cast<long long>(r.dlq_duplicates));
  }
  if (r.rejected > 0) {
    SummaryAppend(out,
                  "rejected: %lld publishes refused by a full queue (overflow reject_publish)\n",
                  static_cast<long long>(r.rejected));
  }
  if (r.broker_lost > 0) {
    SummaryAppend(out, "lost by the broker: %lld (%s)\n", static_cast<long long>(r.broker_lost),
                  BrokerLossCauses(r).c_str());
  }
  if (r.partitions > 0) {
    SummaryAppend(out,
                  "partitions: %lld; %lld rebalances; longest hold of a partition %.1f s; %lld "
                  "ordering violations (acked after a later record of the partition)\n",
                  static_cast<long long>(r.partitions), static_cast<long long>(r.rebalances),
                  r.group_hold_max_s, static_cast<long long>(r.ordering_violations));
  }
  if (r.lambda_esm) {
    SummaryAppend(
        out,
        "lambda esm: %lld throttled receives; %lld dead-lettered without being processed; "
        "%lld pollers at the end\n",
        static_cast<long long>(r.throttles), static_cast<long long>(r.dead_lettered_unprocessed),
        static_cast<long long>(r.esm_pollers_end));
  }
  if (r.autoscale) {
    SummaryAppend(out,
                  "autoscale: %lld scale-ups, %lld scale-downs; at most %lld workers, %lld at the "
                  "end; %.1f worker-seconds; %lld prefetched returned, %lld attempts killed\n",
                  static_cast<long long>(r.autoscale_scale_ups),
                  static_cast<long long>(r.autoscale_scale_downs),
                  static_cast<long long>(r.autoscale_workers_max),
                  static_cast<long long>(r.autoscale_workers_end), r.autoscale_worker_s,
                  static_cast<long long>(r.autoscale_returned),
                  static_cast<long long>(r.autoscale_kills));
  }
  if (r.message_groups > 0) {
    SummaryAppend(out,
                  "message groups: %lld; longest hold of a group %.1f s; %lld ordering violations "
                  "(acked after a later message of the group)\n",
                  static_cast<long long>(r.message_groups), r.group_hold_max_s,
                  static_cast<long long>(r.ordering_violations));
  }
  if (r.dead_letter_waiting_end > 0) {
    SummaryAppend(out,
                  "waiting for DLQ room: %lld of the unfinished, refused by a full DLQ and kept "
                  "(dead_letter_strategy at_least_once)\n",
                  static_cast<long long>(r.dead_letter_waiting_end));
  }
  SummaryAppend(out, "attempts: %lld (%.2f per success); wasted worker time %.1f s\n",
                static_cast<long long>(r.attempts),
                r.acked == 0 ? 0.0 : static_cast<double>(r.attempts) / static_cast<double>(r.acked),
                r.wasted_worker_s);
  SummaryAppend(out, "retry amplification: %s\n", RetryAmplificationText(r).c_str());
  const Recovery recovery = RecoveryOf(r);
  if (!r.fault_windows.empty()) {
    SummaryAppend(out, "recovery after faults: %s\n", RecoveryText(recovery, r).c_str());
  }
}

// What the recovery cost and how long it took: duplicates, human work, latency, age and alerts,
// time to empty and to quiet, the downstream API.
void AppendCosts(std::string& out, const model::Results& r) {
  SummaryAppend(out, "duplicates: %lld executions (%lld visible), %lld suppressed by claim rows\n",
                static_cast<long long>(r.duplicate_executions),
                static_cast<long long>(r.visible_duplicates),
                static_cast<long long>(r.duplicates_suppressed));
  SummaryAppend(out, "human needed: %lld", static_cast<long long>(r.human_needed));
  for (const auto& [reason, count] : r.human_needed_by_reason) {
    SummaryAppend(out, "  %s=%lld", reason.c_str(), static_cast<long long>(count));
  }
  out += "\n";
  if (!r.message_latency_us.empty()) {
    SummaryAppend(out, "message latency: mean %.3f s, p50 %.3f s, p99 %.3f s, max %.3f s\n",
                  r.message_latency_us.Mean() / 1e6,
                  static_cast<double>(r.message_latency_us.Quantile(0.5)) / 1e6,
                  static_cast<double>(r.message_latency_us.Quantile(0.99)) / 1e6,
                  static_cast<double>(r.message_latency_us.max()) / 1e6);
  }
  SummaryAppend(out, "oldest message age: max %.1f s", r.oldest_age_max_s);
  for (const AlertPhrase& alert : AlertPhrases(r)) {
    SummaryAppend(out, "; %s alert %s", alert.name.c_str(), alert.value.c_str());
  }
  out += "\n";
  const std::string detail = TimeToEmptyDetail(r);
  SummaryAppend(out, "time to empty: %s%s%s; time to quiet: %s\n", TimeToEmptyValue(r).c_str(),
                detail.empty() ? "" : " — ", detail.c_str(),
                SummarySeconds(r.time_to_quiet_s).c_str());
  if (r.downstream_calls > 0) {
    SummaryAppend(
        out, "downstream: %lld calls, %lld answered 429, %lld made before their Retry-After\n",
        static_cast<long long>(r.downstream_calls), static_cast<long long>(r.downstream_429s),
        static_cast<long long>(r.calls_before_retry_after));
  }
}

// The drains, the database and the live traffic, for the scenarios that have them.
void AppendParts(std::string& out, const model::Results& r) {
  if (!r.drains.empty()) {
    for (size_t d = 0; d < r.drains.size(); ++d) {
      const model::DrainResults& drain = r.drains[d];
      if (!drain.started_at_s) {
        SummaryAppend(out, "drain %zu: never started\n", d);
        continue;
      }
      SummaryAppend(out, "drain %zu: from %.1f s, %s, %lld refilled, %lld parked, %lld left\n", d,
                    *drain.started_at_s, DrainReplayPhrase(drain).c_str(),
                    static_cast<long long>(drain.refilled), static_cast<long long>(drain.parked),
                    static_cast<long long>(drain.left));
    }
  }
  if (r.has_database) {
    SummaryAppend(out, "database: utilisation %.1f%%, queue max %lld, %lld timeouts\n",
                  100 * r.db_utilisation, static_cast<long long>(r.db_queue_max),
                  static_cast<long long>(r.db_timeouts));
  }
  if (r.has_live_traffic && !r.live_latency_us.empty()) {
    SummaryAppend(out, "live traffic: %lld queries, p50 %.1f ms, p99 %.1f ms, %lld errors\n",
                  static_cast<long long>(r.live_queries),
                  static_cast<double>(r.live_latency_us.Quantile(0.5)) / 1e3,
                  static_cast<double>(r.live_latency_us.Quantile(0.99)) / 1e3,
                  static_cast<long long>(r.live_errors));
  }
}

}  // namespace

std::string RunSummary(const model::Results& r, const ReportContext& context) {
  std::string out;
  AppendRun(out, r, context);
  AppendCosts(out, r);
  AppendParts(out, r);
  return out;
}

}  // namespace drainsim::reports
