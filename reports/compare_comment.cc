#include "reports/compare_comment.h"

#include "reports/markdown_report.h"
#include "reports/metrics.h"
#include "reports/statistics_json.h"
#include "reports/table.h"
#include "reports/text_format.h"

namespace drainsim::reports {

namespace {

using experiments::GateResult;
using experiments::GateRow;
using experiments::GateVerdict;

std::string Code(const std::string& text) { return "`" + text + "`"; }

// "`a`, `b`" (Markdown) or "a, b" (text).
std::string List(const std::vector<std::string>& names, bool markdown) {
  std::string text;
  for (const std::string& name : names) {
    text += (text.empty() ? "" : ", ") + (markdown ? Code(name) : name);
  }
  return text;
}

std::vector<std::string> Gated(const GateResult& gate, bool worse_only) {
  std::vector<std::string> names;
  for (const GateRow& row : gate.rows) {
    if (row.gated && (!worse_only || row.verdict == GateVerdict::kWorse)) {
      names.push_back(row.metric);
    }
  }
  return names;
}

std::string VerdictCell(GateVerdict verdict) {
  const std::string name(experiments::GateVerdictName(verdict));
  if (verdict == GateVerdict::kWorse) return "❌ " + name;
  if (verdict == GateVerdict::kBetter) return "✅ " + name;
  return name;
}

size_t CountOf(const GateResult& gate, GateVerdict verdict) {
  size_t count = 0;
  for (const GateRow& row : gate.rows) count += row.verdict == verdict;
  return count;
}

std::string SummaryLine(const GateResult& gate) {
  const std::string basis = "at " + LevelPercent(gate.confidence) + " confidence over " +
                            std::to_string(gate.replications) + " paired replications";
  if (!gate.AnyGated()) {
    return "No gate (no --fail-if-worse): B is worse on " +
           std::to_string(CountOf(gate, GateVerdict::kWorse)) + ", better on " +
           std::to_string(CountOf(gate, GateVerdict::kBetter)) + " of " +
           std::to_string(gate.rows.size()) + " metrics, " + basis + ".";
  }
  const std::string judged = List(Gated(gate, false), true);
  if (gate.Failed()) {
    return "❌ **Gate failed**: B is worse than A on " + List(Gated(gate, true), true) + ", " +
           basis + " (judged: " + judged + ").";
  }
  return "✅ **Gate passed**: B is not significantly worse than A on " + judged + ", " + basis + ".";
}

}  // namespace

std::string CompareCommentMarkdown(const GateResult& gate) {
  Table table;
  table.header = {"metric", "A", "B", "B − A (" + LevelPercent(gate.confidence) + " CI)",
                  "verdict"};
  table.right = {false, true, true, true, false};
  for (const GateRow& row : gate.rows) {
    table.rows.push_back({Code(row.metric) + (row.gated ? " (gate)" : ""), MeanText(row.a),
                          MeanText(row.b), DifferenceText(row.difference),
                          VerdictCell(row.verdict)});
  }
  return "### drainsim compare: " + MarkdownEscape(gate.a_name) + " (A) → " +
         MarkdownEscape(gate.b_name) + " (B)\n\n" + table.Markdown() + "\n" + SummaryLine(gate) +
         "\n";
}

std::string GateText(const GateResult& gate) {
  if (!gate.AnyGated()) return "";
  Table table;
  table.header = {"metric", "verdict", "B - A", "by", "gate"};
  table.right = {false, false, true, false, false};
  for (const GateRow& row : gate.rows) {
    if (!row.gated) continue;
    table.rows.push_back({row.metric, std::string(experiments::GateVerdictName(row.verdict)),
                          DifferenceText(row.difference), row.verdict_by,
                          row.verdict == GateVerdict::kWorse ? "FAIL" : "pass"});
  }
  std::string text = "gate (--fail-if-worse, " + LevelPercent(gate.confidence) + " confidence):\n" +
                     table.Text("  ");
  text += gate.Failed() ? "gate failed: B is worse than A on " + List(Gated(gate, true), false)
                        : "gate passed: B is not significantly worse than A on " +
                              List(Gated(gate, false), false);
  return text + "\n";
}

}  // namespace drainsim::reports
