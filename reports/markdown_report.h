// report.md: a GitHub-flavoured Markdown summary of one run, made to be appended to
// $GITHUB_STEP_SUMMARY or posted as a merge-request comment.
//
// Sections: a title with the overall verdict, what ran (seed, fingerprint, the reproduction
// command), the headline figures, the expectations (one row each, ✅ PASS / ❌ FAIL with the
// measured value, the bound and the reason), the DLQ at the end (by reason/error and by kind)
// and what needs a human, and one row per drain.
//
// Contract:
//  (1) Deterministic: the same input gives the same bytes; no dates.
//  (2) Figures carry their units ("24.95 s", "33.4 ms", "6.0 %", "20.0/s").
//  (3) Text from the scenario (its name, kind names) is escaped so that it renders as written:
//      Markdown punctuation is backslash-escaped, and nothing can break a table row.
#pragma once

#include <string>

#include "reports/report_input.h"

namespace drainsim::reports {

std::string MarkdownReport(const ReportInput& input);

// `text` with the characters Markdown (and GitHub's tables, HTML and math) would interpret
// escaped by a backslash.
std::string MarkdownEscape(const std::string& text);

}  // namespace drainsim::reports
