#include "reports/html_report.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "reports/headline.h"
#include "reports/health.h"
#include "reports/html_charts.h"
#include "reports/html_interactive.h"
#include "reports/metrics.h"
#include "reports/recovery.h"
#include "reports/svg_chart.h"
#include "reports/text_format.h"
#include "sim/base/check.h"

namespace drainsim::reports {

namespace {

using svg::XmlEscape;

// Light by default, dark when the reader's system asks for it; charts draw in currentColor.
constexpr std::string_view kStyle = R"css(
:root{color-scheme:light dark;--bg:#ffffff;--fg:#1f2328;--muted:#59636e;--card:#f6f8fa;--line:#d1d9e0;--pass:#1a7f37;--fail:#cf222e}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--card:#161b22;--line:#30363d;--pass:#3fb950;--fail:#f85149}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1040px;padding:24px 16px;background:var(--bg);color:var(--fg);font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
h1{font-size:22px;margin:0 0 4px;overflow-wrap:anywhere}
h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
h3{font-size:14px;margin:0 8px 4px}
.verdict{font-weight:600;margin:0}
.findings{margin:.4em 0 0;font-size:.95em}.findings p{margin:0}.findings ul{margin:.2em 0 0;padding-left:1.4em}
.pass{color:var(--pass)}
.fail{color:var(--fail)}
.headline{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:10px;margin:16px 0}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 12px}
.card .label{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}
.card .value{font-size:22px;font-weight:600;font-variant-numeric:tabular-nums;overflow-wrap:break-word}
.card .sub{color:var(--muted);font-size:12px;overflow-wrap:break-word}
.meta{color:var(--muted);font-size:13px}
code{font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--card);border:1px solid var(--line);border-radius:4px;padding:1px 4px;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;font-size:13px}
th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
th{background:var(--card)}
figure{margin:16px 0;padding:10px 4px 6px;border:1px solid var(--line);border-radius:8px}
figure svg{display:block;width:100%;height:auto;color:var(--fg)}
figcaption{color:var(--muted);font-size:13px;margin:4px 8px}
.scroll{overflow-x:auto;max-width:100%}
td code{white-space:nowrap;overflow-wrap:normal}
.narrow{display:none}
@media (max-width:960px){.wide{display:none}.narrow{display:block;max-width:640px}}
)css";

// Each chart is drawn twice: for wide pages, and for narrow ones (a phone), whose text would be
// too small if the wide drawing were scaled down to the screen; the page's CSS shows one
// (breakpoint 960 px: above it the wide chart is drawn at least ~900 px wide, so its 12-unit
// text is at least 11 px; below it the narrow one, 360 units wide with 13-unit text, at most
// 640 px wide). Both are in the page, so a reader without CSS still gets a chart.
constexpr int kNarrowWidth = 360;
constexpr int kNarrowHeight = 260;
constexpr int kNarrowFontSize = 13;
constexpr size_t kNarrowPointsMax = 600;

svg::LineChart NarrowCopy(const svg::LineChart& wide) {
  svg::LineChart narrow = wide;
  narrow.width = kNarrowWidth;
  narrow.height = kNarrowHeight;
  narrow.font_size = kNarrowFontSize;
  narrow.max_points = std::min(wide.max_points, kNarrowPointsMax);
  return narrow;
}

std::string HtmlCount(int64_t value) { return std::to_string(value); }

// Text that came from outside the program; the same escaping serves text and attributes.

void Card(std::string& out, std::string_view label, const std::string& value,
          const std::string& sub, std::string_view value_class = "") {
  out += "<div class=\"card\"><div class=\"label\">" + HtmlText(label) + "</div><div class=\"value";
  if (!value_class.empty()) {
    out += ' ';
    out += value_class;
  }
  out += "\">" + HtmlText(value) + "</div>";
  if (!sub.empty()) out += "<div class=\"sub\">" + HtmlText(sub) + "</div>";
  out += "</div>\n";
}

// "pass" or "fail" (a CSS class), "" without expectations.
std::string VerdictClass(const std::vector<Verdict>& verdicts) {
  if (verdicts.empty()) return "";
  return CountFailed(verdicts) == 0 ? "pass" : "fail";
}

std::string HtmlVerdictText(const std::vector<Verdict>& verdicts) {
  const size_t failed = CountFailed(verdicts);
  const size_t total = verdicts.size();
  if (total == 0) return "no expectations";
  if (failed == 0) return std::to_string(total) + " of " + std::to_string(total) + " passed";
  return std::to_string(failed) + " of " + std::to_string(total) + " failed";
}

