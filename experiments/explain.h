// What `drainsim explain` hands the report of the scenario that ran (reports/explain_report.h's
// ExplainScene): the report reads results and these few settings, never the Scenario itself.
//
// Contract: a pure function of the scenario; every producer and backlog entry has its entry.
#pragma once

#include "reports/explain_report.h"
#include "sim/config/config.h"

namespace drainsim::experiments {

reports::ExplainScene ExplainSceneOf(const config::Scenario& scenario);

}  // namespace drainsim::experiments
