// `drainsim fit --into SCENARIO`: a fit's fragment (reports/fit_report.h) merged into a scenario.
//
// For every kind the fragment fits: its handler fields replace the scenario's (the whole handler
// time as one step: db_ops and downstream_calls 0, db_op_ms null; or, when the spans carried
// database statements, db_ops statements of the fitted db_op_ms and the rest as cpu_ms, one
// statement fewer for a kind with idempotency "claim", whose claim is one of those counted), a
// kind the scenario lacks is added; the scenario's `errors` faults of that kind are replaced by the
// fragment's (an `errors` fault for every kind, `kind` null or absent, becomes one per kind not
// fitted, in its place, so that it does not add to a fitted kind's errors); its producers of that
// kind are replaced by the fragment's Poisson producers. Everything else stays as written.
//
// Contract: the result loads (sim/scenario/load.h), or it is the first problem as "FILE:
// /pointer: reason" (the scenario's own, or the merged scenario's, named "FILE (merged with the
// fit)"). Deterministic; never throws.
#pragma once

#include <string>
#include <string_view>

#include "sim/base/expected.h"

namespace drainsim::experiments {

base::Expected<std::string> MergeFitInto(std::string_view scenario_text,
                                         const std::string& scenario_path,
                                         std::string_view fragment_text);

}  // namespace drainsim::experiments