void Headline(std::string& out, const ReportInput& input) {
  const model::Results& r = input.results;
  out += "<section class=\"headline\" aria-label=\"headline figures\">\n";
  const std::string verdict_class = VerdictClass(input.verdicts);
  const char* verdict_word = "none";
  if (verdict_class == "pass") verdict_word = "PASS";
  if (verdict_class == "fail") verdict_word = "FAIL";
  Card(out, "expectations", verdict_word,
       verdict_class.empty() ? "the scenario states none" : HtmlVerdictText(input.verdicts),
       verdict_class);
  const std::string detail = TimeToEmptyDetail(r);
  Card(out, "time to empty", TimeToEmptyValue(r),
       !detail.empty()     ? detail
       : r.time_to_empty_s ? "from the first drain's start"
                           : "",
       detail.empty() ? "" : "fail");
  Card(out, "duplicate executions", HtmlCount(r.duplicate_executions),
       HtmlCount(r.visible_duplicates) + " visible; " + HtmlCount(r.duplicates_suppressed) +
           " more stopped by claim rows");
  std::string by_reason;
  for (const auto& [reason, count] : r.human_needed_by_reason) {
    by_reason += (by_reason.empty() ? "" : ", ") + reason + "=" + HtmlCount(count);
  }
  Card(out, "human needed", HtmlCount(r.human_needed),
       by_reason.empty() ? "parked or left in the DLQ: none" : by_reason);
  const std::vector<AlertPhrase> alerts = AlertPhrases(r);
  if (!alerts.empty()) {
    size_t fired = 0;
    std::string lines;
    for (const AlertPhrase& alert : alerts) {
      fired += alert.fired ? 1 : 0;
      lines += (lines.empty() ? "" : "; ") + alert.name + ": " + alert.value;
    }
    Card(out, "alerts fired", std::to_string(fired) + " of " + std::to_string(alerts.size()),
         lines);
  }
  Card(out, "retry amplification",
       r.retry_amplification ? Decimal(*r.retry_amplification, 2) : std::string("-"),
       RetryAmplificationText(r));
  if (!r.fault_windows.empty()) {
    const Recovery recovery = RecoveryOf(r);
    Card(out, "recovery after faults",
         recovery.metastable.value_or(false) ? "metastable"
         : recovery.time_to_recover_s        ? SecondsText(*recovery.time_to_recover_s)
                                             : "-",
         RecoveryText(recovery, r), recovery.metastable.value_or(false) ? "fail" : "");
  }
  if (r.broker_lost > 0) {
    Card(out, "lost by the broker", HtmlCount(r.broker_lost),
         "discarded by design: " + BrokerLossCauses(r), "fail");
  }
  for (const PlatformPhrase& phrase : PlatformPhrases(r)) {
    Card(out, phrase.name, phrase.value, phrase.detail);
  }
  Card(out, "lost", HtmlCount(r.lost), "conservation check: must be 0", r.lost == 0 ? "" : "fail");
  Card(out, "seed", std::to_string(r.seed), "fingerprint " + Hex16(r.fingerprint));
  out += "</section>\n";
}

void Meta(std::string& out, const ReportInput& input) {
  const model::Results& r = input.results;
  out += "<p class=\"meta\">Scenario " + HtmlCode(input.context.scenario_path) + ", hash " +
         HtmlCode(input.context.scenario_hash) + "; drainsim " +
         HtmlText(input.context.drainsim_version) + ". Simulated " + SecondsText(r.ended_at_s) +
         " in " + HtmlCount(r.events) + " events (" +
         (r.events_max_reached ? "stopped at run.events_max"
          : r.reached_until    ? "reached run.until_s"
                               : "nothing left to happen") +
         "); " + HtmlCount(r.published) + " messages published, " + HtmlCount(r.acked) +
         " acked.</p>\n";
  if (r.events_max_reached) {
    out += "<p class=\"fail\">The run stopped at run.events_max: every figure is partial.</p>\n";
  }
  out += "<p class=\"meta\">Reproduce: " + HtmlCode(input.reproduce) + "</p>\n";
}

void HtmlExpectations(std::string& out, const std::vector<Verdict>& verdicts) {
  out += "<h2>Expectations</h2>\n";
  if (verdicts.empty()) {
    out += "<p>The scenario states no expectations.</p>\n";
    return;
  }
  out += "<div class=\"scroll\"><table>\n";
  HtmlRow(out, {"result", "expectation", "measured", "bound", "reason"}, true);
  for (const Verdict& v : verdicts) {
    HtmlRow(out,
            {v.passed ? "<span class=\"pass\">PASS</span>" : "<span class=\"fail\">FAIL</span>",
             HtmlCode(v.text), HtmlText(v.measured_text), HtmlCode(BoundsText(v.bounds)),
             HtmlText(v.reason)});
  }
  out += "</table></div>\n";
}

void Charts(std::string& out, const RunCharts& charts) {
  out += "<h2>Over simulated time</h2>\n";
  if (charts.figures.empty()) {
    out += "<p>The run has no samples to chart.</p>\n";
    return;
  }
  out +=
      "<p class=\"meta\">Red bands: fault windows; red dotted lines: faults that start at an "
      "instant, and each worker crash drawn at random; green bands: drains. A triangle at a "
      "chart's top marks a peak drawn off scale, its value beside it. Hover a band or a line "
      "for its details.</p>\n";
  for (const ChartFigure& figure : charts.figures) {
    out += "<figure>\n<h3>" + HtmlText(figure.chart.title) + "</h3>\n<div class=\"wide\">";
    out += svg::RenderLineChart(figure.chart);
    out += "</div>\n<div class=\"narrow\">";
    out += svg::RenderLineChart(NarrowCopy(figure.chart));
    out += "</div>\n<figcaption>" + HtmlText(figure.caption) + "</figcaption>\n</figure>\n";
  }
  if (!charts.notes.empty()) {
    out += "<p class=\"meta\">Not shaded, since active the whole run:";
    for (size_t i = 0; i < charts.notes.size(); ++i) {
      out += (i == 0 ? " " : "; ") + HtmlText(charts.notes[i]);
    }
    out += ".</p>\n";
  }
}

