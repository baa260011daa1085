// Retries with backoff for real (issue 14): how `retry.delivery` republish and
// sleep_in_consumer wait live, and which waits they use.
//
//  - sleep_in_consumer: the worker's slot keeps the message (unacked) and sleeps the backoff,
//    then runs the next attempt itself, as the simulation does (docs/MODEL.md, "Workers").
//  - republish: the failed attempt publishes a copy (same id, kind, key; the next attempt's
//    number in x-drainsim-attempt) with a per-message TTL (AMQP `expiration`) = the backoff to
//    a delay queue that dead-letters to the main queue when it expires, waits for the publisher
//    confirm, then acks the original. The copy is a new message to the broker: its
//    x-delivery-count starts again, as the simulation's republish counts no return.
//
// Delay queues: RabbitMQ expires messages only at the head of a queue ("Time-To-Live and
// Expiration", caveats: https://www.rabbitmq.com/docs/ttl#per-message-ttl-caveats), so a long
// TTL in front holds a short one behind it past its expiry. One delay queue per distinct delay
// level: every message in a queue has the same TTL, so they expire in the order they entered,
// each on time. The levels are known before the run only for deterministic backoffs, so
// republish needs jitter "none" and a curve other than sidekiq (whose own random term is a
// jitter); a jittered backoff would need one queue per drawn delay (or a delayed-message
// plugin) and is refused at its JSON pointer. Per attempt number instead of per level would not
// be enough: two retry classes with different backoffs share attempt numbers.
//
// Contract:
//  (1) CheckRetrySupport() accepts requeue, republish (deterministic backoffs, at most
//      kDelayLevelsMax levels) and sleep_in_consumer (any backoff); anything else is refused.
//  (2) DelayLevelsMs() lists every delay (ms, rounded to the nearest, at least 1) a republish can
//      wait: the ceiling of attempts 1 .. attempts_max - 1 of every retry class, ascending,
//      without duplicates; DelayQueueName() names its queue RUN.delay.<ms>ms.
//  (3) LiveBackoffUs() is the simulation's delay for (message, attempt) when the simulation
//      drew it (PlannedMessage::backoff_us, recorded from the run observer); otherwise it is
//      drawn by model::BackoffDelay from the class's backoff on a stream of its own
//      (seed, "live-backoff", id * 1024 + attempt): deterministic, but not the simulation's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "live/plan.h"
#include "sim/config/config.h"

namespace drainsim::live {

inline constexpr size_t kDelayLevelsMax = 32;

void CheckRetrySupport(const config::RetryPolicy& retry, std::vector<scenario::Problem>* out);

std::vector<int64_t> DelayLevelsMs(const config::RetryPolicy& retry);

std::string DelayQueueName(const std::string& run_id, int64_t delay_ms);

// The delay rounded as a delay level (ms, at least 1).
int64_t DelayLevelMs(int64_t delay_us);

// The wait after attempt `attempt` (from 1) of message `m` failed with `error`.
int64_t LiveBackoffUs(const config::Scenario& s, const PlannedMessage& m, uint64_t seed,
                      int attempt, config::ErrorClass error);

}  // namespace drainsim::live
