// `drainsim explain`: the life of one message, or of every message with one idempotency key, in
// words and simulated times, and a closing "why" paragraph: why it needed a human, why it ran
// twice (and from what cause), or that nothing unusual happened.
//
//      7200.010 s  delivered to worker 3, attempt 1 started
//      7205.011 s  attempt 1 failed: transient (database statement timeout)
//      7205.011 s  retry scheduled for 7207.402 s (backoff 2.391 s)
//   why: ...
//
// Contract:
//  (1) A pure function of the log (one TraceRecorder run with only_id or only_key) and what
//      explain reads of the scenario it ran (ExplainScene): the same run gives the same text.
//  (2) One line per thing that happened, in the order it happened; lines that say the same
//      thing at the same instant are merged (a delivery and the attempt it starts, a commit and
//      its ack).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/config/enums.h"
#include "sim/model/trace_log.h"

namespace drainsim::reports {

// What explain reads of the scenario that ran, passed in: reports read results and are handed
// the few settings they name, not the whole Scenario (experiments/explain.h's ExplainSceneOf
// builds it).
struct ExplainScene {
  std::vector<std::string> producer_kinds;         // producers[i].kind
  std::vector<config::DlqReason> backlog_reasons;  // backlog[i].reason, max_attempts if unset
  std::map<std::string, config::Idempotency> idempotency;  // kind name -> its idempotency
  // retry.classes.For(error).attempts_max, indexed by the ErrorClass's value.
  std::array<int64_t, 4> attempts_max{};
  int64_t delivery_limit = 0;    // broker.delivery_limit, 0 when unset
  bool rabbitmq_quorum = false;  // broker.preset is rabbitmq_quorum: x-death's reason names
  bool delayed_retry = false;    // broker.delayed_retry is set: a return may wait delayed
  // The broker preset's defaults the scenario kept, by JSON pointer: "VALUE: preset NAME
  // [VERSION], SOURCE" (explain_rules.h names them under the lines they decided).
  std::map<std::string, std::string> preset_rules;
};

// Every life in `log`, each followed by its "why" paragraph; with several lives (a key shared
// by several messages) a closing paragraph about the key. REQUIRES: !log.lives.empty().
std::string ExplainLives(const model::TraceLog& log, const ExplainScene& scene);

// The "why" paragraph of one life, without the "why: " prefix.
std::string WhyParagraph(const model::MessageLife& life, const model::TraceLog& log,
                         const ExplainScene& scene);

}  // namespace drainsim::reports