void HtmlDrains(std::string& out, const model::Results& r) {
  if (r.drains.empty()) return;
  out += "<h2>Drains</h2>\n<div class=\"scroll\"><table>\n";
  std::vector<std::string> header = {"drain",    "started", "ended",
                                     "replayed", "pace",    "over its active time",
                                     "refilled", "parked",  "left"};
  if (r.has_database) header.push_back("DB utilisation");
  if (r.has_live_traffic) header.push_back("live p99");
  HtmlRow(out, header, true);
  for (size_t i = 0; i < r.drains.size(); ++i) {
    const model::DrainResults& d = r.drains[i];
    std::vector<std::string> row = {
        HtmlCount(static_cast<int64_t>(i)),
        d.started_at_s ? SecondsText(*d.started_at_s) : "never",
        d.ended_at_s ? SecondsText(*d.ended_at_s) : (d.started_at_s ? "still active" : "never"),
        HtmlCount(d.replayed),
        HtmlText(DrainReplayPace(d)),
        d.started_at_s ? Decimal(d.achieved_rate_per_s, 1) + "/s" : "-",
        HtmlCount(d.refilled),
        HtmlCount(d.parked),
        HtmlCount(d.left)};
    if (r.has_database) row.push_back(Decimal(100 * d.db_utilisation, 1) + " %");
    if (r.has_live_traffic) {
      row.push_back(d.live_latency_us.empty()
                        ? "none"
                        : Decimal(*HistogramStat(d.live_latency_us, Stat::kP99, 1e3), 1) + " ms");
    }
    HtmlRow(out, row);
  }
  out += "</table></div>\n";
}

void Faults(std::string& out, const ScenarioMarks& marks) {
  if (!marks.from_scenario || marks.faults.empty()) return;
  out += "<h2>Faults</h2>\n<div class=\"scroll\"><table>\n";
  HtmlRow(out, {"type", "what", "from", "until"}, true);
  for (const FaultSpan& f : marks.faults) {
    HtmlRow(out, {HtmlCode(f.type), HtmlText(f.detail), HtmlText(SecondsText(f.from_s)),
                  HtmlText(f.until_s ? SecondsText(*f.until_s)
                                     : "(an instant, or until its count is used)")});
  }
  out += "</table></div>\n";
}

// Under the verdict: what no expectation covered (reports/health.h); never part of the verdict.
void HtmlFindings(std::string& out, const std::vector<Finding>& findings) {
  if (findings.empty()) return;
  out +=
      "<section class=\"findings\" aria-label=\"health findings\">\n"
      "<p>Not covered by any expectation:</p>\n<ul>\n";
  for (const Finding& f : findings) out += "<li>" + HtmlText(f.text) + "</li>\n";
  out += "</ul>\n</section>\n";
}

}  // namespace

std::string HtmlReport(const ReportInput& input, size_t max_points) {
  DRAINSIM_CHECK(max_points >= 2);
  const model::Results& r = input.results;
  const std::string verdict = HtmlVerdictText(input.verdicts);
  const RunCharts charts = ChartsOf(input, max_points);
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n";
  out += "<meta name=\"color-scheme\" content=\"light dark\"/>\n";
  out += "<title>drainsim: " + HtmlText(r.scenario_name) + " - " + HtmlText(verdict) + "</title>\n";
  out += "<style>" + std::string(kStyle) + "</style>\n";
  out += InteractiveStyle(charts);
  out += "</head>\n<body>\n<header>\n";
  out += "<h1>drainsim: " + HtmlText(r.scenario_name) + "</h1>\n";
  out += "<p class=\"verdict " + VerdictClass(input.verdicts) + "\">" +
         HtmlText(input.verdicts.empty() ? "No expectations" : "Expectations: " + verdict) +
         "</p>\n";
  HtmlFindings(out, HealthFindings(r, input.verdicts));
  out += "</header>\n<main>\n";
  Headline(out, input);
  Meta(out, input);
  HtmlExpectations(out, input.verdicts);
  Charts(out, charts);
  HtmlDrains(out, r);
  Faults(out, input.context.marks);
  out += "</main>\n";
  out += InteractiveScripts(charts, r.series, max_points);
  out += "</body>\n</html>\n";
  return out;
}

std::string HtmlReport(const ReportInput& input) { return HtmlReport(input, 2000); }

std::string_view HtmlStyle() { return kStyle; }

}  // namespace drainsim::reports
