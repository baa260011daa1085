#include "live/handler.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "live/attempt_fates.h"
#include "live/downstream_calls.h"
#include "live/live_traffic.h"
#include "live/stop_signal.h"
#include "sim/config/enum_names.h"
#include "sim/engine/rng.h"
#include "sim/model/backoff.h"
#include "sim/model/durations.h"

namespace drainsim::live {

namespace {

using config::ErrorClass;

// In 50 ms steps, so that a stop (Ctrl-C, SIGTERM) is not held up by a long fail_after.
void SleepMicros(int64_t us) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(us);
  while (!StopRequested()) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= until) return;
    std::this_thread::sleep_for(
        std::min<std::chrono::steady_clock::duration>(until - now, std::chrono::milliseconds(50)));
  }
}

// Real CPU: the scenario's cpu_ms is work, not waiting.
void SpinMicros(int64_t us) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(us);
  volatile uint64_t sink = 0;
  while (std::chrono::steady_clock::now() < until) {
    for (int i = 0; i < 1000; ++i) sink = sink + static_cast<uint64_t>(i);
  }
}

std::string Quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

Verdict Route(const config::Scenario& s, ErrorClass error, int attempt, const std::string& why) {
  const config::ClassPolicy& policy = s.retry.classes.For(error);
  const std::string detail = "failed:" + std::string(config::NameOf(error)) + " (" + why + ")";
  const Action retry =
      s.retry.delivery == config::RetryDelivery::kRequeue ? Action::kRequeue : Action::kRetryLater;
  switch (policy.action) {
    case config::ClassAction::kRetry:
      if (attempt < policy.attempts_max) return {retry, detail, error};
      return {Action::kDeadLetter, detail + "; attempts_max reached", error};
    case config::ClassAction::kDeadLetter:
      return {Action::kDeadLetter, detail, error};
    case config::ClassAction::kPark:
      return {Action::kPark, detail, error};
  }
  return {Action::kDeadLetter, detail, error};
}

// A downstream call that was not answered 200, as the model routes it: a 429 is rate_limited
// (waiting its Retry-After when the class honours it), a 503 or no answer transient. The wait
// before a retry is the failure's own (Verdict::wait_us): the Retry-After, or the class's
// backoff drawn on the stream (seed, "live-downstream-backoff", id * 1024 + attempt).
Verdict CallFailed(const RunState& state, const CallsOutcome& call, uint64_t id, int attempt) {
  const config::Scenario& s = state.scenario;
  const ErrorClass error = call.status == 429 ? ErrorClass::kRateLimited : ErrorClass::kTransient;
  Verdict v = Route(s, error, attempt,
                    call.status == 429   ? "downstream 429"
                    : call.status == 503 ? "downstream 503"
                                         : "downstream unreachable");
  const config::ClassPolicy& policy = s.retry.classes.For(error);
  if (error == ErrorClass::kRateLimited && policy.honor_retry_after && call.retry_after_us) {
    v.wait_us = call.retry_after_us;
  } else if (policy.action == config::ClassAction::kRetry) {
    engine::Rng rng = engine::Rng::ForStream(
        state.plan.seed, engine::StreamId("live-downstream-backoff"), id * 1024 + attempt);
    model::BackoffState backoff;
    v.wait_us = model::BackoffDelay(policy.backoff ? *policy.backoff : s.retry.backoff,
                                    std::max(1, attempt), backoff, rng)
                    .micros();
  }
  return v;
}

struct DbOutcome {
  bool ok = false;
  std::optional<CallsOutcome> call;  // set when a downstream call failed (rolled back)
  bool suppressed = false;
  bool timed_out = false;
  bool crashed = false;  // rolled back: its worker crashed before the commit
  std::string error;
};

// A connection within the database's timeout_ms, and in `lowered_ms` what is left of the
// timeout for the first statement; null, with `out` saying why, when none came in time.
PGconn* AcquireConnection(RunState& state, int64_t timeout_ms, std::optional<int64_t>* lowered_ms,
                          DbOutcome* out) {
  const auto asked = std::chrono::steady_clock::now();
  PGconn* conn = state.pool->Acquire(std::chrono::milliseconds(timeout_ms));
  if (conn == nullptr) {
    out->timed_out = true;
    out->error = "no database connection free within timeout_ms";
    return nullptr;
  }
  // As the model's, the timeout bounds wait + service: after a wait for a connection (a pool
  // shrunk by db_connections, or busy), the transaction's first statement runs with what is
  // left (SET LOCAL: gone at COMMIT or ROLLBACK; live/live_traffic.h, LoweredTimeoutMs).
  *lowered_ms = LoweredTimeoutMs(timeout_ms, std::chrono::duration_cast<std::chrono::microseconds>(
                                                 std::chrono::steady_clock::now() - asked)
                                                 .count());
  if (*lowered_ms && **lowered_ms <= 0) {
    state.pool->Release(conn);
    out->timed_out = true;
    out->error = "waited timeout_ms for a database connection";
    return nullptr;
  }
  return conn;
}

