#include "live/injected_report.h"

namespace drainsim::live {

std::vector<Check> InjectedChecks(const LiveResult& r, const Plan& plan) {
  if (!plan.injected.errors) return {};
  return {{"errors_failed", r.errors_failed, plan.injected.errors_failed}};
}

void PrintInjectedSummary(std::FILE* out, const LiveResult& r, const Plan& plan) {
  const InjectedFigures& sim = plan.injected;
  if (sim.errors) {
    std::fprintf(out, "errors fault: %lld attempts failed (simulated %lld, pinned by execution)\n",
                 static_cast<long long>(r.errors_failed),
                 static_cast<long long>(sim.errors_failed));
  }
  if (sim.bug) {
    std::fprintf(out,
                 "bug fault: %lld victims; %lld attempts failed before the fix (simulated %lld, "
                 "not judged: the wall clock decides)\n",
                 static_cast<long long>(sim.bug_victims), static_cast<long long>(r.bug_failed),
                 static_cast<long long>(sim.bug_failed));
  }
}

nlohmann::json InjectedJson(const LiveResult& r, const Plan& plan) {
  const InjectedFigures& sim = plan.injected;
  if (!sim.errors && !sim.bug) return nullptr;
  return {{"live", {{"errors_failed", r.errors_failed}, {"bug_failed", r.bug_failed}}},
          {"simulated",
           {{"errors_failed", sim.errors_failed},
            {"bug_failed", sim.bug_failed},
            {"bug_victims", sim.bug_victims}}}};
}

}  // namespace drainsim::live
