// The output of `drainsim run SCENARIO --replications N`: per metric the mean, standard
// deviation, confidence interval (Student t), p50, p95, min, max and the number of runs where it
// was undefined; per expectation the replications that passed. On stdout as a table, and as
// replications.json, replications.csv (one row per run) and replications.md.
//
// Contract:
//  (1) A pure function of (experiment, records, result): the unsharded run and the merge of its
//      shards print and write the same bytes (experiments/experiment_result.h computes the result
//      from the experiment and its records).
//  (2) exit_code is 1 iff some expectation failed in at least one replication, else 0.
//  (3) replications.json, .csv and .md are always written; `formats` adds junit.xml
//      (reports/replications_junit.h: a case fails by the rule of (2)) and replications.html
//      (reports/replications_html.h).
#pragma once

#include <string_view>
#include <vector>

#include "experiments/results/experiment.h"
#include "experiments/results/replications_result.h"
#include "experiments/results/run_record.h"
#include "reports/output.h"
#include "sim/base/expected.h"

namespace drainsim::reports {

// The files --format adds to the three always written (contract (3)).
struct ReplicationFormats {
  bool junit = false;  // junit.xml
  bool html = false;   // replications.html
};

// --format's list for replications: json, csv and md (always written, accepted), junit, html;
// any other name (trace needs a single run) is an error naming the ones that work.
base::Expected<ReplicationFormats> ParseReplicationFormats(std::string_view list);

// REQUIRES: records.size() == experiment.RunCount(), experiment.axes empty, `result` is
// experiments::ReplicationsResultOf(experiment, records)
Rendered RenderReplications(const experiments::Experiment& experiment,
                            const std::vector<experiments::RunRecord>& records,
                            const experiments::ReplicationsResult& result,
                            const ReplicationFormats& formats = {});

}  // namespace drainsim::reports
