#include "reports/markdown_report.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "reports/headline.h"
#include "reports/health.h"
#include "reports/metrics.h"
#include "reports/recovery.h"

namespace drainsim::reports {

namespace {

std::string MarkdownSeconds(double value) { return Decimal(value, 3) + " s"; }
std::string MarkdownSeconds(const std::optional<double>& value, const char* never) {
  return value ? MarkdownSeconds(*value) : std::string(never);
}
std::string Millis(double value) { return Decimal(value, 1) + " ms"; }
std::string MarkdownPercent(double fraction) { return Decimal(100 * fraction, 1) + " %"; }
std::string MarkdownCount(int64_t value) { return std::to_string(value); }

// Code spans keep metric names readable; a table cell still needs its pipes escaped. The fence
// is one backtick longer than the longest run inside (CommonMark), padded when needed.
std::string MarkdownCode(const std::string& text) {
  size_t run = 0;
  size_t longest = 0;
  std::string body;
  for (const char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    body += c == '|' ? std::string("\\|") : std::string(1, c);
  }
  const std::string fence(longest + 1, '`');
  const std::string pad = longest > 0 ? " " : "";
  return fence + pad + body + pad + fence;
}

void Row(std::string& out, const std::vector<std::string>& cells) {
  out += "|";
  for (const std::string& cell : cells) out += " " + cell + " |";
  out += "\n";
}

void Table(std::string& out, const std::vector<std::string>& header,
           const std::vector<std::vector<std::string>>& rows) {
  Row(out, header);
  out += "|";
  for (size_t i = 0; i < header.size(); ++i) out += "---|";
  out += "\n";
  for (const auto& row : rows) Row(out, row);
  out += "\n";
}

std::string Latency(const model::Histogram& h_us, double scale, std::string (*unit)(double value)) {
  if (h_us.empty()) return "none";
  return "p50 " + unit(*HistogramStat(h_us, Stat::kP50, scale)) + ", p99 " +
         unit(*HistogramStat(h_us, Stat::kP99, scale)) + ", max " +
         unit(*HistogramStat(h_us, Stat::kMax, scale));
}

void MarkdownHeadline(std::string& out, const model::Results& r) {
  std::vector<std::vector<std::string>> rows = {
      {"time to empty",
       TimeToEmptyValue(r) +
           (TimeToEmptyDetail(r).empty() ? "" : " (" + TimeToEmptyDetail(r) + ")")},
      {"time to quiet", MarkdownSeconds(r.time_to_quiet_s, "never")},
      {"duplicate executions",
       MarkdownCount(r.duplicate_executions) + " (" + MarkdownCount(r.visible_duplicates) +
           " visible; " + MarkdownCount(r.duplicates_suppressed) + " more stopped by claim rows)"},
      {"human needed", MarkdownCount(r.human_needed)},
      {"lost", MarkdownCount(r.lost)},
      {"messages", MessagesLine(r)},
      {"attempts", MarkdownCount(r.attempts) + " (" +
                       Decimal(AttemptsPerSuccess(r.attempts, r.acked).value_or(0), 3) +
                       " per acked message)"},
      {"retry amplification", RetryAmplificationText(r)},
      {"backlog cleared", MarkdownSeconds(r.backlog_cleared_s, "never")},
      {"recovery after faults", MarkdownEscape(RecoveryText(RecoveryOf(r), r))},
      {"wasted worker time", MarkdownSeconds(r.wasted_worker_s)},
      {"message latency", Latency(r.message_latency_us, 1e6, MarkdownSeconds)},
      {"oldest message age, max", MarkdownSeconds(r.oldest_age_max_s)},
      {"DLQ traffic", MarkdownCount(r.dlq_inflow) + " in, " + MarkdownCount(r.dlq_outflow) +
                          " out, " + MarkdownCount(r.replays) + " replayed, " +
                          MarkdownCount(r.refilled) + " refilled"},
  };
  if (r.broker_lost > 0) {
    rows.push_back(
        {"lost by the broker", MarkdownCount(r.broker_lost) + " (" + BrokerLossCauses(r) + ")"});
  }
  for (const PlatformPhrase& phrase : PlatformPhrases(r)) {
    rows.push_back({phrase.name, phrase.Joined()});
  }
  for (const AlertPhrase& alert : AlertPhrases(r)) {
    rows.push_back({alert.name + " alert", alert.value});
  }
  if (r.has_database) {
    rows.push_back({"database", "utilisation " + MarkdownPercent(r.db_utilisation) +
                                    ", queue max " + MarkdownCount(r.db_queue_max) + ", " +
                                    MarkdownCount(r.db_timeouts) + " timeouts"});
  }
  if (r.has_live_traffic) {
    rows.push_back({"live traffic, whole run", Latency(r.live_latency_us, 1e3, Millis) + "; " +
                                                   MarkdownCount(r.live_errors) + " errors"});
    if (!r.drains.empty()) {
      rows.push_back(
          {"live traffic, during drains", Latency(r.live_latency_during_drains_us, 1e3, Millis)});
    }
  }
  rows.push_back({"simulated", MarkdownSeconds(r.ended_at_s) + " in " + MarkdownCount(r.events) +
                                   " events" +
                                   (r.events_max_reached ? " (**stopped at run.events_max: "
                                                           "figures are partial**)"
                                    : r.reached_until    ? " (reached run.until_s)"
                                                         : " (nothing left to happen)")});
  out += "### Headline figures\n\n";
  Table(out, {"figure", "value"}, rows);
}

// Under the verdict: what no expectation covered (reports/health.h).
void MarkdownFindings(std::string& out, const std::vector<Finding>& findings) {
  if (findings.empty()) return;
  out += "**Not covered by any expectation** (health findings; they never change the verdict):\n\n";
  for (const Finding& f : findings) out += "- " + MarkdownEscape(f.text) + "\n";
  out += "\n";
}

void MarkdownExpectations(std::string& out, const std::vector<Verdict>& verdicts) {
  out += "### Expectations\n\n";
  if (verdicts.empty()) {
    out += "The scenario states no expectations.\n\n";
    return;
  }
  std::vector<std::vector<std::string>> rows;
  for (const Verdict& v : verdicts) {
    rows.push_back({v.passed ? "✅ PASS" : "❌ FAIL", MarkdownCode(v.text),
                    MarkdownEscape(v.measured_text), MarkdownCode(BoundsText(v.bounds)),
                    MarkdownEscape(v.reason)});
  }
  Table(out, {"result", "expectation", "measured", "bound", "reason"}, rows);
}

void MarkdownCounts(std::string& out, const char* title, const char* what,
                    const std::map<std::string, int64_t>& counts, const char* none) {
  out += std::string("**") + title + "**\n\n";
  if (counts.empty()) {
    out += std::string(none) + "\n\n";
    return;
  }
  std::vector<std::vector<std::string>> rows;
  for (const auto& [key, count] : counts) rows.push_back({MarkdownCode(key), MarkdownCount(count)});
  Table(out, {what, "messages"}, rows);
}

void Dlq(std::string& out, const model::Results& r) {
  out += "### DLQ at the end\n\n";
  MarkdownCounts(out, "By reason and error", "reason/error", r.dlq_by_reason_error,
                 "The DLQ was empty at the end.");
  MarkdownCounts(out, "By kind", "kind", r.dlq_by_kind, "The DLQ was empty at the end.");
  MarkdownCounts(out, "Human needed", "reason", r.human_needed_by_reason,
                 "Nothing was left for a human.");
}

void MarkdownDrains(std::string& out, const model::Results& r) {
  if (r.drains.empty()) return;
  out += "### Drains\n\n";
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < r.drains.size(); ++i) {
    const model::DrainResults& d = r.drains[i];
    std::vector<std::string> row = {
        MarkdownCount(static_cast<int64_t>(i)),
        MarkdownSeconds(d.started_at_s, "never"),
        d.ended_at_s ? MarkdownSeconds(*d.ended_at_s) : (d.started_at_s ? "still active" : "never"),
        MarkdownCount(d.replayed),
        DrainReplayPace(d),
        d.started_at_s ? Decimal(d.achieved_rate_per_s, 1) + "/s" : "-",
        MarkdownCount(d.refilled),
        MarkdownCount(d.parked),
        MarkdownCount(d.left)};
    if (r.has_database) row.push_back(MarkdownPercent(d.db_utilisation));
    if (r.has_live_traffic) {
      row.push_back(d.live_latency_us.empty()
                        ? "none"
                        : Millis(*HistogramStat(d.live_latency_us, Stat::kP99, 1e3)));
    }
    rows.push_back(row);
  }
  std::vector<std::string> header = {"drain",    "started", "ended",
                                     "replayed", "pace",    "over its active time",
                                     "refilled", "parked",  "left"};
  if (r.has_database) header.push_back("DB utilisation");
  if (r.has_live_traffic) header.push_back("live p99");
  Table(out, header, rows);
}

}  // namespace

