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
//  (1) A pure function of the log (one TraceRecorder run with only_id or only_key) and the
//      scenario it ran: the same run gives the same text.
//  (2) One line per thing that happened, in the order it happened; lines that say the same
//      thing at the same instant are merged (a delivery and the attempt it starts, a commit and
//      its ack).
#pragma once

#include <string>

#include "sim/config/config.h"
#include "sim/model/trace_log.h"

namespace drainsim::reports {

// Every life in `log`, each followed by its "why" paragraph; with several lives (a key shared
// by several messages) a closing paragraph about the key. REQUIRES: !log.lives.empty().
std::string ExplainLives(const model::TraceLog& log, const config::Scenario& scenario);

// The "why" paragraph of one life, without the "why: " prefix.
std::string WhyParagraph(const model::MessageLife& life, const model::TraceLog& log,
                         const config::Scenario& scenario);

}  // namespace drainsim::reports
