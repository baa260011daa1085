#include "live/live_traffic.h"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "reports/metrics.h"
#include "sim/engine/time.h"
#include "sim/model/histogram.h"
#include "sim/model/world.h"

namespace drainsim::live {

namespace {

using Clock = std::chrono::steady_clock;

int64_t MicrosSince(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
}

// The arrivals waiting for an executor, and the completed queries.
struct Shared {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<LiveArrival> waiting;
  bool done = false;  // no more arrivals
  LiveTrafficRun run;

  void Complete(const LiveQuery& q) {
    std::lock_guard<std::mutex> lock(mu);
    run.queries.push_back(q);
  }
};

struct Query {
  PgPool* pool;
  int64_t timeout_ms;
  Clock::time_point start;
};

// One query, wait for a connection included (the header's decisions).
LiveQuery Execute(const Query& ctx, const LiveArrival& a) {
  LiveQuery q;
  q.arrival_us = a.at_us;
  q.query_us = a.query_us;
  q.issued_us = MicrosSince(ctx.start);
  q.acquired_us = -1;
  const int64_t deadline_us = a.at_us + ctx.timeout_ms * 1000;
  auto finish = [&](LiveOutcome outcome) {
    q.outcome = outcome;
    q.done_us = MicrosSince(ctx.start);
    if (q.acquired_us < 0) q.acquired_us = q.done_us;
    return q;
  };
  const int64_t left_ms = (deadline_us - MicrosSince(ctx.start)) / 1000;
  if (left_ms <= 0) return finish(LiveOutcome::kTimeout);
  PGconn* conn = ctx.pool->Acquire(std::chrono::milliseconds(left_ms));
  if (conn == nullptr) return finish(LiveOutcome::kTimeout);
  q.acquired_us = MicrosSince(ctx.start);
  const std::optional<int64_t> lowered_ms =
      LoweredTimeoutMs(ctx.timeout_ms, q.acquired_us - a.at_us);
  if (lowered_ms && *lowered_ms <= 0) {
    ctx.pool->Release(conn);
    return finish(LiveOutcome::kTimeout);
  }
  const bool lowered = lowered_ms.has_value();
  if (lowered) {
    if (const base::Expected<int64_t> set =
            PgExec(conn, "SET statement_timeout = " + std::to_string(*lowered_ms));
        !set) {
      ctx.pool->Release(conn);
      return finish(PgTimedOut(set.error()) ? LiveOutcome::kTimeout : LiveOutcome::kRefused);
    }
  }
  // pg_sleep, or with a db_slowdown the run's function: the same database slows the live
  // queries and the workers' alike, as the model's one database (live/db_faults.h).
  const base::Status worked = ctx.pool->RunWork(conn, a.query_us, "");
  q = finish(worked                       ? LiveOutcome::kOk
             : PgTimedOut(worked.error()) ? LiveOutcome::kTimeout
                                          : LiveOutcome::kRefused);
  if (lowered) {  // best effort: the connection's own timeout back (a failure shows next use)
    (void)PgExec(conn, "SET statement_timeout = " + std::to_string(ctx.timeout_ms));
  }
  ctx.pool->Release(conn);
  return q;
}

void Executor(Shared& shared, const Query& ctx) {
  for (;;) {
    LiveArrival a;
    {
      std::unique_lock<std::mutex> lock(shared.mu);
      shared.cv.wait(lock, [&] { return shared.done || !shared.waiting.empty(); });
      if (shared.waiting.empty()) return;
      a = shared.waiting.front();
      shared.waiting.pop_front();
    }
    shared.Complete(Execute(ctx, a));
  }
}

// Sleeps until `at`, in 50 ms steps so that `stop` is seen; false if stopped first.
bool SleepUntil(Clock::time_point at, const std::atomic<bool>& stop) {
  while (!stop) {
    const auto now = Clock::now();
    if (now >= at) return true;
    std::this_thread::sleep_for(std::min<Clock::duration>(at - now, std::chrono::milliseconds(50)));
  }
  return false;
}

}  // namespace

std::optional<int64_t> LoweredTimeoutMs(int64_t timeout_ms, int64_t waited_us) {
  const int64_t waited_ms = std::max<int64_t>(0, waited_us) / 1000;  // whole milliseconds
  if (waited_ms == 0) return std::nullopt;
  return timeout_ms - waited_ms;
}

LiveArrivals::LiveArrivals(const config::LiveTraffic& traffic, uint64_t seed)
    : rate_per_s_(traffic.rate_per_s),
      query_(traffic.query_ms, 1e3),
      rng_(engine::Rng::ForStream(seed, model::kStreamLive, 0)) {}

std::optional<LiveArrival> LiveArrivals::Next(int64_t until_us) {
  if (ended_ || next_us_ >= until_us) return std::nullopt;
  // The model's order (World::LiveQuery): the query's draw, then the gap to the next arrival.
  LiveArrival a{next_us_, query_.Sample(rng_).micros()};
  const double gap_us = std::nearbyint(-std::log(rng_.NextOpenDouble()) / rate_per_s_ * 1e6);
  if (gap_us < static_cast<double>(engine::kInputMicrosMax)) {
    next_us_ += static_cast<int64_t>(gap_us);
  } else {
    ended_ = true;
  }
  return a;
}

LiveTrafficRun RunLiveTraffic(const config::Scenario& scenario, uint64_t seed, PgPool* pool,
                              Clock::time_point start, const std::atomic<bool>& stop) {
  const config::Database& db = *scenario.database;
  const Query ctx{pool, db.timeout.micros() / 1000, start};
  Shared shared;
  // More executors than connections, so that a backlog of live queries waits at the pool itself,
  // beside the workers' queries, as in the model's one queue (contract (2)).
  const int executors = static_cast<int>(std::min<int64_t>(db.connections * 4, kLiveExecutorsMax));
  std::vector<std::thread> threads;
  for (int i = 0; i < executors; ++i) {
    threads.emplace_back([&shared, &ctx] { Executor(shared, ctx); });
  }
  LiveArrivals arrivals(*db.live_traffic, seed);
  const int64_t until_us = (scenario.run.until - engine::Instant::Zero()).micros();
  int64_t late = 0;
  while (std::optional<LiveArrival> a = arrivals.Next(until_us)) {
    if (!SleepUntil(start + std::chrono::microseconds(a->at_us), stop)) break;
    if (MicrosSince(start) - a->at_us > 10'000) ++late;
    std::lock_guard<std::mutex> lock(shared.mu);
    if (shared.waiting.size() >= kLiveOutstandingMax) {
      shared.run.queries.push_back({a->at_us, a->at_us, LiveOutcome::kShed});
      continue;
    }
    shared.waiting.push_back(*a);
    shared.cv.notify_one();
  }
  {
    std::lock_guard<std::mutex> lock(shared.mu);
    shared.done = true;
  }
  shared.cv.notify_all();
  for (std::thread& t : threads) t.join();
  shared.run.late_issues = late;
  return std::move(shared.run);
}

LiveTrafficFigures SummariseLiveTraffic(const LiveTrafficRun& run, std::optional<double> end_s) {
  LiveTrafficFigures f;
  f.present = true;
  f.end_s = end_s;
  f.late_issues = run.late_issues;
  f.issued = static_cast<int64_t>(run.queries.size());
  model::Histogram latency_us, issue_lag_us, pool_wait_us, overhead_us;
  const double end_us = end_s ? *end_s * 1e6 : 0;
  for (const LiveQuery& q : run.queries) {
    if (end_s && static_cast<double>(q.done_us) > end_us) continue;
    ++f.queries;
    switch (q.outcome) {
      case LiveOutcome::kOk:
        break;
      case LiveOutcome::kTimeout:
        ++f.timeouts;
        break;
      case LiveOutcome::kRefused:
        ++f.refusals;
        break;
      case LiveOutcome::kShed:
        ++f.shed;
        continue;  // never ran: no latency
    }
    latency_us.Record(std::max<int64_t>(0, q.done_us - q.arrival_us));
    issue_lag_us.Record(std::max<int64_t>(0, q.issued_us - q.arrival_us));
    pool_wait_us.Record(std::max<int64_t>(0, q.acquired_us - q.issued_us));
    if (q.outcome == LiveOutcome::kOk) {
      overhead_us.Record(std::max<int64_t>(0, q.done_us - q.acquired_us - q.query_us));
    }
  }
  using reports::Stat;
  f.issue_lag_p50_ms = reports::HistogramStat(issue_lag_us, Stat::kP50, 1e3);
  f.issue_lag_p99_ms = reports::HistogramStat(issue_lag_us, Stat::kP99, 1e3);
  f.pool_wait_p50_ms = reports::HistogramStat(pool_wait_us, Stat::kP50, 1e3);
  f.pool_wait_p99_ms = reports::HistogramStat(pool_wait_us, Stat::kP99, 1e3);
  f.overhead_p50_ms = reports::HistogramStat(overhead_us, Stat::kP50, 1e3);
  f.overhead_p99_ms = reports::HistogramStat(overhead_us, Stat::kP99, 1e3);
  f.errors = f.timeouts + f.refusals + f.shed;
  f.p50_ms = reports::HistogramStat(latency_us, reports::Stat::kP50, 1e3);
  f.p99_ms = reports::HistogramStat(latency_us, reports::Stat::kP99, 1e3);
  f.max_ms = reports::HistogramStat(latency_us, reports::Stat::kMax, 1e3);
  return f;
}

}  // namespace drainsim::live