// The kind's db_ops statements: pg_sleep, or with a db_slowdown the run's function that sleeps
// it x the server's current factor (live/db_faults.h); a later statement gets the whole timeout
// again when the first ran with a lowered one. (--db-work cpu: the run's function that burns
// server CPU instead; live/db_cpu.h.)
base::Status RunDbOps(RunState& state, PGconn* conn, const config::Kind& kind, engine::Rng& rng,
                      int64_t timeout_ms, bool lowered) {
  if (kind.handler.db_ops <= 0) return {};
  const auto op = model::DurationSampler::Millis(*kind.handler.db_op_ms);
  const std::string reset = "SET LOCAL statement_timeout = " + std::to_string(timeout_ms) + "; ";
  for (int64_t i = 0; i < kind.handler.db_ops; ++i) {
    const int64_t us = op.Sample(rng).micros();
    if (base::Status worked = state.pool->RunWork(conn, us, i > 0 && lowered ? reset : "");
        !worked) {
      return worked;
    }
  }
  return {};
}

// The row recording this execution of the message's work (what the duplicates count reads).
base::Expected<int64_t> InsertExecution(RunState& state, PGconn* conn, const PlannedMessage& m,
                                        int attempt, int worker) {
  return PgExec(conn, "INSERT INTO " + state.pool->executions_table() +
                          " (key, message_id, attempt, worker) VALUES (" + Quote(m.key) + ", " +
                          std::to_string(m.id) + ", " + std::to_string(attempt) + ", " +
                          std::to_string(worker) + ")");
}

DbOutcome RunDbWork(RunState& state, const config::Kind& kind, const PlannedMessage& m, int attempt,
                    int worker, engine::Rng& rng) {
  DbOutcome out;
  const int64_t timeout_ms = state.scenario.database->timeout.micros() / 1000;
  std::optional<int64_t> lowered_ms;
  PGconn* conn = AcquireConnection(state, timeout_ms, &lowered_ms, &out);
  if (conn == nullptr) return out;
  auto fail = [&](const std::string& error) {
    (void)PgExec(conn, "ROLLBACK");  // best effort: a dead connection is reset on release
    state.pool->Release(conn);
    out.timed_out = PgTimedOut(error);
    out.error = error;
    return out;
  };
  auto commit = [&] {
    if (const base::Expected<int64_t> committed = PgExec(conn, "COMMIT"); !committed) {
      return fail(committed.error());
    }
    state.pool->Release(conn);
    out.ok = true;
    return out;
  };
  const std::string begin =
      lowered_ms ? "BEGIN; SET LOCAL statement_timeout = " + std::to_string(*lowered_ms) : "BEGIN";
  if (const base::Expected<int64_t> begun = PgExec(conn, begin); !begun) {
    return fail(begun.error());
  }
  if (kind.idempotency == config::Idempotency::kClaim) {
    const base::Expected<int64_t> claimed =
        PgExec(conn, "INSERT INTO " + state.pool->claims_table() + " (key, message_id) VALUES (" +
                         Quote(m.key) + ", " + std::to_string(m.id) + ") ON CONFLICT DO NOTHING");
    if (!claimed) return fail(claimed.error());
    if (*claimed == 0) {
      out.suppressed = true;
      return commit();
    }
  }
  if (const base::Status worked =
          RunDbOps(state, conn, kind, rng, timeout_ms, lowered_ms.has_value());
      !worked) {
    return fail(worked.error());
  }
  if (kind.handler.downstream_calls > 0) {  // inside the transaction, as the model's order says
    CallsOutcome call =
        MakeDownstreamCalls(state, m.id, attempt, worker, kind.handler.downstream_calls);
    if (!call.ok) {
      out.call = std::move(call);
      return fail("downstream call failed");
    }
  }
  SpinMicros(model::DurationSampler::Millis(kind.handler.cpu_ms).Sample(rng).micros());
  if (const base::Expected<int64_t> inserted = InsertExecution(state, conn, m, attempt, worker);
      !inserted) {
    return fail(inserted.error());
  }
  // A crashed worker's transactions die with it: roll back rather than commit.
  if (state.worker_down[static_cast<size_t>(worker)]) {
    out.crashed = true;
    return fail("worker crashed");
  }
  return commit();
}