std::string MarkdownEscape(const std::string& text) {
  // Emphasis, code, links and images (their brackets), HTML and entities, tables,
  // strikethrough and GitHub's math: the rest of ASCII's punctuation is literal mid-line.
  constexpr std::string_view kSpecial = "\\`*_[]<>|~&$";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (kSpecial.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

std::string MarkdownReport(const ReportInput& input) {
  const model::Results& r = input.results;
  const size_t failed = CountFailed(input.verdicts);
  const size_t total = input.verdicts.size();
  std::string out = "## drainsim: " + MarkdownEscape(r.scenario_name) + " — ";
  if (total == 0) {
    out += "no expectations\n\n";
  } else if (failed == 0) {
    out +=
        "✅ " + std::to_string(total) + " of " + std::to_string(total) + " expectations passed\n\n";
  } else {
    out +=
        "❌ " + std::to_string(failed) + " of " + std::to_string(total) + " expectations failed\n\n";
  }
  out += "Seed " + MarkdownCode(std::to_string(r.seed)) + ", fingerprint " +
         MarkdownCode(Hex16(r.fingerprint)) + ", scenario hash " +
         MarkdownCode(input.context.scenario_hash) + ", drainsim " +
         MarkdownEscape(input.context.drainsim_version) + ".\n\n";
  out += "Reproduce: " + MarkdownCode(input.reproduce) + "\n\n";
  MarkdownFindings(out, HealthFindings(r, input.verdicts));
  MarkdownHeadline(out, r);
  MarkdownExpectations(out, input.verdicts);
  Dlq(out, r);
  MarkdownDrains(out, r);
  return out;
}

}  // namespace drainsim::reports
