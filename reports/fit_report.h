// `drainsim fit`'s outputs from its result (experiments/results/fit_result.h): the scenario
// fragment whose every fitted value carries its provenance, and the summary for people.
//
// The fragment (docs/TELEMETRY.md, "drainsim fit"): {"kinds": {K: {"handler": {"validate_ms":
// {"constant": 0}, "db_ops": 0, "downstream_calls": 0, "cpu_ms": DIST}}}, "faults": [errors
// faults], "producers": [poisson producers]}; the handler time as one step (spans do not split
// it), unless the spans carried database statements: then "db_ops": N, "db_op_ms": DIST and
// cpu_ms the rest of the handler's time. Each fitted value's object holds "fitted": {"from": FILES, "n": N, "method": ..., "ks":
// D (distributions), "interval": [low, high] or, for a lognormal, {"mu": [...], "sigma":
// [...]}} (95%).
//
// Contract: pure functions; the same result gives the same bytes (sorted keys, numbers to 6
// decimals as report.json writes them).
#pragma once

#include <string>

#include "experiments/results/fit_result.h"

namespace drainsim::reports {

std::string FitFragment(const experiments::FitResult& fit);
std::string FitSummary(const experiments::FitResult& fit);

}  // namespace drainsim::reports
