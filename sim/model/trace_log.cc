#include "sim/model/trace_log.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "sim/base/check.h"
#include "sim/config/enum_names.h"
#include "sim/config/fault_types.h"

namespace drainsim::model {

namespace {

// Whether `e` makes its life worth showing in the sample: the message needed the DLQ or a
// human, or its work ran (or tried to run) more than once. `commits` counts the life's commits
// so far; every event of the life passes through here, recorded or not.
bool MakesInteresting(const LifeEvent& e, int& commits) {
  if (e.type == LifeEvent::Type::kTransition &&
      (e.to == MessageState::kDeadLettered || e.to == MessageState::kParked ||
       e.to == MessageState::kExpired)) {
    return true;
  }
  if (e.type == LifeEvent::Type::kPublish && e.to == MessageState::kDeadLettered) return true;
  if (e.type == LifeEvent::Type::kAttemptEnd && e.outcome == AttemptOutcome::kSuppressed) {
    return true;
  }
  return e.type == LifeEvent::Type::kCommit && (e.duplicate || ++commits > 1);
}

// The events a full life keeps from its start; the rest of life_events_max hold the latest.
size_t HeadOf(size_t life_events_max) { return life_events_max / 4; }

// When a per-message fault starts to apply (and a bug's fix): they have no window the run
// opens, so the recorder marks them from the scenario.
void AddScenarioMarks(const config::Scenario& scenario, std::vector<RunMark>& marks) {
  for (uint32_t f = 0; f < scenario.faults.size(); ++f) {
    const config::FaultTiming timing = config::TimingOf(scenario.faults[f], scenario.run.until);
    if (timing.shape != config::FaultShape::kOnset) continue;
    if (timing.from < scenario.run.until) {
      marks.push_back(
          RunMark{timing.from, RunMark::Type::kFault, f, FaultEdge::kOpen, false, true});
    }
    // A bug's fix; a bug never fixed ends with the run, which is no edge.
    if (timing.until && *timing.until < scenario.run.until) {
      marks.push_back(
          RunMark{*timing.until, RunMark::Type::kFault, f, FaultEdge::kClose, false, true});
    }
  }
}

}  // namespace

TraceRecorder::TraceRecorder(const config::Scenario& scenario, TraceOptions options)
    : options_(std::move(options)) {
  for (const auto& [name, kind] : scenario.kinds) log_.kinds.push_back(name);
  for (const config::Fault& fault : scenario.faults) {
    log_.faults.emplace_back(config::NameOf(config::TypeOf(fault)));
  }
  log_.workers = scenario.workers.count;
  log_.concurrency = scenario.workers.concurrency;
  log_.drains = static_cast<int64_t>(scenario.drains.size());
  log_.spans_max = options_.spans ? options_.spans_max : 0;
  log_.lives_first = options_.lives_first;
  log_.lives_max = options_.lives_max;
  log_.lives_alive_max = options_.lives_alive_max;
  log_.life_events_max = options_.life_events_max;
  log_.marks_max = options_.marks_max;
  DRAINSIM_CHECK(options_.life_events_max >= 2);
  lanes_busy_.resize(static_cast<size_t>(scenario.workers.count));
  AddScenarioMarks(scenario, log_.marks);
}

TraceRecorder::Slot& TraceRecorder::SlotAt(uint32_t slot) {
  if (slot >= slots_.size()) slots_.resize(slot + 1);
  return slots_[slot];
}

void TraceRecorder::OpenSpan(Slot& slot, const AttemptSpan& span) {
  slot.has_span = false;
  if (!options_.spans) return;
  if (spans_opened_ >= options_.spans_max) {
    ++log_.spans_left_out;
    return;
  }
  ++spans_opened_;
  if (span.worker >= lanes_busy_.size()) {
    // workers.autoscale adds workers beyond workers.count during the run.
    lanes_busy_.resize(span.worker + 1);
    log_.workers = std::max<int64_t>(log_.workers, span.worker + 1);
  }
  std::vector<bool>& lanes = lanes_busy_[span.worker];
  const auto free = std::find(lanes.begin(), lanes.end(), false);
  slot.span = span;
  slot.span.lane = static_cast<uint32_t>(free - lanes.begin());
  if (free == lanes.end()) {
    lanes.push_back(true);
  } else {
    *free = true;
  }
  slot.has_span = true;
}

void TraceRecorder::CloseSpan(Slot& slot, engine::Instant end) {
  if (!slot.has_span) return;
  slot.has_span = false;
  slot.span.end = end;
  lanes_busy_[slot.span.worker][slot.span.lane] = false;
  log_.spans.push_back(slot.span);
}

TraceRecorder::Recording* TraceRecorder::LifeOf(uint64_t message_id) {
  const auto it = alive_.find(message_id);
  return it == alive_.end() ? nullptr : &it->second;
}

void TraceRecorder::Record(Recording& r, const LifeEvent& e) {
  if (MakesInteresting(e, r.commits)) r.interesting = true;
  std::vector<LifeEvent>& events = r.life.events;
  const size_t max = options_.life_events_max;
  if (events.size() < max) {
    events.push_back(e);
    return;
  }
  // Full: the tail is a ring; `e` replaces its oldest event.
  const size_t head = HeadOf(max);
  events[head + r.tail_next] = e;
  r.tail_next = (r.tail_next + 1) % (max - head);
  ++r.life.events_left_out;
}

void TraceRecorder::AddMark(const RunMark& mark) {
  const bool windowed = mark.type == RunMark::Type::kDrainStart ||
                        mark.type == RunMark::Type::kDrainEnd ||
                        (mark.type == RunMark::Type::kFault && mark.edge != FaultEdge::kStrike);
  if (!windowed && log_.marks.size() >= options_.marks_max) {
    ++log_.marks_left_out;
    return;
  }
  log_.marks.push_back(mark);
}

void TraceRecorder::Keep(Recording&& r) {
  if (Sampling()) {
    if (r.life.id >= options_.lives_first && !r.interesting) return;
  }
  if (log_.lives.size() >= options_.lives_max) {
    ++log_.lives_dropped;
    return;
  }
  MessageLife& life = r.life;
  if (life.events_left_out > 0) {  // the ring's oldest event first
    const size_t head = HeadOf(options_.life_events_max);
    std::rotate(life.events.begin() + static_cast<std::ptrdiff_t>(head),
                life.events.begin() + static_cast<std::ptrdiff_t>(head + r.tail_next),
                life.events.end());
    life.gap_at = head;
    log_.life_events_left_out += life.events_left_out;
  }
  log_.lives.push_back(std::move(life));
}

void TraceRecorder::OnPublish(const PublishInfo& info) {
  ++log_.published;
  if (options_.only_id && *options_.only_id != info.message_id) return;
  if (options_.only_key && *options_.only_key != info.key) {
    std::vector<std::string>& similar = log_.similar_keys;
    if (similar.size() < 5 && info.key.find(*options_.only_key) != std::string_view::npos &&
        std::find(similar.begin(), similar.end(), info.key) == similar.end()) {
      similar.emplace_back(info.key);
    }
    return;
  }
  if (alive_.size() >= options_.lives_alive_max) {
    ++log_.lives_not_recorded;
    return;
  }
  Recording& r = alive_[info.message_id];
  MessageLife& life = r.life;
  life.id = info.message_id;
  life.kind_index = info.kind_index;
  life.source_index = info.source_index;
  life.from_backlog = info.from_backlog;
  life.published_at = info.published_at;
  life.key = std::string(info.key);
  LifeEvent e;
  e.type = LifeEvent::Type::kPublish;
  e.at = info.at;
  e.to = info.state;
  Record(r, e);
}

void TraceRecorder::OnTransition(const TransitionInfo& info) {
  Recording* r = LifeOf(info.message_id);
  if (r == nullptr) return;
  LifeEvent e;
  e.type = LifeEvent::Type::kTransition;
  e.at = info.at;
  e.from = info.from;
  e.to = info.to;
  e.cause = info.cause;
  e.dlq_reason = info.dlq_reason;
  e.error = info.last_error;
  e.redelivery = info.redelivery;
  e.loss = info.loss;
  e.until = info.until;
  e.drain = info.drain;
  e.worker = info.worker;
  e.attempt = info.attempts;
  Record(*r, e);
}

void TraceRecorder::OnAttemptStart(const AttemptInfo& info) {
  ++log_.attempts_seen;
  Slot& slot = SlotAt(info.slot);
  if (slot.busy && slot.sleeping) CloseSpan(slot, info.at);  // the sleep ends: it runs again
  slot.busy = true;
  slot.sleeping = false;
  slot.message_id = info.message_id;
  slot.attempt = info.attempt;
  slot.execution = info.execution;
  AttemptSpan span;
  span.start = info.at;
  span.message_id = info.message_id;
  span.kind_index = info.kind_index;
  span.worker = info.worker;
  span.attempt = info.attempt;
  OpenSpan(slot, span);
  if (Recording* r = LifeOf(info.message_id)) {
    LifeEvent e;
    e.type = LifeEvent::Type::kAttemptStart;
    e.at = info.at;
    e.worker = static_cast<int32_t>(info.worker);
    e.attempt = info.attempt;
    e.execution = info.execution;
    Record(*r, e);
  }
}

void TraceRecorder::OnAttemptEnd(const AttemptEndInfo& info) {
  Slot& slot = SlotAt(info.slot);
  DRAINSIM_CHECK(slot.busy);
  const bool during_sleep = slot.sleeping;
  if (slot.has_span) {
    AttemptSpan& span = slot.span;
    if (!during_sleep) {
      span.outcome = info.outcome;
      span.ack = info.ack;
      span.error = info.error;
      span.failure = info.failure;
      span.fault = info.fault;
      span.current = info.current;
    }
    CloseSpan(slot, info.at);
  }
  slot.busy = false;
  slot.sleeping = false;
  if (Recording* r = LifeOf(info.message_id)) {
    LifeEvent e;
    e.type = LifeEvent::Type::kAttemptEnd;
    e.at = info.at;
    e.worker = static_cast<int32_t>(info.worker);
    e.attempt = slot.attempt;
    e.outcome = info.outcome;
    e.ack = info.ack;
    e.error = info.error;
    e.failure = info.failure;
    e.fault = info.fault;
    e.current = info.current;
    e.during_sleep = during_sleep;
    Record(*r, e);
  }
}

void TraceRecorder::OnCommit(const CommitInfo& info) {
  Slot& slot = SlotAt(info.slot);
  if (slot.has_span) {
    slot.span.committed = true;
    slot.span.duplicate = info.duplicate;
    slot.span.duplicate_cause = info.duplicate_cause;
  }
  if (Recording* r = LifeOf(info.message_id)) {
    LifeEvent e;
    e.type = LifeEvent::Type::kCommit;
    e.at = info.at;
    e.worker = static_cast<int32_t>(info.worker);
    e.attempt = slot.attempt;
    e.duplicate = info.duplicate;
    e.duplicate_cause = info.duplicate_cause;
    e.visible = info.visible;
    Record(*r, e);
  }
}

void TraceRecorder::OnStatement(const StatementInfo& info) {
  if (!options_.statements) return;
  const Slot& slot = SlotAt(info.slot);
  DRAINSIM_CHECK(slot.busy && !slot.sleeping);
  if (!slot.has_span) return;  // its attempt is not recorded: nor are its statements
  if (log_.statements.size() >= options_.statements_max) {
    ++log_.statements_left_out;
    return;
  }
  DRAINSIM_CHECK(info.start >= slot.span.start && info.start <= info.at);
  log_.statements.push_back(StatementSpan{info.start, info.at, info.message_id, slot.execution,
                                          info.claim, info.failure});
}

void TraceRecorder::OnSleep(const SleepInfo& info) {
  // OnAttemptEnd closed the failed attempt; the slot stays the worker's until the next one.
  Slot& slot = SlotAt(info.slot);
  slot.busy = true;
  slot.sleeping = true;
  slot.message_id = info.message_id;
  AttemptSpan span;
  span.start = info.at;
  span.message_id = info.message_id;
  span.worker = info.worker;
  span.attempt = slot.attempt;
  span.sleep = true;
  if (const Recording* r = LifeOf(info.message_id)) span.kind_index = r->life.kind_index;
  OpenSpan(slot, span);
  if (Recording* r = LifeOf(info.message_id)) {
    LifeEvent e;
    e.type = LifeEvent::Type::kSleep;
    e.at = info.at;
    e.worker = static_cast<int32_t>(info.worker);
    e.attempt = slot.attempt;
    e.until = info.until;
    Record(*r, e);
  }
}

void TraceRecorder::OnReleased(uint64_t message_id, engine::Instant) {
  const auto it = alive_.find(message_id);
  if (it == alive_.end()) return;
  Recording r = std::move(it->second);
  alive_.erase(it);
  Keep(std::move(r));
}

void TraceRecorder::OnFaultEdge(uint32_t fault, FaultEdge edge, engine::Instant at) {
  AddMark(RunMark{at, RunMark::Type::kFault, fault, edge, false, false});
}

void TraceRecorder::OnWorkerCrash(uint32_t worker, bool after_commit, engine::Instant at) {
  AddMark(
      RunMark{at, RunMark::Type::kWorkerCrash, worker, FaultEdge::kStrike, after_commit, false});
}

void TraceRecorder::OnWorkerRestart(uint32_t worker, engine::Instant at) {
  AddMark(RunMark{at, RunMark::Type::kWorkerRestart, worker, FaultEdge::kStrike, false, false});
}

void TraceRecorder::OnDrainStart(uint32_t drain, engine::Instant at) {
  AddMark(RunMark{at, RunMark::Type::kDrainStart, drain, FaultEdge::kOpen, false, false});
}

void TraceRecorder::OnDrainEnd(uint32_t drain, engine::Instant at) {
  AddMark(RunMark{at, RunMark::Type::kDrainEnd, drain, FaultEdge::kClose, false, false});
}

TraceLog TraceRecorder::Finish(engine::Instant end) {
  log_.ended_at = end;
  for (Slot& slot : slots_) {
    if (!slot.has_span) continue;
    slot.span.ended = false;
    CloseSpan(slot, end);
  }
  // Messages still alive (in the DLQ, in the pipeline) in id order, so that which of them fit
  // under lives_max does not depend on the hash map's order.
  std::vector<uint64_t> ids;
  ids.reserve(alive_.size());
  for (const auto& [id, life] : alive_) ids.push_back(id);
  std::sort(ids.begin(), ids.end());
  for (uint64_t id : ids) Keep(std::move(alive_.at(id)));
  alive_.clear();
  std::sort(log_.lives.begin(), log_.lives.end(),
            [](const MessageLife& a, const MessageLife& b) { return a.id < b.id; });
  std::sort(log_.spans.begin(), log_.spans.end(), [](const AttemptSpan& a, const AttemptSpan& b) {
    return std::tie(a.start, a.worker, a.lane) < std::tie(b.start, b.worker, b.lane);
  });
  std::stable_sort(log_.marks.begin(), log_.marks.end(),
                   [](const RunMark& a, const RunMark& b) { return a.at < b.at; });
  // A run stopped early (run.events_max) never reached the scenario's later marks.
  log_.marks.erase(std::find_if(log_.marks.begin(), log_.marks.end(),
                                [end](const RunMark& m) { return m.at > end; }),
                   log_.marks.end());
  return std::move(log_);
}

}  // namespace drainsim::model
