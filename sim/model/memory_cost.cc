#include "sim/model/memory_cost.h"

#include <cinttypes>
#include <cstdio>

namespace drainsim::model {

namespace {

// "105 kB", "17.2 GB": the cap's memory at the measured cost of a message.
std::string CapBytes(int64_t pending_messages_max) {
  const double bytes = static_cast<double>(pending_messages_max) * kBytesPerPendingMessage;
  char text[32];
  if (bytes < 1e6) {
    std::snprintf(text, sizeof text, "%.0f kB", bytes / 1e3);
  } else if (bytes < 1e9) {
    std::snprintf(text, sizeof text, "%.0f MB", bytes / 1e6);
  } else {
    std::snprintf(text, sizeof text, "%.1f GB", bytes / 1e9);
  }
  return text;
}

std::string CapText(int64_t pending_messages_max) {
  char text[96];
  std::snprintf(text, sizeof text, "more than %" PRId64 " messages pending at once (the cap: about ",
                pending_messages_max);
  char cost[48];
  std::snprintf(cost, sizeof cost, " at %.0f bytes a message)", kBytesPerPendingMessage);
  return text + CapBytes(pending_messages_max) + cost;
}

}  // namespace

PendingMessagesMaxExceeded::PendingMessagesMaxExceeded(int64_t pending_messages_max)
    : std::runtime_error(CapText(pending_messages_max)),
      pending_messages_max_(pending_messages_max) {}

PendingMessagesMaxExceeded::PendingMessagesMaxExceeded(int64_t pending_messages_max,
                                                       const std::string& scenario_name,
                                                       uint64_t seed, double at_s)
    : std::runtime_error([&] {
        char where[96];
        std::snprintf(where, sizeof where, "' with seed %" PRIu64 ", at %.6f s simulated", seed,
                      at_s);
        return CapText(pending_messages_max) + " in the run of scenario '" + scenario_name +
               where;
      }()),
      pending_messages_max_(pending_messages_max) {}

[[gnu::cold]] void ThrowPendingMessagesMaxExceeded(int64_t pending_messages_max) {
  throw PendingMessagesMaxExceeded(pending_messages_max);
}

}  // namespace drainsim::model
