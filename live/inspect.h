// After a live run's threads: waiting for the broker's queues to go quiet, and finding where
// every message ended (acked, in the DLQ, parked, unfinished, or lost) by taking what the
// broker still holds. Part of the harness (live/harness.cc), apart because it reads the broker,
// not the run's threads.
//
// Thread-safety: called from the harness's thread only, after (Inspect) or while (WaitEmpty)
// the workers run; they read RunState's atomics.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "live/amqp_connection.h"
#include "live/drainer.h"
#include "live/harness.h"
#include "live/run_state.h"

namespace drainsim::live {

// Under a broker_restart: the inspector's connection opened again once the broker dropped it
// (live/reconnect.h); false (and RunState::Fail) when it cannot be, or it failed otherwise.
bool ReopenInspector(RunState& state, std::unique_ptr<AmqpConnection>& inspector);

// Waits until nothing is ready in the main queue nor waiting in a delay queue, nothing is in
// flight and nothing has moved for a while, on three polls in a row; returns the time of the
// last movement (the last settle), or nullopt at `until`, on a stop or a failure.
// `drain`: null without a drain.
std::optional<double> WaitEmpty(RunState& state, std::unique_ptr<AmqpConnection>& inspector,
                                std::chrono::steady_clock::time_point until,
                                const DrainShared* drain);

// Takes every message left in the DLQ, the parking queue, the main queue and the delay queues
// and counts where each confirmed id (`expected`) ended in *r; logs each one found.
void Inspect(RunState& state, AmqpConnection& c, const std::vector<bool>& expected, LiveResult* r);

}  // namespace drainsim::live
