#include "sim/model/world.h"

#include <algorithm>
#include <bit>
#include <cinttypes>
#include <cstdio>
#include <variant>

#include "sim/base/check.h"
#include "sim/config/fault_types.h"

namespace drainsim::model {

namespace {

// Events that only observe (samples) or model traffic outside the queue (live queries) do
// not keep a run alive; everything else can change a message's fate.
bool IsEssential(EventType type) {
  // Visibility timers and database completions matter only while a message is in flight
  // (a worker's query belongs to an attempt, and an attempt to an in-flight delivery), and
  // NothingLeftToHappen counts in-flight messages instead; live traffic's queries would
  // otherwise keep a finished run going until run.until.
  return type != EventType::kSample && type != EventType::kLiveQuery && type != EventType::kStop &&
         type != EventType::kVisibilityExpired && type != EventType::kDbServiceEnd &&
         type != EventType::kDbDeadline && type != EventType::kEsmScale &&
         type != EventType::kAutoscaleTick && type != EventType::kAutoscaleStart &&
         type != EventType::kAutoscaleKill;
}

uint64_t MixFingerprint(uint64_t hash, uint64_t value) {
  // splitmix64's finaliser over a running hash: cheap, and any change in order, time or
  // payload changes the result.
  uint64_t z = hash ^ (value + 0x9e3779b97f4a7c15ULL + (hash << 6) + (hash >> 2));
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// One word per event for the fingerprint: time, type and payload folded with odd multipliers
// and rotations, so that swapping fields or shifting a time changes it.
uint64_t EventWord(engine::Instant at, const Event& event) {
  const uint64_t head = (static_cast<uint64_t>(event.type) << 32) | event.a;
  return static_cast<uint64_t>(at.micros()) * 0x9e3779b97f4a7c15ULL ^
         std::rotl(head * 0xc2b2ae3d27d4eb4fULL, 21) ^
         std::rotl(event.b * 0x165667b19e3779f9ULL, 42);
}

// The index of kind `name` in the scenario's (sorted) kinds.
int64_t KindIndex(const config::Scenario& scenario, const std::string& name) {
  int64_t index = 0;
  for (const auto& entry : scenario.kinds) {
    if (entry.first == name) return index;
    ++index;
  }
  DRAINSIM_CHECK(false);  // the loader guarantees that kinds exist
  return FaultSchedule::kAnyKind;
}

// The kind each fault is limited to, by index; kAnyKind for faults of every kind.
std::vector<int64_t> FaultKinds(const config::Scenario& scenario) {
  std::vector<int64_t> kinds;
  for (const config::Fault& fault : scenario.faults) {
    const std::string* kind = config::KindOf(fault);
    kinds.push_back(kind != nullptr ? KindIndex(scenario, *kind) : FaultSchedule::kAnyKind);
  }
  return kinds;
}

// Each producer's kind index: looked up once, not by name per message.
std::vector<uint32_t> ProducerKinds(const config::Scenario& scenario) {
  std::vector<uint32_t> kinds;
  for (const config::Producer& producer : scenario.producers) {
    kinds.push_back(static_cast<uint32_t>(KindIndex(scenario, producer.kind)));
  }
  return kinds;
}

// The kinds' names by kind index (the scenario's kinds are sorted by name).
std::vector<std::string> KindNames(const config::Scenario& scenario) {
  std::vector<std::string> names;
  for (const auto& entry : scenario.kinds) names.push_back(entry.first);
  return names;
}

}  // namespace

World::World(const config::Scenario& scenario, uint64_t seed, const RunOptions& options)
    : scenario_(scenario),
      seed_(seed),
      attempt_streams_(seed, kStreamAttempt),
      dlq_duplicate_streams_(seed, kStreamDlqDuplicate),
      options_(options),
      observer_(options.observer),
      notify_(options.observer),
      until_(scenario.run.until),
      messages_(options.pending_messages_max),
      keys_(scenario),
      producers_(scenario.producers, ProducerKinds(scenario), seed),
      broker_(messages_),
      pool_(scenario.workers.count, scenario.workers.prefetch, scenario.workers.concurrency),
      audit_(messages_, ledger_, broker_),
      faults_(scenario.faults, FaultKinds(scenario), seed),
      retry_(scenario.retry, scenario.broker),
      drains_(scenario.drains, scenario.faults, KindNames(scenario),
              scenario.broker.redrive_rate_max_per_s, seed),
      metrics_(scenario.name, seed, scenario.kinds.size(), scenario.alerts) {
  for (const auto& [name, kind] : scenario.kinds) {
    KindModel model{name,         KeysAreUnique(kind.key_pattern),
                    &kind,        DurationSampler::Millis(kind.handler.validate_ms),
                    std::nullopt, DurationSampler::Millis(kind.handler.cpu_ms)};
    if (kind.handler.db_op_ms) model.db_op = DurationSampler::Millis(*kind.handler.db_op_ms);
    kinds_.push_back(std::move(model));
  }
  if (scenario.database) {
    const config::Database& db = *scenario.database;
    database_ =
        std::make_unique<Database>(*this, db.connections, db.timeout, db.overload_factor, db.cores);
    if (db.live_traffic) live_.emplace(*db.live_traffic, seed);
  }
  if (scenario.downstream) downstream_.emplace(*scenario.downstream);
  crash_rng_ = engine::Rng::ForStream(seed, kStreamCrash, 0);
  metrics_.results().ack_pending_limited = scenario.broker.ack_pending_max.has_value();
  if (scenario.workers.lambda_esm) {
    esm_.emplace(*scenario.workers.lambda_esm);
    metrics_.results().lambda_esm = true;
    metrics_.results().esm_pollers_end = esm_->pollers();
  }
  if (const auto& spec = scenario.workers.autoscale) {
    autoscale_.emplace(*spec, scenario.workers.count);
    metrics_.results().autoscale = true;
    metrics_.results().autoscale_workers_max = scenario.workers.count;
    metrics_.results().autoscale_workers_end = scenario.workers.count;
  }
  if (scenario.broker.message_groups) {
    broker_.EnableGroups(*scenario.broker.message_groups);
    group_tallies_.emplace(*scenario.broker.message_groups);
    if (scenario.broker.message_group_kind == config::MessageGroupKind::kOrderingKey) {
      ordering_keys_.emplace(*scenario.broker.message_groups);
    }
  } else if (scenario.broker.partitions) {
    broker_.EnablePartitions(*scenario.broker.partitions, pool_.size());
    group_tallies_.emplace(*scenario.broker.partitions);
    group_tallies_->Track(true);  // partition lag in the series
    const auto commit = scenario.broker.offset_commit.value_or(config::OffsetCommit::kRecord);
    if (commit != config::OffsetCommit::kRecord) {
      kafka_.emplace(commit, scenario.broker.max_poll_records.value_or(500),
                     scenario.broker.auto_commit_interval.value_or(engine::Duration::Seconds(5)),
                     pool_.size());
    }
  }
}

void World::At(engine::Instant at, Event event) {
  DRAINSIM_CHECK(at >= now_);
  if (IsEssential(event.type)) ++essential_pending_;
  if (at == now_ && running_) {
    now_lane_.push_back(event);
    return;
  }
  events_.Push(at, event);
}

bool World::NothingLeftToHappen() const {
  // An in-flight message always has a pending visibility timer: it can still come back.
  if (essential_pending_ != 0 || ledger_.count(MessageState::kInFlight) != 0) return false;
  // A ready message may be waiting for a slot that a stale attempt still holds (its delivery
  // was returned by a broker restart): that attempt ends on a database completion, which is
  // not essential, and its slot then takes the message.
  return ledger_.count(MessageState::kReady) == 0 || pool_.busy_slots() == 0;
}

void World::ScheduleRun() {
  // Faults first: a window opening at 0 must be open for the first attempts at 0.
  ScheduleFaults();
  ScheduleDrains();
  PublishBacklog();
  for (uint32_t p = 0; p < producers_.size(); ++p) {
    const engine::Instant first = producers_.first_tick(p);
    if (first < until_) At(first, Event{EventType::kProducerTick, p});
  }
  Dispatch();  // the backlog's ready messages
  EnforceMaxLength(broker_.ready_count());
  At(engine::Instant::Zero(), Event{EventType::kSample});
  if (live_) At(engine::Instant::Zero(), Event{EventType::kLiveQuery});
  At(until_, Event{EventType::kStop});
  if (options_.test_stall_at < until_) At(options_.test_stall_at, Event{EventType::kTestStall});
  ScheduleTestDefect();
  ScheduleAutoscale();
}

// Called once, from Run's loop: inlined there, so the loop stays one function for the compiler.
[[gnu::always_inline]] inline bool World::RunEvent(engine::Instant at, const Event& event) {
  DRAINSIM_CHECK(at >= now_);  // (1) time never decreases
  if (IsEssential(event.type)) --essential_pending_;
  // Time averages (Little's law checks): the state held since the last event.
  metrics_.Hold((at - now_).micros(), ledger_.count(MessageState::kReady),
                ledger_.count(MessageState::kInFlight));
  now_ = at;
  if (event.type == EventType::kStop) {
    metrics_.results().reached_until = true;
    return false;
  }
  ++events_processed_;
  if (events_processed_ > scenario_.run.events_max) {
    metrics_.results().events_max_reached = true;
    return false;
  }
  fingerprint_ = MixFingerprint(fingerprint_, EventWord(at, event));
  // Tested on the event count first and called out of line: a virtual call in the loop, even
  // an unlikely one, cost ~12 instructions per event (callgrind); this costs ~2.
  if ((events_processed_ & 0xffff) == 0) [[unlikely]] {
    NotifyProgress();
  }
  Handle(event);
  DRAINSIM_CHECK(ledger_.Lost() == 0);  // (2), cheaply, every event
  CheckEmpty();
  if (options_.audit_every_event) audit_.AfterEvent(events_processed_);
  const int64_t main_queue = ledger_.count(MessageState::kReady) +
                             ledger_.count(MessageState::kDelayed) +
                             ledger_.count(MessageState::kInFlight);
  metrics_.AfterEvent(now_, main_queue, ledger_.count(MessageState::kDeadLettered));
  drains_.NoteMainQueue(main_queue, now_);
  if (NothingLeftToHappen()) {
    // Quiet exactly at the end (the last fault window closing at until_s) is reaching it.
    metrics_.results().reached_until = now_ >= until_;
    return false;
  }
  return true;
}

Results World::Run() {
  ScheduleRun();
  running_ = true;
  while (!now_lane_.empty() || !events_.empty()) {
    engine::Instant at = now_;
    Event event{EventType::kStop};
    if (!now_lane_.empty()) {
      event = now_lane_.front();
      now_lane_.pop_front();
    } else {
      const auto popped = events_.Pop();
      at = popped.at;
      event = popped.payload;
    }
    if (!RunEvent(at, event)) break;
  }
  TakeFinalSample();
  audit_.Recount(events_processed_);
  CheckQuietEnd();
  return Collect();
}

void World::CheckQuietEnd() {
  Results& results = metrics_.results();
  if (results.reached_until || results.events_max_reached) return;
  ModelError error;
  error.ready = ledger_.count(MessageState::kReady);
  error.delayed = ledger_.count(MessageState::kDelayed);
  error.in_flight = ledger_.count(MessageState::kInFlight);
  const int64_t stuck = error.ready + error.delayed + error.in_flight;
  if (stuck == 0) return;
  const int64_t alive = pool_.alive_count();
  static constexpr const char* kBreakerNames[] = {"closed", "open", "half-open"};
  char text[400];
  std::snprintf(text, sizeof text,
                "%" PRId64 " messages not at rest (%" PRId64 " ready, %" PRId64 " delayed, %" PRId64
                " in flight) when nothing was left to happen at %.6f s, "
                "before run.until_s %.6f; %" PRId64 " of %zu workers alive, %" PRId64
                " slots running; circuit breaker %s, %" PRId64 " probe permits left",
                stuck, error.ready, error.delayed, error.in_flight, now_.seconds(),
                until_.seconds(), alive, static_cast<size_t>(pool_.size()), pool_.busy_slots(),
                scenario_.retry.circuit_breaker
                    ? kBreakerNames[static_cast<int>(retry_.breaker().state())]
                    : "none",
                retry_.breaker().probes_left());
  error.invariant = "quiet_end";
  error.detail = text;
  // Why nobody takes the ready ones: each worker's prefetch window and ring place.
  error.detail += std::string(broker_.down() ? "; broker down" : "") +
                  "; workers (unacked, withheld, in ring):";
  error.detail += pool_.Describe(8);
  results.model_error = std::move(error);
}

Results RunSimulation(const config::Scenario& scenario, uint64_t seed, const RunOptions& options) {
  World world(scenario, seed, options);
  try {
    return world.Run();
  } catch (const PendingMessagesMaxExceeded& e) {
    // The run is abandoned (6): only the message survives it, with the run named.
    throw PendingMessagesMaxExceeded(e.pending_messages_max(), scenario.name, seed,
                                     world.Now().seconds());
  }
}

void World::NotifyProgress() {
  if (observer_ != nullptr) observer_->OnProgress(now_, until_, events_processed_);
}

}  // namespace drainsim::model
