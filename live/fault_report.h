// What `drainsim live` reports of worker crashes and lost acks (live/fault_plan.h): the checks
// that must agree exactly with the simulation, the summary lines and live.json's "faults".
//
// Exact (a run with a worker_crash or ack_loss fault): crashes (any point), crashes between
// commit and ack, acks lost, and what followed them: the fated messages' later commits
// (duplicate executions: a second row in the executions table) and later claim suppressions.
// Shown beside them, not judged: the run's duplicate executions and suppressions in all (a
// channel closed by the consumer timeout returns every unacked delivery of the channel, and a
// running attempt's commit then runs again: the simulation returns only the lost one), the
// channels closed, settles dropped and handlers rolled back.
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>
#include <vector>

#include "live/live_report.h"

namespace drainsim::live {

// Empty when the plan has no worker_crash or ack_loss fault.
std::vector<Check> FaultChecks(const LiveResult& live, const Plan& plan);

// Nothing when the plan has no such fault.
void PrintFaultSummary(std::FILE* out, const LiveResult& live, const Plan& plan);

// live.json's "faults" object (null without such a fault).
nlohmann::json FaultJson(const LiveResult& live, const Plan& plan);

}  // namespace drainsim::live
