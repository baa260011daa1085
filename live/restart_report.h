// What `drainsim live` reports of broker_restart faults (live/broker_restart.h): the summary
// lines and live.json's "broker_restart".
//
// live.json's "broker_restart" (null without the fault):
//   restarts [{planned_at_s, downtime_s, stop_called_s, stop_returned_s, start_called_s,
//              start_returned_s, up_s, real_downtime_s, recovery_s, first_consumer_s,
//              measured_recovery_s}]  (the run's clock; up_s: the first connection the broker
//              accepted again; real_downtime_s = up_s - stop_called_s; recovery_s: the
//              scenario's; first_consumer_s: the first worker consuming again;
//              measured_recovery_s = first_consumer_s - start_called_s, what recovery_s models)
//   node_starts_before, node_starts_after  ("Server startup complete" in the node's own log:
//              the evidence that the application really started again)
//   connections_lost, reconnects, publishes_resent, settles_dropped
//   simulated {duplicates_other, duplicates_suppressed, attempts}  (the simulation of the same
//              seed: the duplicate executions of cause "other", which are the restart's when it
//              is the scenario's only fault)
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>

#include "live/harness.h"
#include "live/plan.h"

namespace drainsim::live {

// Nothing when the scenario has no broker_restart.
void PrintRestartSummary(std::FILE* out, const LiveResult& live);

nlohmann::json RestartJson(const LiveResult& live, const Plan& plan);

}  // namespace drainsim::live
