#include "reports/trace_report.h"

#include <cmath>
#include <map>
#include <utility>

#include "reports/life_text.h"
#include "reports/metrics.h"
#include "reports/trace_events.h"
#include "reports/trace_flows.h"
#include "reports/trace_outcomes.h"
#include "sim/config/enum_names.h"

namespace drainsim::reports {

namespace {

constexpr int kPidWorkers = 1;
constexpr int kPidQueues = 2;
constexpr int kPidMessages = 3;
constexpr int64_t kMessagesSortIndex = 4;  // below the outcome tracks (reports/trace_outcomes.h)
constexpr int64_t kTidDrains = 1;
constexpr int64_t kTidFaultsFirst = 2;       // fault f has tid kTidFaultsFirst + f
constexpr int64_t kWorkersListedMax = 1000;  // beyond, only workers that did something

std::string FaultName(const model::TraceLog& log, uint32_t f) {
  return "fault " + std::to_string(f) + " " + (f < log.faults.size() ? log.faults[f] : "");
}

// An attempt, named "<class>: <kind>" and in categories "attempt,<class>" (AttemptClassOf), so
// that Perfetto, which ignores cname, shows and finds its outcome; or a backoff sleep.
void WriteSpan(const model::TraceLog& log, const model::AttemptSpan& s, int64_t tid, FlowRole flow,
               TraceWriter& w) {
  TraceArgs args;
  args.Int("message", static_cast<int64_t>(s.message_id)).Int("attempt", s.attempt);
  args.Str("outcome", SpanOutcomeText(s, log.faults));
  const std::string_view kind =
      s.kind_index < log.kinds.size() ? std::string_view(log.kinds[s.kind_index]) : "attempt";
  const AttemptClass attempt_class = AttemptClassOf(s);
  const std::string word(AttemptClassName(attempt_class));
  const std::string name = s.sleep ? "backoff sleep" : word + ": " + std::string(kind);
  const std::string category = s.sleep ? "sleep" : "attempt," + word;
  TraceEvent event{"X",
                   kPidWorkers,
                   tid,
                   s.start,
                   s.end - s.start,
                   name,
                   category,
                   AttemptClassColour(attempt_class),
                   "",
                   args.Text()};
  event.flow = flow;
  event.flow_id = FlowIdOf(s.message_id);
  w.Add(event);
}

void WriteWorkers(const model::TraceLog& log, const std::vector<FlowRole>& span_flows,
                  TraceWriter& w) {
  w.Meta(kPidWorkers, 0, "process", "workers", kPidWorkers);
  std::map<std::pair<uint32_t, uint32_t>, int64_t> tids;  // (worker, lane) -> tid
  if (log.workers <= kWorkersListedMax) {
    for (int64_t worker = 0; worker < log.workers; ++worker) {
      tids[{static_cast<uint32_t>(worker), 0}] = 0;
    }
  }
  for (const model::AttemptSpan& s : log.spans) tids[{s.worker, s.lane}] = 0;
  for (const model::RunMark& m : log.marks) {
    if (m.type == model::RunMark::Type::kWorkerCrash ||
        m.type == model::RunMark::Type::kWorkerRestart) {
      tids[{m.index, 0}] = 0;
    }
  }
  int64_t next = 1;
  for (auto& [lane, tid] : tids) {
    tid = next++;
    std::string name = "worker " + std::to_string(lane.first);
    if (log.concurrency > 1) name += " slot " + std::to_string(lane.second);
    w.Meta(kPidWorkers, tid, "thread", name, tid);
  }
  for (size_t i = 0; i < log.spans.size(); ++i) {
    const model::AttemptSpan& s = log.spans[i];
    WriteSpan(log, s, tids.at({s.worker, s.lane}), span_flows[i], w);
  }
  for (const model::RunMark& m : log.marks) {
    const bool crash = m.type == model::RunMark::Type::kWorkerCrash;
    if (!crash && m.type != model::RunMark::Type::kWorkerRestart) continue;
    std::string name = crash ? "worker crashed" : "worker back";
    if (crash && m.after_commit) name += " between commit and ack";
    w.Add(TraceEvent{"i", kPidWorkers, tids.at({m.index, 0}), m.at, engine::Duration::Micros(-1),
                     name, "worker", crash ? "black" : "", "t",
                     TraceArgs().Int("worker", m.index).Text()});
  }
}

void WriteCounters(const model::Results& results, TraceWriter& w) {
  for (const model::Sample& s : results.series) {
    const auto at = engine::Instant::Micros(static_cast<int64_t>(std::llround(s.t_s * 1e6)));
    const std::pair<const char*, int64_t> counts[] = {
        {"depth", s.depth},   {"delayed", s.delayed_depth}, {"dlq", s.dlq_depth},
        {"parked", s.parked}, {"in_flight", s.in_flight},   {"workers_busy", s.workers_busy}};
    for (const auto& [name, value] : counts) {
      w.Add(TraceEvent{
          "C", kPidQueues, 0, at, engine::Duration::Micros(-1), name, "queue", "", "",
          TraceArgs()
              .Int(name == std::string_view("workers_busy") ? "slots" : "messages", value)
              .Text()});
    }
    w.Add(TraceEvent{"C", kPidQueues, 0, at, engine::Duration::Micros(-1), "oldest_age", "queue",
                     "", "", TraceArgs().Raw("s", JsonNumber(s.oldest_age_s)).Text()});
  }
}

// Fault windows and drains as spans on their own tracks, and every edge as a global instant.
void WriteMarks(const model::TraceLog& log, TraceWriter& w) {
  w.Meta(kPidQueues, kTidDrains, "thread", "drains", kTidDrains);
  for (uint32_t f = 0; f < log.faults.size(); ++f) {
    w.Meta(kPidQueues, kTidFaultsFirst + f, "thread", FaultName(log, f), kTidFaultsFirst + f);
  }
  std::map<std::pair<bool, uint32_t>, engine::Instant> open;  // (is drain, index) -> since
  const auto close = [&](bool drain, uint32_t index, engine::Instant at) {
    const auto it = open.find({drain, index});
    if (it == open.end()) return;
    const std::string name = drain ? "drain " + std::to_string(index) : FaultName(log, index);
    w.Add(TraceEvent{"X", kPidQueues, drain ? kTidDrains : kTidFaultsFirst + index, it->second,
                     at - it->second, name, drain ? "drain" : "fault", drain ? "good" : "bad", "",
                     TraceArgs().Int(drain ? "drain" : "fault", index).Text()});
    open.erase(it);
  };
  for (const model::RunMark& m : log.marks) {
    std::string name;
    int64_t tid = 0;
    if (m.type == model::RunMark::Type::kFault) {
      name = FaultName(log, m.index) + " " + std::string(model::FaultEdgeName(m.edge));
      if (m.from_scenario) name += m.edge == model::FaultEdge::kOpen ? " to apply" : " (fixed)";
      tid = kTidFaultsFirst + m.index;
      if (m.edge == model::FaultEdge::kOpen && !m.from_scenario) open[{false, m.index}] = m.at;
      if (m.edge == model::FaultEdge::kClose) close(false, m.index, m.at);
    } else if (m.type == model::RunMark::Type::kDrainStart) {
      name = "drain " + std::to_string(m.index) + " starts";
      tid = kTidDrains;
      open[{true, m.index}] = m.at;
    } else if (m.type == model::RunMark::Type::kDrainEnd) {
      name = "drain " + std::to_string(m.index) + " ends";
      tid = kTidDrains;
      close(true, m.index, m.at);
    } else {
      continue;  // worker crashes and restarts are on the workers' tracks
    }
    w.Add(TraceEvent{
        "i", kPidQueues, tid, m.at, engine::Duration::Micros(-1), name, "mark", "", "g",
        TraceArgs().Int("index", m.index).Str("edge", model::FaultEdgeName(m.edge)).Text()});
  }
  while (!open.empty()) close(open.begin()->first.first, open.begin()->first.second, log.ended_at);
}

std::string StateSpanName(model::MessageState state, const model::LifeEvent& entered) {
  switch (state) {
    case model::MessageState::kInFlight:
      return "in flight (worker " + std::to_string(entered.worker) + ")";
    case model::MessageState::kDeadLettered:
      return entered.type == model::LifeEvent::Type::kPublish
                 ? "dead-lettered (backlog)"
                 : "dead-lettered (" + std::string(config::NameOf(entered.dlq_reason)) + ")";
    default:
      return std::string(model::MessageStateName(state));
  }
}

std::string_view StateColour(model::MessageState state) {
  switch (state) {
    case model::MessageState::kReady:
      return "thread_state_runnable";
    case model::MessageState::kDelayed:
      return "thread_state_sleeping";
    case model::MessageState::kInFlight:
      return "thread_state_running";
    case model::MessageState::kDeadLettered:
      return "terrible";
    default:
      return "grey";
  }
}

std::string LifeInstantName(const model::LifeEvent& e, const model::TraceLog& log) {
  using T = model::LifeEvent::Type;
  if (e.type == T::kCommit) {
    return e.duplicate ? "committed again: duplicate execution (" +
                             std::string(model::DuplicateCauseName(e.duplicate_cause)) + ")"
                       : "committed";
  }
  if (e.type == T::kSleep) return "backoff sleep until " + Seconds3(e.until) + " s";
  if (e.type == T::kAttemptEnd) {
    model::AttemptSpan span;
    span.outcome = e.outcome;
    span.ack = e.ack;
    span.error = e.error;
    span.failure = e.failure;
    span.fault = e.fault;
    span.current = e.current;
    return "attempt " + std::to_string(e.attempt) + ": " + SpanOutcomeText(span, log.faults);
  }
  return "";  // transitions are spans; terminal ones are named by their state
}

// Where a life's middle was not recorded (TraceOptions::life_events_max): an instant at the
// last event before the gap saying how many events, and which attempts, are missing.
void WriteLifeGap(const model::MessageLife& life, int64_t tid, const model::TraceLog& log,
                  TraceWriter& w) {
  const model::LifeEvent& before = life.events[life.gap_at - 1];
  const model::LifeEvent& after = life.events[life.gap_at];
  w.Add(TraceEvent{"i", kPidMessages, tid, before.at, engine::Duration::Micros(-1),
                   LifeGapText(life, log.life_events_max), "message", "grey", "t",
                   TraceArgs()
                       .Int("message", static_cast<int64_t>(life.id))
                       .Int("events_left_out", life.events_left_out)
                       .Int("from_attempt", before.attempt)
                       .Int("until_attempt", after.attempt)
                       .Raw("until_ts", std::to_string(after.at.micros()))
                       .Text()});
}

void WriteLife(const model::MessageLife& life, int64_t tid, const model::TraceLog& log,
               TraceWriter& w) {
  std::string name = "message " + std::to_string(life.id);
  if (life.kind_index < log.kinds.size()) name += " " + log.kinds[life.kind_index];
  if (!life.key.empty()) name += " " + life.key;
  w.Meta(kPidMessages, tid, "thread", name, tid);
  const auto id = static_cast<int64_t>(life.id);
  const model::LifeEvent* entered = nullptr;  // the event that entered the current state
  const auto end_state = [&](engine::Instant at) {
    if (entered == nullptr || model::IsTerminal(entered->to) || at <= entered->at) return;
    w.Add(TraceEvent{
        "X", kPidMessages, tid, entered->at, at - entered->at, StateSpanName(entered->to, *entered),
        "state", StateColour(entered->to), "",
        TraceArgs().Int("message", id).Str("state", model::MessageStateName(entered->to)).Text()});
  };
  for (const model::LifeEvent& e : life.events) {
    if (e.type == model::LifeEvent::Type::kPublish ||
        e.type == model::LifeEvent::Type::kTransition) {
      end_state(e.at);
      entered = &e;
      if (model::IsTerminal(e.to)) {
        w.Add(TraceEvent{"i", kPidMessages, tid, e.at, engine::Duration::Micros(-1),
                         std::string(model::MessageStateName(e.to)), "state", "", "t",
                         TraceArgs().Int("message", id).Text()});
      }
      continue;
    }
    const std::string instant = LifeInstantName(e, log);
    if (instant.empty()) continue;
    w.Add(TraceEvent{"i", kPidMessages, tid, e.at, engine::Duration::Micros(-1), instant, "message",
                     "", "t", TraceArgs().Int("message", id).Int("worker", e.worker).Text()});
  }
  end_state(log.ended_at);
  if (life.events_left_out > 0) WriteLifeGap(life, tid, log, w);
}

std::string OtherData(const ReportInput& input) {
  const model::Results& r = input.results;
  TraceArgs data;
  data.Str("scenario", r.scenario_name).Str("seed", std::to_string(r.seed));
  data.Str("fingerprint", Hex16(r.fingerprint));
  data.Str("drainsim", input.context.drainsim_version);
  data.Str("time", "simulated: one trace microsecond is one simulated microsecond");
  const model::TraceLog* log = input.trace;
  if (log == nullptr) {
    data.Str("recording", "none: spans and message lives come with drainsim run --format trace");
    return data.Text();
  }
  data.Int("attempts", log->attempts_seen);
  data.Int("attempt_spans", static_cast<int64_t>(log->spans.size()));
  data.Int("attempt_spans_max", static_cast<int64_t>(log->spans_max));
  data.Int("attempt_spans_left_out", log->spans_left_out);
  if (log->spans_left_out > 0) {
    data.Str("attempt_spans_note",
             "only the first attempt_spans_max attempts and backoff sleeps are drawn; the "
             "counters and the message tracks cover the whole run");
  }
  data.Int("messages_published", log->published);
  data.Int("message_tracks", static_cast<int64_t>(log->lives.size()));
  data.Int("message_tracks_left_out", log->lives_dropped);
  // What the recorder's memory bounds (sim/model/trace_log.h, contract (2)) left out.
  data.Int("messages_not_recorded", log->lives_not_recorded);
  data.Int("messages_recorded_at_once_max", static_cast<int64_t>(log->lives_alive_max));
  data.Int("message_track_events_max", static_cast<int64_t>(log->life_events_max));
  data.Int("message_track_events_left_out", log->life_events_left_out);
  data.Int("worker_marks_max", static_cast<int64_t>(log->marks_max));
  data.Int("worker_marks_left_out", log->marks_left_out);
  if (log->lives_not_recorded > 0 || log->life_events_left_out > 0 || log->marks_left_out > 0) {
    data.Str("memory_bound_note",
             "the recorder's memory is bounded: messages published while "
             "messages_recorded_at_once_max lives were being recorded have no track; a track "
             "keeps its first and latest events (message_track_events_max in all; an instant "
             "marks each gap); worker crashes, restarts and fault strikes beyond worker_marks_max "
             "are not drawn. The counters cover the whole run.");
  }
  data.Str("message_sample",
           "ids below " + std::to_string(log->lives_first) +
               ", and every message dead-lettered, parked, expired, or whose work ran or tried "
               "to run twice; at most " +
               std::to_string(log->lives_max));
  return data.Text();
}

}  // namespace

std::string TraceReport(const ReportInput& input) {
  std::string out =
      "{\"displayTimeUnit\":\"ms\",\n\"otherData\":" + OtherData(input) + ",\n\"traceEvents\":[";
  TraceWriter w(out);
  w.Meta(kPidQueues, 0, "process", "queues", kPidQueues);
  WriteCounters(input.results, w);
  if (const model::TraceLog* log = input.trace) {
    const std::vector<OutcomeSlice> outcomes = OutcomesOf(*log);
    const TraceFlows flows = FlowsOf(*log, outcomes);
    WriteWorkers(*log, flows.spans, w);
    WriteMarks(*log, w);
    w.Meta(kPidMessages, 0, "process", "messages", kMessagesSortIndex);
    for (size_t i = 0; i < log->lives.size(); ++i) {
      WriteLife(log->lives[i], static_cast<int64_t>(i) + 1, *log, w);
    }
    WriteOutcomes(*log, outcomes, flows.outcomes, w);
  }
  out += "\n]}\n";
  return out;
}

}  // namespace drainsim::reports
