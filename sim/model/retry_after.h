// What a client waits after a 429: the downstream API's Retry-After header, written by the
// server and read by the client, with the rounding and clock skew that make real clients early
// or late.
//
// The server can serve again at the true instant `ready_at` (when its token bucket will hold a
// token); the client got the 429 at the true instant `now`. Our clock (the simulated clock, which
// the client's clock reads exactly) and the server's clock differ by
// clock_skew = server clock - client clock; both count from the same epoch, Instant::Zero(), which
// falls on a whole second of each.
//
// "seconds" (RFC 9110 delay-seconds, a non-negative integer): the server computes
// ready_at - now on its own clock, where the skew cancels, and rounds up so the client is never
// early:
//     N = max(0, ceil((ready_at - now) / 1 s)),    wait = N seconds.
// "http_date": the header is an absolute date on the server's clock, with 1-second resolution.
// The server's clock reads ready_at + clock_skew at the true instant ready_at, and a careful
// server rounds up so that the date is never early by its own clock:
//     D = ceil_to_whole_second(ready_at + clock_skew)          (server time)
// The client compares D with its own clock, which reads `now` (client time = true time), as if
// D were client time:
//     wait = max(0, D - now) = max(0, ceil(ready_at + clock_skew) - now).
// So the client comes back at about ready_at + clock_skew: late by the skew when the server's
// clock is ahead (skew > 0), early when it is behind (skew < 0), and then it may get another 429.
// A negative wait (the date is already past by the client's clock) is clamped to zero. With
// skew 0 both formats are never early and at most 1 s late; "http_date" rounds on the absolute
// instant, "seconds" on the remaining time, so they can differ by up to 1 s. Clients that use
// the response's Date header to cancel the skew are not modelled.
//
// Invariants:
//  (1) wait >= 0.
//  (2) With clock_skew == 0: now + wait >= ready_at (never early), and
//      wait < max(0, ready_at - now) + 1 s (less than a second late).
//  (3) "seconds" does not depend on clock_skew; "http_date" is nondecreasing in clock_skew.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>

#include "sim/config/enums.h"
#include "sim/engine/time.h"

namespace drainsim::model {

struct RetryAfterAnswer {
  // The header's number: N (delay-seconds) for "seconds"; for "http_date", the date D as whole
  // seconds since the epoch on the server's clock (the date the header would spell).
  int64_t header_value_s = 0;
  // How long the client waits from `now` before trying again; never negative.
  engine::Duration wait;
};

// The header the server writes and the wait the client derives from it.
// REQUIRES: format != RetryAfterFormat::kNone (without a header the client uses its backoff)
RetryAfterAnswer AnswerRetryAfter(config::RetryAfterFormat format, engine::Instant now,
                                  engine::Instant ready_at, engine::Duration clock_skew);

// AnswerRetryAfter(...).wait.
// REQUIRES: format != RetryAfterFormat::kNone
engine::Duration ClientWaitForRetryAfter(config::RetryAfterFormat format, engine::Instant now,
                                         engine::Instant ready_at, engine::Duration clock_skew);

}  // namespace drainsim::model
