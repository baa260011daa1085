// What `drainsim live` reports of the errors and bug faults (live/attempt_fates.h): the check
// that must agree exactly with the simulation, the summary line and live.json's "injected".
//
// Exact (a run with an errors fault): errors_failed, the attempts failed by an errors fault,
// live against the simulation's (every attempt the plan pinned fails live, and no other). Shown,
// not judged: the attempts a bug fault failed and its victims (which victims' attempts fail
// depends on when they run against the wall clock's fixed_at_s).
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>
#include <vector>

#include "live/live_report.h"

namespace drainsim::live {

// Empty when the plan has no errors fault.
std::vector<Check> InjectedChecks(const LiveResult& live, const Plan& plan);

// Nothing when the plan has no errors or bug fault.
void PrintInjectedSummary(std::FILE* out, const LiveResult& live, const Plan& plan);

// live.json's "injected" object (null without an errors or bug fault).
nlohmann::json InjectedJson(const LiveResult& live, const Plan& plan);

}  // namespace drainsim::live
