// `drainsim compare`'s verdicts from B's side (experiments/results/gate_result.h), rendered: the
// Markdown table a pull request comment shows (comment.md, and stdout with --format markdown),
// and the gate's lines under compare's text table.
//
// Markdown: a title naming A and B, one row per compared metric - metric (gated ones marked
// "gate"), A's mean, B's mean, B - A with its interval, the verdict (❌ worse, ✅ better, no
// significant difference, ...) - and one summary line: whether the gate failed and on which
// metrics, which metrics were judged, the confidence and the number of paired replications.
//
// Contract:
//  (1) Pure and deterministic: the same result gives the same bytes; no dates, no paths.
//  (2) Scenario names are Markdown-escaped (reports/markdown_report.h); metric names are code
//      spans; nothing breaks a table row.
//  (3) The summary line is the last line, and begins with "❌ **Gate failed**" iff
//      gate.Failed(), with "✅ **Gate passed**" iff gated metrics exist and none is worse, and
//      with "No gate" iff no metric was gated.
#pragma once

#include <string>

#include "experiments/results/gate_result.h"

namespace drainsim::reports {

std::string CompareCommentMarkdown(const experiments::GateResult& gate);

// The gate under compare's text table, "" iff no metric was gated:
//   gate (--fail-if-worse, 95% confidence):
//     metric                verdict  B - A  by        gate
//     duplicate_executions  worse    +12 …  paired t  FAIL
//   gate failed: B is worse than A on duplicate_executions
std::string GateText(const experiments::GateResult& gate);

}  // namespace drainsim::reports
