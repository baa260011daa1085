#include "reports/headline.h"

#include <algorithm>

#include "reports/metrics.h"
#include "reports/text_format.h"

namespace drainsim::reports {

namespace {

std::string Messages(int64_t count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

bool AnyDrainStarted(const model::Results& r) {
  for (const model::DrainResults& d : r.drains) {
    if (d.started_at_s) return true;
  }
  return false;
}

}  // namespace

std::string TimeToEmptyValue(const model::Results& r) {
  if (r.drains.empty()) return "no drain planned";
  if (r.time_to_empty_s) return SecondsText(*r.time_to_empty_s);
  if (!AnyDrainStarted(r)) return "never: no drain started";
  int64_t left = 0;
  for (const model::DrainResults& d : r.drains) left += d.left;
  if (left > 0) {
    return "never: " + Messages(left, "replayable message", "replayable messages") +
           " left in the DLQ";
  }
  return "never: replays still in the queue at the end";
}

std::string TimeToEmptyDetail(const model::Results& r) {
  if (!r.time_to_empty_s || r.dlq_end == 0) return "";
  // Time to empty is reached when the replays settle; failures after it fill the DLQ again.
  return "the DLQ emptied " + SecondsText(*r.time_to_empty_s) + " after the first drain started; " +
         std::to_string(r.dlq_end) + " in it again by the end (" +
         Messages(r.refilled, "replay", "replays") + " died again)";
}

std::optional<double> ReplayRatePerS(const model::DrainResults& d) {
  if (!d.started_at_s || !d.last_replay_at_s || d.replayed < 2) return std::nullopt;
  const double span_s = *d.last_replay_at_s - *d.started_at_s;
  if (span_s <= 0) return std::nullopt;
  return static_cast<double>(d.replayed) / span_s;
}

std::string DrainReplayPace(const model::DrainResults& d) {
  if (!d.started_at_s || d.replayed == 0 || !d.last_replay_at_s) return "-";
  if (d.replayed == 1) return "at " + SecondsText(*d.last_replay_at_s);
  if (const std::optional<double> rate = ReplayRatePerS(d)) {
    return "in " + SecondsText(*d.last_replay_at_s - *d.started_at_s) + " (" + Decimal(*rate, 1) +
           "/s)";
  }
  return "at once";
}

std::string DrainReplayPhrase(const model::DrainResults& d) {
  if (!d.started_at_s) return "never started";
  if (d.replayed == 0) return "replayed nothing";
  return "replayed " + std::to_string(d.replayed) + " " + DrainReplayPace(d);
}

std::optional<double> RetryAmplification(const model::FaultWindowAttempts& w) {
  if (w.first_attempts == 0) return std::nullopt;
  return static_cast<double>(w.attempts) / static_cast<double>(w.first_attempts);
}

std::string BrokerLossCauses(const model::Results& r) {
  std::string out;
  for (int c = 0; c < model::kBrokerLossCauseCount; ++c) {
    const int64_t n = r.broker_lost_by_cause[static_cast<size_t>(c)];
    if (n == 0) continue;
    if (!out.empty()) out += ", ";
    out += std::string(model::BrokerLossCauseName(static_cast<model::BrokerLossCause>(c))) + " " +
           std::to_string(n);
  }
  return out.empty() ? "none" : out;
}

std::string MessagesLine(const model::Results& r) {
  std::string out = std::to_string(r.published) + " published, " + std::to_string(r.acked) +
                    " acked, " + std::to_string(r.parked) + " parked, " +
                    std::to_string(r.dlq_end) + " in the DLQ, " + std::to_string(r.expired) +
                    " expired, " + std::to_string(r.not_terminal_end) + " unfinished";
  if (r.rejected > 0) out += ", " + std::to_string(r.rejected) + " rejected";
  if (r.broker_lost > 0) out += ", " + std::to_string(r.broker_lost) + " lost by the broker";
  return out;
}

std::string RetryAmplificationText(const model::Results& r) {
  if (!r.retry_amplification) return "no attempt";
  std::string out = Decimal(*r.retry_amplification, 3) + " (" + std::to_string(r.attempts) +
                    " attempts over " + std::to_string(r.first_attempts) + " first attempts)";
  // Faults of one type over one window count the same attempts: the figure is given once, with
  // the number of faults that share it, not repeated under the same label. Should their counts
  // differ (one window opened after an attempt started in the same instant), each names its fault.
  using Window = model::FaultWindowAttempts;
  const auto same_label = [](const Window& a, const Window& b) {
    return a.type == b.type && a.from_s == b.from_s && a.until_s == b.until_s;
  };
  const auto same = [&](const Window& a, const Window& b) {
    return same_label(a, b) && a.attempts == b.attempts && a.first_attempts == b.first_attempts;
  };
  const std::vector<Window>& windows = r.fault_windows;
  for (auto w = windows.begin(); w != windows.end(); ++w) {
    const std::optional<double> a = RetryAmplification(*w);
    const auto like = [&](const Window& e) { return same(e, *w); };
    if (!a || std::any_of(windows.begin(), w, like)) continue;
    out += "; " + w->type + " " + Decimal(w->from_s, 1) + "-" + Decimal(w->until_s, 1) + " s";
    const auto sharing = std::count_if(w, windows.end(), like);
    if (sharing > 1) out += " (" + std::to_string(sharing) + " faults)";
    const auto labelled = std::count_if(windows.begin(), windows.end(),
                                        [&](const Window& e) { return same_label(e, *w); });
    if (labelled > sharing) out += " (fault " + std::to_string(w->fault) + ")";
    out += ": " + Decimal(*a, 3);
  }
  return out;
}

std::vector<AlertPhrase> AlertPhrases(const model::Results& r) {
  std::vector<AlertPhrase> phrases;
  auto add = [&](bool on, const char* name, const std::optional<double>& first_s) {
    if (!on) return;
    phrases.push_back(
        {name, first_s ? "first at " + SecondsText(*first_s) : "never fired", first_s.has_value()});
  };
  add(r.age_alert_on, "oldest age", r.age_alert_first_s);
  add(r.depth_alert_on, "depth", r.depth_alert_first_s);
  add(r.dlq_depth_alert_on, "DLQ depth", r.dlq_depth_alert_first_s);
  return phrases;
}

std::vector<PlatformPhrase> PlatformPhrases(const model::Results& r) {
  const auto count = [](int64_t n) { return std::to_string(n); };
  std::vector<PlatformPhrase> phrases;
  if (r.partitions > 0) {
    phrases.push_back({"partitions", count(r.partitions) + " partitions",
                       count(r.rebalances) + " rebalances; longest hold " +
                           SecondsText(r.group_hold_max_s) + "; " + count(r.ordering_violations) +
                           " ordering violations"});
  }
  if (r.lambda_esm) {
    phrases.push_back({"Lambda event-source mapping", count(r.throttles) + " throttled receives",
                       count(r.dead_lettered_unprocessed) +
                           " dead-lettered without being processed; " + count(r.esm_pollers_end) +
                           " pollers at the end"});
  }
  if (r.autoscale) {
    phrases.push_back({"autoscaled workers", count(r.autoscale_workers_max) + " workers at most",
                       count(r.autoscale_scale_ups) + " scale-ups, " +
                           count(r.autoscale_scale_downs) + " scale-downs; " +
                           count(r.autoscale_workers_end) + " at the end; " +
                           SecondsText(r.autoscale_worker_s) + " of worker time; " +
                           count(r.autoscale_returned) + " prefetched messages returned, " +
                           count(r.autoscale_kills) + " attempts killed at the grace period"});
  }
  if (r.message_groups > 0) {
    phrases.push_back({"message groups", count(r.message_groups) + " groups",
                       "longest hold " + SecondsText(r.group_hold_max_s) + "; " +
                           count(r.ordering_violations) + " ordering violations"});
  }
  if (r.dead_letter_waiting_end > 0) {
    phrases.push_back({"waiting for DLQ room", count(r.dead_letter_waiting_end),
                       "of the unfinished (at-least-once dead-lettering)", " "});
  }
  return phrases;
}

}  // namespace drainsim::reports
