// The output of `drainsim compare A.json B.json` (experiments/compare.h says what the figures
// mean): the tables on stdout (or, with --format markdown, comment.md), compare.json, compare.md
// and comment.md (reports/compare_comment.h).
//
// Contract:
//  (1) A pure function of (comparison, result, records): identical for every --jobs.
//  (2) exit_code is 1 iff the gate failed (experiments/results/gate_result.h, Failed()), else 0.
//  (3) With c.markdown, stdout is comment.md and the file list goes to stderr
//      (list_files_on_stderr), so that stdout can be posted as it is.
#pragma once

#include <vector>

#include "experiments/results/comparison_result.h"
#include "experiments/results/run_record.h"
#include "reports/output.h"

namespace drainsim::reports {

// REQUIRES: a.size() == b.size() == c.replications, result.metrics.size() == c.metrics.size()
Rendered RenderComparison(const experiments::Comparison& c,
                          const experiments::ComparisonResult& result,
                          const std::vector<experiments::RunRecord>& a,
                          const std::vector<experiments::RunRecord>& b);

}  // namespace drainsim::reports
