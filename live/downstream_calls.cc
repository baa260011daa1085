#include "live/downstream_calls.h"

#include <chrono>
#include <memory>

#include "live/downstream_client.h"
#include "live/downstream_server.h"

namespace drainsim::live {

namespace {

// A call's answer never takes longer than this (the server sleeps the drawn call_ms): beyond it
// the call counts as unanswered, so that a stuck server cannot hold a slot for ever.
constexpr std::chrono::milliseconds kCallTimeout{60'000};

}  // namespace

CallsOutcome MakeDownstreamCalls(RunState& state, uint64_t id, int attempt, int worker,
                                 int64_t calls) {
  // One keep-alive connection per slot thread; closed when the slot's thread ends.
  thread_local std::unique_ptr<DownstreamClient> client;
  if (!client || client->port() != state.downstream_port) {
    client = std::make_unique<DownstreamClient>(state.downstream_port);
  }
  CallsOutcome out;
  for (int64_t n = 0; n < calls; ++n) {
    ++state.downstream_calls;
    const HttpAnswer a =
        client->Call(DownstreamRequest(id, attempt, static_cast<int>(n)), kCallTimeout);
    const int64_t now_us = static_cast<int64_t>((state.log->Now() - state.run_start_s) * 1e6);
    std::string detail = "status=" + std::to_string(a.status) + " n=" + std::to_string(n);
    if (!a.retry_after.empty()) detail += " retry_after=" + a.retry_after;
    if (a.status == 0) detail += " error=" + a.error;
    state.log->Write("downstream_call", id, worker, attempt, detail);
    if (a.status == 200) continue;
    out.ok = false;
    out.status = a.status;
    out.detail = detail;
    if (a.status == 429) {
      ++state.downstream_429s;
      if (!a.retry_after.empty()) {
        out.retry_after_us = RetryAfterWaitUs(a.retry_after, now_us, state.downstream_epoch_utc_s);
      }
    } else if (a.status == 503) {
      ++state.downstream_503s;
    } else {
      ++state.downstream_errors;
    }
    return out;
  }
  return out;
}

}  // namespace drainsim::live
