#include "live/reconnect.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace drainsim::live {

int64_t ReconnectDelayMs(const ReconnectPolicy& policy, int n) {
  int64_t delay = policy.first_ms;
  for (int i = 0; i < n && delay < policy.cap_ms; ++i) delay *= 2;  // stops before it overflows
  return std::min(delay, policy.cap_ms);
}

std::vector<int64_t> ReconnectSchedule(const ReconnectPolicy& policy) {
  std::vector<int64_t> waits;
  int64_t total = 0;
  for (int n = 0; n + 1 < policy.attempts_max && total < policy.total_max_ms; ++n) {
    const int64_t wait = std::min(ReconnectDelayMs(policy, n), policy.total_max_ms - total);
    waits.push_back(wait);
    total += wait;
  }
  return waits;
}

namespace {

// Sleeps `ms`, polling give_up every 20 ms; false when it said to give up.
bool Wait(int64_t ms, const std::function<bool()>& give_up) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < until) {
    if (give_up()) return false;
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
        until - std::chrono::steady_clock::now(), std::chrono::milliseconds(20)));
  }
  return true;
}

}  // namespace

base::Expected<std::unique_ptr<AmqpConnection>> OpenWithRetry(
    const std::string& url, const std::string& name, const ReconnectPolicy& policy,
    const std::function<bool(AmqpConnection&)>& setup, const std::function<bool()>& give_up,
    int* tries) {
  const std::vector<int64_t> waits = ReconnectSchedule(policy);
  std::string last;
  int made = 0;
  for (size_t i = 0; i <= waits.size(); ++i) {
    if (i > 0 && !Wait(waits[i - 1], give_up)) break;
    if (give_up()) break;
    ++made;
    base::Expected<std::unique_ptr<AmqpConnection>> c = AmqpConnection::Open(url, name);
    if (!c) {
      last = c.error();
      continue;
    }
    if (!setup || setup(**c)) {
      if (tries != nullptr) *tries = made;
      return c;
    }
    last = (*c)->error();
  }
  if (tries != nullptr) *tries = made;
  return base::Failure{name + ": no connection after " + std::to_string(made) + " tries: " + last};
}

}  // namespace drainsim::live
