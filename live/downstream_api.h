// The scenario's downstream API as `drainsim live` serves it (issue 14, "downstream calls go to a
// small in-process HTTP server with the scenario's rate limit and Retry-After"): what one call
// is answered, decided the way the simulation decides it (sim/model/world_attempt.cc,
// CallDownstream), with the model's own token bucket (sim/model/token_bucket.h) and Retry-After
// arithmetic (sim/model/retry_after.h). No sockets here: live/downstream_server.h serves it.
//
// Time is the run's clock: microseconds since the plan's time 0 (the instant the producer starts,
// EventLog's origin), as engine::Instant, so that the scenario's fault windows mean the same
// instants as the harness's other faults (live/db_outage.h, live/fault_plan.h).
//
// Per call, in the model's order:
//   a downstream_outage window is open          -> 503 after the call's duration (transient);
//   else a rate limit is in force, bucket empty -> 429 at once, with Retry-After in the
//                                                  scenario's style (none: no header);
//   else                                        -> 200 after the call's duration.
// A downstream_rate_limit window sets the bucket's rate and burst at its start (TokenBucket::
// SetRate: tokens accrued so far are kept, capped at the new burst), and at its end puts back the
// scenario's own limit (or none), as the model does even while another such window is open.
//
// Retry-After "http_date": the model's clocks count from an epoch that falls on a whole second of
// each; live, that epoch is `epoch_utc_s`, the UTC second the run started in (floored), and the
// header is the IMF-fixdate of epoch_utc_s + D, D = AnswerRetryAfter's header_value_s. The client
// (live/downstream_client.h) reads it against the same epoch, so its wait is the model's.
//
// The call's duration is drawn from downstream.call_ms on the stream (seed, "live-downstream",
// CallKey(id, attempt, call)): the same for the same call of the same run, whatever the
// connection or thread that serves it.
//
// Invariants:
//  (1) Decide() is monotone in time: a `now` earlier than the latest seen is taken as the latest
//      (threads race to the lock; the bucket's clock never goes backwards).
//  (2) A 429 carries a Retry-After header iff downstream.retry_after != none; its value is what
//      model::AnswerRetryAfter says for the bucket's NextAvailable.
//  (3) A 429 takes no time; 200 and 503 take the drawn call duration (the server sleeps it).
//
// Thread-safety: none; live/downstream_server.h holds a mutex around Decide().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/engine/time.h"
#include "sim/model/durations.h"
#include "sim/model/token_bucket.h"
#include "sim/scenario/load.h"

namespace drainsim::live {

struct DownstreamAnswer {
  int status = 200;           // 200, 429 or 503
  int64_t call_us = 0;        // how long the server takes before answering (0 for a 429)
  std::string retry_after;    // the Retry-After header's value; empty: no header
  int64_t retry_after_s = 0;  // AnswerRetryAfter's header_value_s (429 with a header only)
};

// What drainsim live cannot run of the scenario's downstream API, at its JSON pointer; sets
// handled[i] for every downstream_outage and downstream_rate_limit fault i (served here).
// Refused: Retry-After "http_date" honoured with retry.delivery republish (its waits are any
// number of microseconds: no delay queue per level, live/retry_plan.h), "seconds" honoured with
// republish when its levels would be more than kDelayLevelsMax, and more than
// kDownstreamSlotsMax worker slots (one server thread per slot's connection).
inline constexpr int64_t kDownstreamSlotsMax = 512;
std::vector<scenario::Problem> CheckDownstreamSupport(const config::Scenario& scenario,
                                                      std::vector<bool>* handled);

// With retry.delivery republish and a rate_limited class that retries honouring a "seconds"
// Retry-After: the delay levels (ms) a 429's wait can take, 1 s .. N s, where N s is the longest
// wait for one token at the slowest rate in force (the scenario's or a downstream_rate_limit
// fault's): Retry-After = ceil(time to the next token) is never 0 and never more. The harness
// declares a delay queue for each (live/retry_plan.h). Empty otherwise.
std::vector<int64_t> RetryAfterLevelsMs(const config::Scenario& scenario);

// The key of call `call` (from 0) of attempt `attempt` (from 1) of message `id`.
uint64_t CallKey(uint64_t id, int attempt, int call);

// "Sun, 06 Nov 1994 08:49:37 GMT" for whole seconds since 1970 (UTC).
std::string ImfFixdate(int64_t utc_s);
// The inverse; nullopt if `text` is not an IMF-fixdate.
std::optional<int64_t> ParseImfFixdate(const std::string& text);

class DownstreamApi {
 public:
  // REQUIRES: scenario.downstream is set (a loaded scenario's invariants hold)
  DownstreamApi(const config::Scenario& scenario, uint64_t seed, int64_t epoch_utc_s);
  // It keeps a reference into the scenario: a temporary would dangle (ASan: stack-use-after-scope).
  DownstreamApi(config::Scenario&&, uint64_t, int64_t) = delete;

  DownstreamAnswer Decide(engine::Instant now, uint64_t call_key);

  int64_t epoch_utc_s() const { return epoch_utc_s_; }
  // Tokens in the bucket at the latest instant seen; -1 without a rate limit in force.
  int64_t tokens() const;

 private:
  struct Edge {
    engine::Instant at;
    bool open = false;
    double rate_per_s = 0;
    int64_t burst = 1;
  };
  void ApplyEdges(engine::Instant now);
  bool InOutage(engine::Instant now) const;

  const config::Downstream& api_;
  uint64_t seed_;
  int64_t epoch_utc_s_;
  model::DurationSampler call_;
  std::optional<model::TokenBucket> bucket_;
  std::vector<Edge> edges_;  // rate-limit windows' starts and ends, in time order
  size_t next_edge_ = 0;
  std::vector<std::pair<engine::Instant, engine::Instant>> outages_;
  engine::Instant latest_ = engine::Instant::Zero();
};

}  // namespace drainsim::live
