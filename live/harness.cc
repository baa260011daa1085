#include "live/harness.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "live/amqp_connection.h"
#include "live/broker_restart.h"
#include "live/db_faults.h"
#include "live/db_outage.h"
#include "live/downstream_server.h"
#include "live/inspect.h"
#include "live/live_traffic.h"
#include "live/producer.h"
#include "live/reconnect.h"
#include "live/retry_plan.h"
#include "live/stop_signal.h"
#include "live/topology.h"
#include "live/worker.h"

namespace drainsim::live {

namespace {

using Clock = std::chrono::steady_clock;

void Tally(RunState& state, LiveResult* r) {
  r->attempts = state.attempts;
  r->failures = state.failures;
  r->commits = state.commits;
  r->suppressed = state.suppressed;
  r->db_timeouts = state.db_timeouts;
  r->crashes = state.crashes;
  r->crash_after_commit = state.crash_after_commit;
  r->acks_lost = state.acks_lost;
  r->channel_closes = state.channel_closes;
  r->settles_dropped = state.settles_dropped;
  r->rolled_back = state.rolled_back;
  r->duplicates_after_fault = state.duplicates_after_fault;
  r->suppressed_after_fault = state.suppressed_after_fault;
  r->downstream_calls = state.downstream_calls;
  r->downstream_429s = state.downstream_429s;
  r->downstream_503s = state.downstream_503s;
  r->downstream_errors = state.downstream_errors;
  r->errors_failed = state.errors_failed;
  r->bug_failed = state.bug_failed;
  r->connections_lost = state.connections_lost;
  r->reconnects = state.reconnects;
  r->publishes_resent = state.publishes_resent;
  r->duplicate_copies = state.duplicate_copies;
  bool first = true;
  for (size_t id = 0; id < state.plan.messages.size(); ++id) {
    const int32_t d = state.deliveries[id];
    r->deliveries += d;
    if (!state.plan.messages[id].fate) continue;
    ++r->fated;
    r->fated_deliveries_min = first ? d : std::min<int64_t>(r->fated_deliveries_min, d);
    r->fated_deliveries_max = first ? d : std::max<int64_t>(r->fated_deliveries_max, d);
    first = false;
  }
}

// What the result says before anything runs: the topology's choices and the plan's size.
LiveResult PlannedResult(const Topology& topology, const Plan& plan) {
  LiveResult r;
  r.run_id = topology.run_id;
  r.quorum = topology.quorum;
  if (!topology.delay_queues.empty()) r.delay_dead_letter = DelayDeadLetterStrategy(topology);
  r.delivery_limit = topology.delivery_limit;
  r.planned = static_cast<int64_t>(plan.messages.size());
  return r;
}

// What a run holds open from before its clock starts to its end.
struct Services {
  std::unique_ptr<AmqpConnection> inspector;
  std::unique_ptr<PgPool> pool;
  std::unique_ptr<DownstreamServer> downstream;  // the scenario's downstream API
  // The pool's backends' CPU time once the calibration is done: the run's statements' CPU is
  // the difference at the end (db_work.backends_cpu_ms).
  std::optional<BackendsCpu> backends_cpu_at_start;
};

// The run's tables, and with a db_slowdown its table and function.
base::Status CreateTables(PgPool& pool, const config::Scenario& scenario) {
  if (base::Status created = pool.CreateTables(); !created) return created;
  if (HasDbSlowdown(scenario)) return pool.CreateSlowdown();
  return {};
}

// The pool, opened at the largest size a db_connections fault asks (the limit is the
// scenario's: live/db_faults.h), with the run's tables, and --db-work's calibration; null with
// r->error when one of them fails (the tables dropped; a failure to drop them is not reported
// over the failure that came first).
std::unique_ptr<PgPool> OpenPool(const config::Scenario& scenario, const Topology& topology,
                                 const LiveOptions& options, LiveResult* r) {
  base::Expected<std::unique_ptr<PgPool>> opened =
      PgPool::Open(options.postgres_url, static_cast<int>(PoolSizeMax(scenario)),
                   scenario.database->timeout.micros() / 1000, topology.run_id);
  if (!opened) {
    r->error = opened.error();
    return nullptr;
  }
  std::unique_ptr<PgPool> pool = std::move(*opened);
  if (base::Status created = CreateTables(*pool, scenario); !created) {
    (void)pool->DropTables();
    r->error = created.error();
    return nullptr;
  }
  r->db_work.work = options.db_work;
  r->db_work.cpus = options.db_cpus;
  if (options.db_work == DbWork::kCpu) {  // before any other use of the pool (db_cpu.h)
    base::Expected<CpuCalibration> calibration = CalibrateCpuWork(*pool, topology.run_id);
    if (!calibration) {
      r->db_work.calibration.emplace();  // the report says a calibration was tried
      (void)pool->DropTables();
      r->error = calibration.error();
      return nullptr;
    }
    r->db_work.calibration = std::move(*calibration);
  }
  pool->SetLimit(static_cast<int>(scenario.database->connections));
  r->postgres_version = pool->server_version();
  return pool;
}

// The inspector's connection, the pool, the run's topology and the downstream API; false with
// r->error when one of them fails, after deleting what was declared and created.
bool OpenServices(RunState& state, const LiveOptions& options, Services* s, LiveResult* r) {
  const config::Scenario& scenario = state.scenario;
  base::Expected<std::unique_ptr<AmqpConnection>> inspector =
      AmqpConnection::Open(options.amqp_url, "drainsim live: inspector");
  if (!inspector) {
    r->error = inspector.error();
    return false;
  }
  s->inspector = std::move(*inspector);
  r->broker_product = s->inspector->server_product();
  r->broker_version = s->inspector->server_version();
  if (!options.postgres_url.empty()) {
    s->pool = OpenPool(scenario, state.topology, options, r);
    if (!s->pool) return false;
    state.pool = s->pool.get();
    s->backends_cpu_at_start = ReadBackendsCpu(s->pool->BackendPids());
  }
  auto undo = [&] {  // best effort: the failure that came first is the one reported
    Undeclare(options.amqp_url, state.topology);
    if (s->pool) (void)s->pool->DropTables();
  };
  if (!Declare(*s->inspector, state.topology)) {
    r->error = s->inspector->error();
    undo();
    return false;
  }
  if (scenario.downstream) {
    // A connection per worker slot, and a few spare for reconnects not yet reaped.
    const int64_t slots = scenario.workers.count * scenario.workers.concurrency;
    s->downstream =
        std::make_unique<DownstreamServer>(scenario, state.plan.seed, static_cast<int>(slots) + 8);
    if (base::Status started = s->downstream->Start(); !started) {
      r->error = started.error();
      undo();
      return false;
    }
    state.downstream_port = s->downstream->port();
    state.downstream_epoch_utc_s = s->downstream->epoch_utc_s();
  }
  return true;
}

// The threads of a run besides the producer, each started only when the scenario needs it.
struct RunThreads {
  std::vector<std::thread> workers;
  DrainShared drain;
  std::thread drainer;
  std::thread outages;    // db_outage faults (live/db_outage.h)
  std::thread db_faults;  // db_slowdown and db_connections (live/db_faults.h)
  std::thread restarts;   // broker_restart faults (live/broker_restart.h)
  std::atomic<bool> traffic_stop{false};
  LiveTrafficRun traffic;
  std::thread traffic_thread;  // database.live_traffic (live/live_traffic.h)
};

void StartThreads(RunState& state, const LiveOptions& options, Clock::time_point start,
                  DbFaultController* db_faults, RunThreads* t, LiveResult* r) {
  const config::Scenario& scenario = state.scenario;
  for (int64_t w = 0; !state.failed && w < scenario.workers.count; ++w) {
    t->workers.emplace_back([&state, w] { RunWorker(state, static_cast<int>(w)); });
  }
  r->drain_planned = !scenario.drains.empty();
  if (r->drain_planned && !state.failed) {
    t->drainer = std::thread([&state, start, t] { RunDrainer(state, start, t->drain); });
  }
  if (!options.postgres_url.empty()) {
    t->outages = std::thread([&state, &options] { RunDbOutages(state, options.postgres_url); });
  }
  if (db_faults != nullptr) t->db_faults = std::thread([db_faults] { db_faults->Run(); });
  if (state.reconnect && !state.failed) {
    if (!options.broker_control) {
      state.Fail("broker_restart needs the run's own broker (not --amqp)");
    } else {
      t->restarts = std::thread([&state, &options, r] {
        RunBrokerRestarts(state, *options.broker_control, &r->restart);
      });
    }
  }
  if (state.pool != nullptr && scenario.database->live_traffic && !state.failed) {
    t->traffic_thread = std::thread([&state, start, t] {
      t->traffic =
          RunLiveTraffic(state.scenario, state.plan.seed, state.pool, start, t->traffic_stop);
    });
  }
}

// Once the run is empty (or out of time): stops and joins every thread, in an order where each
// sees the run's end before the ones it depends on stop, and takes their figures.
void StopThreads(RunState& state, Services& services, RunThreads& t, LiveResult* r) {
  t.drain.stop = true;
  t.traffic_stop = true;
  if (t.traffic_thread.joinable()) t.traffic_thread.join();
  if (state.scenario.database && state.scenario.database->live_traffic) {
    r->live_traffic = SummariseLiveTraffic(t.traffic, r->time_to_empty_s);
  }
  if (t.drainer.joinable()) t.drainer.join();
  r->drain = t.drain.figures;
  // As the simulation's: never when the drain left replayable messages (its limit).
  if (r->drain.started && r->drain.left == 0 && r->time_to_empty_s) {
    // From the planned start, as the simulation's (whose drains are never late): a late
    // drainer is part of what the live run measures.
    r->drain_time_to_empty_s = std::max(0.0, *r->time_to_empty_s - r->drain.planned_start_s);
  }
  state.workers_done = true;
  for (std::thread& w : t.workers) w.join();
  if (t.outages.joinable()) t.outages.join();
  if (services.downstream) {
    services.downstream->Stop();
    r->has_downstream = true;
    r->downstream_server_400s = services.downstream->counts().bad_400;
    r->downstream_connections = services.downstream->counts().connections;
  }
  if (t.db_faults.joinable()) t.db_faults.join();
  if (t.restarts.joinable()) t.restarts.join();
  std::lock_guard<std::mutex> lock(state.consumer_reconnect_mu);
  AttachConsumerReconnects(state.consumer_reconnects_s, &r->restart);
}

// Starts the clock and the threads, publishes the plan, waits for the run to empty (within
// options' bounds), and stops everything again.
ProducerResult RunThePlan(RunState& state, const LiveOptions& options, Services& services,
                          LiveResult* r) {
  // db_slowdown and db_connections: the steps due at 0 before the clock starts.
  std::optional<DbFaultController> db_faults;
  if (state.pool != nullptr) db_faults.emplace(state, options.postgres_url);
  const auto start = Clock::now();
  state.log->SetStart(start);  // t_s counts from the plan's time 0, as the simulation's instants
  if (services.downstream) services.downstream->SetStart(start);  // its fault windows likewise
  state.run_start_s = state.log->Now();  // 0 here: the plan's instants (crashes) count from it
  const auto wall_deadline =
      start + std::chrono::milliseconds(static_cast<int64_t>(options.wall_max_s * 1000));
  RunThreads threads;
  StartThreads(state, options, start, db_faults ? &*db_faults : nullptr, &threads, r);
  const ProducerResult produced = RunProducer(state, start, wall_deadline);
  r->published = r->dlq_seeded + static_cast<int64_t>(produced.confirmed);
  r->last_publish_s = produced.last_publish_s;
  // settle_max_s counts from the last publish, or from the drain's last replay (the first time
  // its DLQ ran dry), whichever is later.
  while (threads.drainer.joinable() && !threads.drain.idle && Clock::now() < wall_deadline &&
         !StopRequested() && !state.failed) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const auto settle_deadline = std::min(
      wall_deadline,
      Clock::now() + std::chrono::milliseconds(static_cast<int64_t>(options.settle_max_s * 1000)));
  r->time_to_empty_s = WaitEmpty(state, services.inspector, settle_deadline,
                                 threads.drainer.joinable() ? &threads.drain : nullptr);
  StopThreads(state, services, threads, r);
  r->interrupted = StopRequested();
  return produced;
}

// The ids whose publish the broker confirmed: the DLQ backlog (all or the run failed) and the
// producer's first `produced.confirmed` in plan order.
std::vector<bool> ConfirmedIds(const Plan& plan, const ProducerResult& produced,
                               const LiveResult& r) {
  std::vector<bool> expected(plan.messages.size(), false);
  uint64_t produced_left = produced.confirmed;
  for (const PlannedMessage& m : plan.messages) {
    if (m.dlq) {
      expected[m.id] = r.dlq_seeded == plan.dlq_count();
    } else if (produced_left > 0) {
      expected[m.id] = true;
      --produced_left;
    }
  }
  return expected;
}

// After the threads stopped: where every message ended, the counts, the duplicates the
// database saw; then deletes the run's tables and topology.
void Collect(RunState& state, const ProducerResult& produced, Services& services, LiveResult* r) {
  std::unique_ptr<AmqpConnection>& inspector = services.inspector;
  if (inspector && !inspector->Ok() && state.reconnect && !state.failed) {
    ReopenInspector(state, inspector);
  }
  if (inspector && inspector->Ok()) {
    Inspect(state, *inspector, ConfirmedIds(state.plan, produced, *r), r);
  }
  Tally(state, r);
  r->db_timeouts += r->live_traffic.timeouts;  // the model's db_timeouts counts both
  if (services.pool) {
    // A count that fails leaves the figures at 0 (the run's other results stand); the teardown
    // is best effort.
    if (const base::Expected<DuplicateCounts> counts = services.pool->CountDuplicates()) {
      r->duplicate_keys = counts->keys;
      r->duplicate_executions = counts->extra_executions;
      r->executions = counts->executions;
    }
    r->db_work.totals = services.pool->meter().Figures();
    r->db_work.backends_cpu_ms = BackendsCpuBetween(
        services.backends_cpu_at_start, ReadBackendsCpu(services.pool->BackendPids()));
    (void)services.pool->DropTables();
  }
  Undeclare(state.amqp_url, state.topology);
  if (r->time_to_empty_s && *r->time_to_empty_s > 0) {
    r->throughput_per_s =
        static_cast<double>(r->acked + r->dead_lettered + r->parked) / *r->time_to_empty_s;
  }
}

}  // namespace

LiveResult RunLive(const config::Scenario& scenario, const Plan& plan, const LiveOptions& options) {
  const Topology topology = MakeTopology(scenario);
  LiveResult r = PlannedResult(topology, plan);
  EventLog log(options.events_path);
  if (!log.ok()) {
    r.error = "cannot write " + options.events_path;
    return r;
  }
  RunState state(scenario, plan, topology, &log, options.amqp_url);
  state.reconnect = !BrokerRestarts(scenario).empty();  // live/broker_restart.h
  Services services;
  if (!OpenServices(state, options, &services, &r)) return r;
  r.dlq_seeded = SeedDlq(state);
  const ProducerResult produced = RunThePlan(state, options, services, &r);
  Collect(state, produced, services, &r);
  if (state.failed) r.error = state.first_error;
  log.Flush();
  return r;
}

}  // namespace drainsim::live
