// `drainsim tune`'s outputs from its result (experiments/results/tune_result.h): stdout (the
// recommendation, why, and the evidence table), tune.md and tune.json.
//
// Contract: pure; the same spec, result and context give the same bytes. exit_code 0 when a
// value was found, 1 when no value held.
#pragma once

#include <string>

#include "experiments/results/tune_result.h"
#include "reports/output.h"

namespace drainsim::reports {

// "live_p99_ms@drains <= 250"
std::string ConstraintText(const experiments::Constraint& c);

Rendered RenderTune(const experiments::TuneSpec& spec, const experiments::TuneResult& result,
                    const experiments::TuneContext& context);

}  // namespace drainsim::reports
