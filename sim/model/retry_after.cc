#include "sim/model/retry_after.h"

#include <algorithm>

#include "sim/base/check.h"

namespace drainsim::model {

using config::RetryAfterFormat;
using engine::Duration;
using engine::Instant;

namespace {

constexpr int64_t kMicrosPerSecond = 1'000'000;

// ceil(micros / 1 s) for any sign: C++ division truncates toward zero, which is already the
// ceiling for negative quotients.
int64_t CeilSeconds(int64_t micros) {
  return micros / kMicrosPerSecond + (micros % kMicrosPerSecond > 0 ? 1 : 0);
}

}  // namespace

RetryAfterAnswer AnswerRetryAfter(RetryAfterFormat format, Instant now, Instant ready_at,
                                  Duration clock_skew) {
  DRAINSIM_CHECK(format != RetryAfterFormat::kNone);
  RetryAfterAnswer answer;
  switch (format) {
    case RetryAfterFormat::kSeconds:
      // The skew cancels in the server's own difference ready_at - now.
      answer.header_value_s = std::max(int64_t{0}, CeilSeconds((ready_at - now).micros()));
      answer.wait = Duration::Seconds(answer.header_value_s);
      break;
    case RetryAfterFormat::kHttpDate: {
      const Instant ready_by_server_clock = ready_at + clock_skew;
      answer.header_value_s = CeilSeconds(ready_by_server_clock.micros());
      // The client reads the server-time date D as if it were client time.
      const Instant date_as_read = Instant::Zero() + Duration::Seconds(answer.header_value_s);
      answer.wait = std::max(Duration::Zero(), date_as_read - now);
      break;
    }
    case RetryAfterFormat::kNone:
      break;  // refused above
  }
  DRAINSIM_CHECK(answer.wait >= Duration::Zero());
  return answer;
}

Duration ClientWaitForRetryAfter(RetryAfterFormat format, Instant now, Instant ready_at,
                                 Duration clock_skew) {
  return AnswerRetryAfter(format, now, ready_at, clock_skew).wait;
}

}  // namespace drainsim::model
