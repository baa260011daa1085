// What a run's messages cost in memory, and the cap on messages pending at once that follows.
// The figures and the decision: sim/config/memory_cost.h. Here: what the model throws at the cap.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "sim/config/memory_cost.h"

namespace drainsim::model {

// The figures the model and its callers use, under the model's name.
using config::kBytesPerPendingMessage;
using config::kPendingMessagesMaxDefault;
using config::kPendingMessagesMaxLimit;

// Thrown by MessageStore::Create, through RunSimulation, when one more message would exceed the
// cap: see (1). RunSimulation rethrows it with the run named (the store knows neither the
// scenario nor the time); what() is then one line: the cap, its memory, the scenario, the seed
// and the simulated instant.
class PendingMessagesMaxExceeded : public std::runtime_error {
 public:
  explicit PendingMessagesMaxExceeded(int64_t pending_messages_max);
  PendingMessagesMaxExceeded(int64_t pending_messages_max, const std::string& scenario_name,
                             uint64_t seed, double at_s);
  int64_t pending_messages_max() const { return pending_messages_max_; }

 private:
  int64_t pending_messages_max_ = 0;
};

// Throws PendingMessagesMaxExceeded(pending_messages_max): out of line, so that the hot path
// that may call it (MessageStore::Create, inlined into every publish) holds only a call.
[[noreturn]] void ThrowPendingMessagesMaxExceeded(int64_t pending_messages_max);

}  // namespace drainsim::model