// What a handler with a database answers after its transaction (`db`).
Verdict AfterDbWork(RunState& state, const DbOutcome& db, const PlannedMessage& m, int attempt,
                    int worker) {
  const uint64_t id = m.id;
  if (db.crashed) {
    ++state.rolled_back;
    state.log->Write("rolled_back", id, worker, attempt, "worker crashed");
    return {Action::kDrop, "rolled back: worker crashed"};
  }
  if (db.call) {
    ++state.failures;
    return CallFailed(state, *db.call, m.id, attempt);
  }
  if (!db.ok) {
    ++state.failures;
    if (db.timed_out) ++state.db_timeouts;
    // The simulation's class for a database timeout or refusal: transient.
    return Route(state.scenario, ErrorClass::kTransient, attempt,
                 (db.timed_out ? "database timeout: " : "database error: ") + db.error);
  }
  if (db.suppressed) {
    ++state.suppressed;
    state.log->Write("suppressed", id, worker, attempt, "claim row exists");
    return {Action::kAck, "suppressed"};
  }
  ++state.commits;
  state.log->Write("commit", id, worker, attempt);
  return {Action::kAck, "committed"};
}

}  // namespace

Verdict RunHandler(RunState& state, const AmqpMessage& message, int64_t id, int attempt,
                   int worker) {
  const PlannedMessage& m = state.plan.messages.at(id);
  const config::Kind& kind = state.scenario.kinds.at(m.kind);
  // The message's execution over all its lives and the run's clock at the attempt's start: the
  // errors and bug faults' keys (live/attempt_fates.h).
  const int32_t execution = ++state.executions[static_cast<size_t>(id)];
  const std::optional<Fate> attempt_fate =
      AttemptFate(m, execution, state.log->Now() - state.run_start_s);
  ++state.attempts;
  state.log->Write("attempt", id, worker, attempt);
  engine::Rng rng = engine::Rng::ForStream(state.plan.seed, engine::StreamId("live-handler"),
                                           static_cast<uint64_t>(id) * 1024 + attempt);
  SleepMicros(model::DurationSampler::Millis(kind.handler.validate_ms).Sample(rng).micros());

  const std::string fail = HeaderString(message.headers, "x-drainsim-fail");
  if (!fail.empty()) {
    SleepMicros(HeaderInt(message.headers, "x-drainsim-fail-after-us", 0));
    const ErrorClass error = config::FromName<ErrorClass>(fail).value_or(ErrorClass::kUnknown);
    ++state.failures;
    return Route(state.scenario, error, attempt,
                 "injected by fault " + HeaderString(message.headers, "x-drainsim-fault"));
  }
  if (attempt_fate) {
    SleepMicros(attempt_fate->fail_after_ms
                    ? static_cast<int64_t>(*attempt_fate->fail_after_ms * 1000.0)
                    : 0);
    ++state.failures;
    const bool bug = std::holds_alternative<config::BugFault>(
        state.scenario.faults.at(static_cast<size_t>(attempt_fate->fault_index)));
    ++(bug ? state.bug_failed : state.errors_failed);
    return Route(state.scenario, attempt_fate->error, attempt,
                 "injected by fault " + std::to_string(attempt_fate->fault_index) +
                     (bug ? " (bug)" : " (errors, execution " + std::to_string(execution) + ")"));
  }
  if (state.pool != nullptr) {
    return AfterDbWork(state, RunDbWork(state, kind, m, attempt, worker, rng), m, attempt, worker);
  }
  if (kind.handler.downstream_calls > 0) {
    const CallsOutcome call =
        MakeDownstreamCalls(state, m.id, attempt, worker, kind.handler.downstream_calls);
    if (!call.ok) {
      ++state.failures;
      return CallFailed(state, call, m.id, attempt);
    }
  }
  SpinMicros(model::DurationSampler::Millis(kind.handler.cpu_ms).Sample(rng).micros());
  ++state.commits;
  state.log->Write("commit", id, worker, attempt, "no database");
  return {Action::kAck, "done"};
}

}  // namespace drainsim::live
