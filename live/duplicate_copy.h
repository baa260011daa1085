// Republished copies received twice (retry.delivery republish, live/topology.h).
//
// A failed attempt's copy goes through a delay queue back to the main queue. With quorum delay
// queues and at-least-once dead-lettering the broker may hand the same copy to the main queue
// twice (RabbitMQ's dead-letter worker forwards again a copy whose confirm or settle it did not
// see, e.g. across a restart), and a republish sent again after a lost confirm
// (Worker::PublishConfirmed) is a second copy too. The harness's ledger numbers attempts by the
// deliveries it received (live/run_state.h (1)), so a second copy run as a delivery would shift
// every later attempt of the message (its fate, its backoff, attempts_max) and start a second
// retry chain: a second DLQ entry for one message. Decision: the worker treats the second copy as
// what it is, a duplicate delivery of a retry the harness already holds: it acks it without
// running it and counts it (duplicate_copies in live.json, a duplicate_copy event), like a
// consumer that deduplicates its own retries by (message, attempt). The original's redeliveries
// (the redelivered flag: a crash, a restart, a lost ack) are never duplicates: they run.
//
// Invariants:
//  (1) CopyKey is nullopt for anything but a republished copy (x-drainsim-attempt >= 2): the
//      producer's messages and its resends (attempt 1) are never deduplicated here.
//  (2) The key grows with the message's life (a drain's replay, x-drainsim-life-base) and with the
//      attempt, so a replay's copies are never taken for an earlier life's.
//  (3) IsDuplicateCopy raises `seen` to `key` atomically: of two copies with one key received at
//      once by two workers, exactly one is the first.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>

#include "live/amqp_connection.h"

namespace drainsim::live {

// life_base * 65536 + attempt for a republished copy; nullopt otherwise (1).
std::optional<int64_t> CopyKey(const AmqpHeaders& headers);

// True when a copy with `key` was received before and this one is not a redelivery; raises
// `seen` to `key` otherwise (3).
bool IsDuplicateCopy(std::atomic<int64_t>& seen, int64_t key, bool redelivered);

}  // namespace drainsim::live
