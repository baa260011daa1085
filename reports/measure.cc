#include "reports/measure.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <vector>

#include "reports/metrics.h"
#include "reports/recovery.h"
#include "sim/base/check.h"
#include "sim/config/enum_names.h"

namespace drainsim::reports {

namespace {

using config::During;
using config::RunMetric;
using Status = Measurement::Status;

Measurement Value(double value, std::string note = "") {
  return Measurement{Status::kValue, Fixed(value), std::move(note)};
}
Measurement Counted(int64_t value) { return Value(static_cast<double>(value)); }
Measurement Undefined(std::string why) {
  return Measurement{Status::kUndefined, 0, std::move(why)};
}
Measurement NotMeasured(std::string why) {
  return Measurement{Status::kNotMeasured, 0, std::move(why)};
}
Measurement Maybe(const std::optional<double>& value, std::string why_not) {
  return value ? Value(*value) : Undefined(std::move(why_not));
}

std::string Name(RunMetric metric) { return std::string(config::NameOf(metric)); }
std::string WindowName(During during) { return std::string(config::NameOf(during)); }

// The histogram statistic a latency metric reads, and its scale to the metric's unit.
std::optional<Stat> LatencyStat(RunMetric metric) {
  switch (metric) {
    case RunMetric::kMessageLatencyMean:
    case RunMetric::kQueueWaitMean:
      return Stat::kMean;
    case RunMetric::kMessageLatencyP50:
    case RunMetric::kQueueWaitP50:
    case RunMetric::kLiveP50:
      return Stat::kP50;
    case RunMetric::kMessageLatencyP99:
    case RunMetric::kQueueWaitP99:
    case RunMetric::kLiveP99:
      return Stat::kP99;
    case RunMetric::kMessageLatencyMax:
      return Stat::kMax;
    default:
      return std::nullopt;
  }
}

// The run's plain counts; nullopt for a metric that is not one.
std::optional<int64_t> RunCount(const model::Results& r, RunMetric metric) {
  switch (metric) {
    case RunMetric::kDuplicateExecutions:
      return r.duplicate_executions;
    case RunMetric::kDuplicatesSuppressed:
      return r.duplicates_suppressed;
    case RunMetric::kVisibleDuplicates:
      return r.visible_duplicates;
    case RunMetric::kHumanNeeded:
      return r.human_needed;
    case RunMetric::kParked:
      return r.parked;
    case RunMetric::kLost:
      return r.lost;
    case RunMetric::kBrokerLost:
      return r.broker_lost;
    case RunMetric::kOrderingViolations:
      return r.ordering_violations;
    case RunMetric::kRebalances:
      return r.rebalances;
    case RunMetric::kThrottles:
      return r.throttles;
    case RunMetric::kDeadLetteredUnprocessed:
      return r.dead_lettered_unprocessed;
    case RunMetric::kExpired:
      return r.expired;
    case RunMetric::kRefilled:
      return r.refilled;
    case RunMetric::kPublished:
      return r.published;
    case RunMetric::kAcked:
      return r.acked;
    case RunMetric::kAttempts:
      return r.attempts;
    case RunMetric::kDlqInflow:
      return r.dlq_inflow;
    case RunMetric::kDlqOutflow:
      return r.dlq_outflow;
    default:
      return std::nullopt;
  }
}

// The whole run, all kinds: every RunMetric is a figure of Results.
Measurement MeasureRun(const model::Results& r, RunMetric metric) {
  if (const std::optional<int64_t> n = RunCount(r, metric)) return Counted(*n);
  const std::optional<Stat> stat = LatencyStat(metric);
  switch (metric) {
    case RunMetric::kTimeToEmpty:
      return Maybe(r.time_to_empty_s,
                   "never reached: replayable messages were left in the DLQ, or replays had not "
                   "settled, when the run ended");
    case RunMetric::kTimeToQuiet:
      return Maybe(r.time_to_quiet_s,
                   "never reached: the queues were not empty, or work was in flight, at the end");
    case RunMetric::kAttemptsPerSuccess:
      return Maybe(AttemptsPerSuccess(r.attempts, r.acked), "no message was acked");
    case RunMetric::kWastedWorker:
      return Value(r.wasted_worker_s);
    case RunMetric::kOldestAge:
      return Value(r.oldest_age_max_s);
    case RunMetric::kMessageLatencyMean:
    case RunMetric::kMessageLatencyP50:
    case RunMetric::kMessageLatencyP99:
    case RunMetric::kMessageLatencyMax:
      return Maybe(HistogramStat(r.message_latency_us, *stat, 1e6), "no message was acked");
    case RunMetric::kQueueWaitMean:
    case RunMetric::kQueueWaitP50:
    case RunMetric::kQueueWaitP99:
      return Maybe(HistogramStat(r.queue_wait_us, *stat, 1e6), "no message was delivered");
    case RunMetric::kDbUtilisation:
    case RunMetric::kDbTimeouts:
    case RunMetric::kDbQueueMax:
      if (!r.has_database) return NotMeasured("the scenario has no database");
      if (metric == RunMetric::kDbUtilisation) return Value(r.db_utilisation);
      return Counted(metric == RunMetric::kDbTimeouts ? r.db_timeouts : r.db_queue_max);
    case RunMetric::kLiveP50:
    case RunMetric::kLiveP99:
    case RunMetric::kLiveErrors:
      if (!r.has_live_traffic) return NotMeasured("the database has no live traffic");
      if (metric == RunMetric::kLiveErrors) return Counted(r.live_errors);
      return Maybe(HistogramStat(r.live_latency_us, *stat, 1e3), "no live query completed");
    case RunMetric::kAgeAlertFirst:
      return Maybe(r.age_alert_first_s, "the oldest-age alert never fired");
    case RunMetric::kDepthAlertFirst:
      return Maybe(r.depth_alert_first_s, "the depth alert never fired");
    case RunMetric::kDlqDepthAlertFirst:
      return Maybe(r.dlq_depth_alert_first_s, "the DLQ-depth alert never fired");
    case RunMetric::kBacklogCleared:
      return Maybe(r.backlog_cleared_s,
                   "never reached: the main queue did not empty after it held a message");
    case RunMetric::kRetryAmplification:
      return Maybe(r.retry_amplification, "no attempt was made");
    case RunMetric::kGroupHoldMax:
      return Value(r.group_hold_max_s);
    case RunMetric::kTimeToRecover: {
      const Recovery recovery = RecoveryOf(r);
      return Maybe(recovery.time_to_recover_s,
                   recovery.why.empty() ? "never: metastable, not back within the horizon after "
                                          "the last fault window"
                                        : recovery.why);
    }
    default:  // the counts, measured above
      break;
  }
  return NotMeasured("unknown metric");
}

// One kind over the whole run: Results keeps counts and message latency per kind.
Measurement MeasureKind(const model::Results& r, RunMetric metric, const std::string& kind) {
  const auto it = r.kinds.find(kind);
  if (it == r.kinds.end()) return NotMeasured("the results hold no figures for kind " + kind);
  const model::KindResults& k = it->second;
  switch (metric) {
    case RunMetric::kDuplicateExecutions:
      return Counted(k.duplicate_executions);
    case RunMetric::kDuplicatesSuppressed:
      return Counted(k.duplicates_suppressed);
    case RunMetric::kVisibleDuplicates:
      return Counted(k.visible_duplicates);
    case RunMetric::kPublished:
      return Counted(k.published);
    case RunMetric::kAcked:
      return Counted(k.acked);
    case RunMetric::kAttempts:
      return Counted(k.attempts);
    case RunMetric::kAttemptsPerSuccess:
      return Maybe(AttemptsPerSuccess(k.attempts, k.acked), "no " + kind + " message was acked");
    case RunMetric::kMessageLatencyMean:
    case RunMetric::kMessageLatencyP50:
    case RunMetric::kMessageLatencyP99:
    case RunMetric::kMessageLatencyMax:
      return Maybe(HistogramStat(k.message_latency_us, *LatencyStat(metric), 1e6),
                   "no " + kind + " message was acked");
    default:
      return NotMeasured("the results keep " + Name(metric) + " for all kinds together only");
  }
}

std::string NoInterval(During during) {
  return "no interval between two samples lies within " + WindowName(during);
}

// A count kept per interval in the series (as a rate): the sum over the intervals within the
// window. The rate was the interval's count divided by its length.
Measurement SeriesCount(const model::Results& r, During during,
                        double (*rate)(const model::Sample&), const std::string& what) {
  int64_t total = 0;
  int intervals = 0;
  for (size_t i = 0; i < r.series.size(); ++i) {
    if (!InWindow(r.series, i, during, /*over_interval=*/true)) continue;
    const model::Sample& s = r.series[i];
    total += std::llround(rate(s) * (s.t_s - r.series[i - 1].t_s));
    ++intervals;
  }
  if (intervals == 0) return Undefined(NoInterval(during));
  return Value(static_cast<double>(total),
               "summed from the series over the " + std::to_string(intervals) +
                   " sampled intervals within " + WindowName(during) + " (" + what + ")");
}

// Drains run one at a time, each with its exact utilisation; several are weighed by duration.
Measurement DbUtilisationDuringDrains(const model::Results& r) {
  double weighted = 0;
  double total_s = 0;
  std::vector<const model::DrainResults*> ran;
  for (const model::DrainResults& d : r.drains) {
    if (!d.started_at_s) continue;
    const double duration_s = d.ended_at_s.value_or(r.ended_at_s) - *d.started_at_s;
    weighted += d.db_utilisation * duration_s;
    total_s += duration_s;
    ran.push_back(&d);
  }
  if (ran.empty()) return Undefined("no drain ran");
  if (ran.size() == 1) return Value(ran.front()->db_utilisation);
  if (total_s <= 0) return Undefined("the drains lasted no time");
  return Value(weighted / total_s, "the drains' utilisations weighted by their durations");
}

Measurement MeasureWindow(const model::Results& r, RunMetric metric, During during) {
  const std::string window = WindowName(during);
  const std::string only_run = "the results keep " + Name(metric) +
                               " for the whole run only, with no series or histogram restricted "
                               "to " +
                               window;
  switch (metric) {
    case RunMetric::kOldestAge: {
      // The whole run's figure is the maximum over the samples too.
      std::optional<double> max;
      int count = 0;
      for (size_t i = 0; i < r.series.size(); ++i) {
        if (!InWindow(r.series, i, during, /*over_interval=*/false)) continue;
        const double age_s = r.series[i].oldest_age_s;
        max = std::max(max.value_or(age_s), age_s);
        ++count;
      }
      if (!max) return Undefined("no sample was taken during " + window);
      return Value(*max,
                   "the maximum over the " + std::to_string(count) + " samples during " + window);
    }
    case RunMetric::kDlqInflow:
      return SeriesCount(
          r, during, [](const model::Sample& s) { return s.dlq_inflow_per_s; }, "dead-letterings");
    case RunMetric::kDlqOutflow:
      return SeriesCount(
          r, during, [](const model::Sample& s) { return s.dlq_outflow_per_s; },
          "messages out of the DLQ");
    case RunMetric::kLiveErrors:
      if (!r.has_live_traffic) return NotMeasured("the database has no live traffic");
      return SeriesCount(
          r, during, [](const model::Sample& s) { return s.live_errors_per_s; },
          "live query errors");
    case RunMetric::kDbUtilisation: {
      if (!r.has_database) return NotMeasured("the scenario has no database");
      if (during == During::kDrains) return DbUtilisationDuringDrains(r);
      double sum = 0;
      int intervals = 0;
      for (size_t i = 0; i < r.series.size(); ++i) {
        if (!InWindow(r.series, i, during, /*over_interval=*/true)) continue;
        sum += r.series[i].db_utilisation;
        ++intervals;
      }
      if (intervals == 0) return Undefined(NoInterval(during));
      return Value(sum / intervals, "the mean over the " + std::to_string(intervals) +
                                        " sampled intervals within " + window);
    }
    case RunMetric::kLiveP50:
    case RunMetric::kLiveP99:
      if (!r.has_live_traffic) return NotMeasured("the database has no live traffic");
      if (during == During::kFaults) return NotMeasured(only_run + " (only to drains)");
      return Maybe(HistogramStat(r.live_latency_during_drains_us, *LatencyStat(metric), 1e3),
                   "no live query completed during drains");
    case RunMetric::kDbQueueMax:
      return NotMeasured(only_run +
                         "; the series holds the queue at sample instants, which can "
                         "miss the maximum");
    default:
      return NotMeasured(only_run);
  }
}

}  // namespace

bool InWindow(const std::vector<model::Sample>& series, size_t i, During during,
              bool over_interval) {
  DRAINSIM_CHECK(i < series.size());
  if (over_interval && i == 0) return false;
  auto flagged = [&](const model::Sample& s) {
    switch (during) {
      case During::kRun:
        return true;
      case During::kDrains:
        return s.drain_active;
      case During::kFaults:
        return s.fault_active;
    }
    return false;
  };
  return flagged(series[i]) && (!over_interval || flagged(series[i - 1]));
}

Measurement Measure(const model::Results& results, const config::MetricExpectation& e) {
  if (e.kind) {
    if (e.during != During::kRun) {
      return NotMeasured("per-kind figures are kept for the whole run only, not during " +
                         WindowName(e.during));
    }
    return MeasureKind(results, e.metric, *e.kind);
  }
  if (e.during == During::kRun) return MeasureRun(results, e.metric);
  return MeasureWindow(results, e.metric, e.during);
}

}  // namespace drainsim::reports
