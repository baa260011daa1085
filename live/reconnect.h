// Reconnecting to the broker after it went away (a broker_restart fault: live/broker_restart.h):
// the retry schedule every client of a live run uses (workers, the producer, the republisher's
// and parker's confirm connection, the inspector), and the retrying Open().
//
// The schedule is deterministic (no jitter: the clients are a handful on loopback, and a
// schedule a test can pin down is worth more than spreading their handshakes): the n-th retry
// (from 0) waits first_ms * 2^n, at most cap_ms. The cap is small (250 ms) because the clients
// poll for a broker that is coming back within seconds; every client gives up after
// attempts_max tries or total_max_ms of waiting, whichever comes first, and the run then fails
// with an operating error (exit 2) instead of waiting for ever.
//
// Contract:
//  (1) ReconnectDelayMs(policy, n) = min(cap_ms, first_ms * 2^n) for n >= 0 (no overflow for any
//      n); it never decreases with n.
//  (2) ReconnectSchedule(policy) lists the waits OpenWithRetry() makes before each retry until it
//      gives up: at most attempts_max - 1 waits (the first try waits nothing), and their sum never
//      exceeds total_max_ms (the last wait is cut to fit).
//  (3) OpenWithRetry() tries AmqpConnection::Open() and `setup` (qos, consume, confirm.select: the
//      state a new connection needs) first at once, then after each wait of the schedule; it
//      returns the first connection for which both succeed, or fails (with the last failure,
//      and how many tries) when the schedule ran out or `give_up()` returned true (checked
//      before every try and every 20 ms of waiting).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "live/amqp_connection.h"
#include "sim/base/expected.h"

namespace drainsim::live {

struct ReconnectPolicy {
  int64_t first_ms = 25;
  int64_t cap_ms = 250;
  int attempts_max = 400;        // tries in all, the first included
  int64_t total_max_ms = 60000;  // the sum of the waits
};

// Contract (1). REQUIRES: n >= 0, first_ms >= 1, cap_ms >= first_ms
int64_t ReconnectDelayMs(const ReconnectPolicy& policy, int n);

// Contract (2).
std::vector<int64_t> ReconnectSchedule(const ReconnectPolicy& policy);

// Contract (3). `setup` may be empty (nothing to set up); `tries` (optional) gets the number of
// tries made. It stays an out-parameter rather than a member of the Expected's value because it
// is set on failure as well as on success (a test checks both), and most callers ignore it.
base::Expected<std::unique_ptr<AmqpConnection>> OpenWithRetry(
    const std::string& url, const std::string& name, const ReconnectPolicy& policy,
    const std::function<bool(AmqpConnection&)>& setup, const std::function<bool()>& give_up,
    int* tries = nullptr);

}  // namespace drainsim::live
