#include "live/inspect.h"

#include <algorithm>
#include <string>
#include <thread>

#include "live/reconnect.h"
#include "live/stop_signal.h"
#include "live/topology.h"

namespace drainsim::live {

using Clock = std::chrono::steady_clock;

// Under a broker_restart: the inspector's connection opened again once the broker dropped it
// (live/reconnect.h); false (and RunState::Fail) when it cannot be, or it failed otherwise.
bool ReopenInspector(RunState& state, std::unique_ptr<AmqpConnection>& inspector) {
  if (!state.reconnect || !inspector->connection_lost()) {
    state.Fail("inspector: " + inspector->error());
    return false;
  }
  base::Expected<std::unique_ptr<AmqpConnection>> reopened =
      OpenWithRetry(state.amqp_url, "drainsim live: inspector", ReconnectPolicy{}, {},
                    [&state] { return StopRequested() || state.failed.load(); });
  if (!reopened) {
    inspector.reset();
    state.Fail("inspector: " + reopened.error());
    return false;
  }
  inspector = std::move(*reopened);
  return true;
}

// Waits until nothing is ready in the main queue nor waiting in a delay queue, nothing is in flight
// and nothing has moved for kQuietUs, on three polls in a row; returns the time of the last
// movement (the last settle).
std::optional<double> WaitEmpty(RunState& state, std::unique_ptr<AmqpConnection>& inspector,
                                Clock::time_point until, const DrainShared* drain) {
  constexpr int64_t kQuietUs = 300'000;
  int quiet = 0;
  while (Clock::now() < until && !StopRequested() && !state.failed) {
    if (state.broker_restarting || state.consumers_away > 0) {  // nor while a worker reconnects
      quiet = 0;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      continue;
    }
    std::optional<int64_t> ready = inspector->ReadyCount(state.topology.main_queue);
    const std::optional<int64_t> delayed =
        ready ? DelayedCount(*inspector, state.topology) : std::nullopt;
    if (ready && delayed) *ready += *delayed;
    if (!ready || !delayed) {
      if (!ReopenInspector(state, inspector)) return std::nullopt;
      quiet = 0;
      continue;
    }
    const int64_t now_us = static_cast<int64_t>(state.log->Now() * 1e6);
    // Quiet since the last settle and since the last consumer came back after a restart: an
    // expired copy waiting for at-least-once dead-lettering into the main queue is neither
    // ready nor delayed (seen: runs ended 0.05-0.2 s before 8 such copies arrived, before and
    // after the workers were back). The last settle stays the settle time returned.
    const int64_t since_us = std::max<int64_t>(state.last_activity_us, state.consumer_back_us);
    const bool still = now_us - since_us >= kQuietUs;
    const bool drain_idle = drain == nullptr || drain->idle;
    quiet = (*ready == 0 && state.in_flight == 0 && still && drain_idle) ? quiet + 1 : 0;
    if (quiet == 3) return static_cast<double>(state.last_activity_us) / 1e6;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return std::nullopt;
}

namespace {

// Takes every message of `queue` (basic.get, auto-ack; bounded by `limit`) and calls `f`.
template <typename F>
bool Drain(AmqpConnection& c, const std::string& queue, size_t limit, F f) {
  for (size_t i = 0; i <= limit; ++i) {
    std::optional<AmqpMessage> m = c.Get(queue);
    if (!m) return c.Ok();
    f(*m);
  }
  return c.Ok();
}

}  // namespace

// `expected`: the ids whose publish the broker confirmed (the DLQ backlog and the producer's).
void Inspect(RunState& state, AmqpConnection& c, const std::vector<bool>& expected, LiveResult* r) {
  const size_t n = state.plan.messages.size();
  std::vector<uint8_t> where(n, 0);  // 0 none, 1 acked, 2 dlq, 3 parked, 4 unfinished
  for (size_t id = 0; id < n; ++id) {
    if (state.acked[id]) where[id] = 1;
  }
  auto place = [&](const AmqpMessage& m, uint8_t place_code, const char* event) {
    const int64_t id = HeaderInt(m.headers, "x-drainsim-id", -1);
    if (id < 0 || static_cast<size_t>(id) >= n) return;
    if (where[id] != 0) r->double_ids.push_back(static_cast<uint64_t>(id));
    where[id] = place_code;
    // A DLQ backlog message never dead-lettered live has no x-death: its reason is the
    // backlog's, named so ("backlog:max_attempts").
    const std::string backlog = HeaderString(m.headers, "x-drainsim-dlq-reason");
    const std::string reason = !m.death_reason.empty() ? m.death_reason
                               : backlog.empty()       ? ""
                                                       : "backlog:" + backlog;
    std::string detail = reason.empty() ? "" : "reason=" + reason;
    if (m.death_count > 0) detail += " x-death-count=" + std::to_string(m.death_count);
    if (m.death_time_s > 0) detail += " x-death-time=" + std::to_string(m.death_time_s);
    state.log->Write(event, static_cast<uint64_t>(id), -1, -1, detail);
    if (place_code == 2) ++r->dlq_by_reason[reason.empty() ? "?" : reason];
  };
  bool ok =
      Drain(c, state.topology.dlq, n, [&](const AmqpMessage& m) { place(m, 2, "dead_letter"); }) &&
      Drain(c, state.topology.parking_queue, n,
            [&](const AmqpMessage& m) { place(m, 3, "parked_found"); }) &&
      Drain(c, state.topology.main_queue, n,
            [&](const AmqpMessage& m) { place(m, 4, "unfinished"); });
  // A message still waiting out its backoff in a delay queue is unfinished, never lost.
  for (const auto& [ms, name] : state.topology.delay_queues) {
    if (ok && !Drain(c, name, n, [&](const AmqpMessage& m) { place(m, 4, "unfinished"); })) {
      ok = false;
    }
  }
  if (!ok) state.Fail("inspector: " + c.error());
  for (size_t id = 0; id < n; ++id) {
    if (!expected[id]) continue;
    switch (where[id]) {
      case 1:
        ++r->acked;
        break;
      case 2:
        ++r->dead_lettered;
        break;
      case 3:
        ++r->parked;
        break;
      case 4:
        ++r->unfinished;
        break;
      default:
        r->lost_ids.push_back(static_cast<uint64_t>(id));
    }
  }
  r->lost = static_cast<int64_t>(r->lost_ids.size());
}

}  // namespace drainsim::live
