// `drainsim explain SCENARIO --list CLASS`: the messages of one class report.json counts
// (sim/model/message_classes.h: duplicates, human, dlq, parked), one a line by id, under a
// header that gives the count as report.json does:
//
//   18 duplicate executions (duplicate_executions) in 17 messages: scenario lost-acks, seed 1, ...
//   17	email:user-17	lost_ack
//
// A line is tab-separated: the id, the key ("-" for none), and why it is in the class: for dlq,
// parked and human, report.json's human_needed_by_reason key (dlq:<reason>, parked:<error>,
// parked:drain, failed:<reason>); for duplicates, the cause of each of its duplicate executions
// (duplicates_by_cause's names), separated by commas.
//
// Contract: a pure function of its arguments; members are printed in the order given (by id).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/model/message_classes.h"

namespace drainsim::reports {

// The run the list comes from, for its header.
struct ListedRun {
  std::string scenario;
  uint64_t seed = 0;
  uint64_t fingerprint = 0;
};

std::string ExplainList(model::MessageClass message_class,
                        const std::vector<model::ClassMember>& members, const ListedRun& run);

// A dlq or parked member's key in report.json's human_needed_by_reason: "dlq:max_attempts",
// "parked:permanent", "parked:drain", "failed:max_attempts".
std::string HumanNeededReason(const model::ClassMember& member);

}  // namespace drainsim::reports
