// The Trace Event Format's JSON, written event by event: what trace.json (reports/trace_report.h)
// is made of. Only the format lives here; what the events say is the trace report's business.
//
// Format: the Trace Event Format (docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsK
// chNAySU), as ui.perfetto.dev and chrome://tracing read it. Flows are the "v2" form, fields of
// the complete event itself ("bind_id", "flow_in", "flow_out"), which Perfetto's JSON importer
// binds to that very slice (src/trace_processor/importers/json/json_trace_parser*.cc,
// MaybeAddFlow): no timestamp has to fall inside a slice for an arrow to find it, as the older
// "s"/"t"/"f" events need.
//
// Contract:
//  (1) Deterministic: members are written in a fixed order, numbers as integers; the same
//      events give the same bytes.
//  (2) An event's optional members (cat, dur, s, cname, bind_id and its flags, args) are
//      written iff they are set.
//
// Thread-safety: a Writer appends to one string; use it from one thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/model/observer.h"  // engine::Instant and Duration, as the model hands them out

namespace drainsim::reports {

// `text` as a JSON string literal, quotes included (", \ and control characters escaped).
std::string JsonQuote(std::string_view text);

// A JSON object's members, written in the order added.
class TraceArgs {
 public:
  TraceArgs& Int(std::string_view key, int64_t value) { return Raw(key, std::to_string(value)); }
  TraceArgs& Str(std::string_view key, std::string_view value) {
    return Raw(key, JsonQuote(value));
  }
  TraceArgs& Raw(std::string_view key, std::string_view json);
  std::string Text() const { return "{" + body_ + "}"; }

 private:
  std::string body_;
};

// Where a slice stands in its flow (the arrows Perfetto draws between the slices of one flow, in
// time order): the first slice only leaves it, the last only enters it, the others do both.
enum class FlowRole : uint8_t { kNone, kStart, kStep, kEnd };

struct TraceEvent {
  std::string_view ph;
  int pid = 0;
  int64_t tid = 0;
  engine::Instant ts;
  engine::Duration dur = engine::Duration::Micros(-1);  // X events only
  std::string name;
  std::string_view cat;
  std::string_view cname;  // chrome://tracing's colour; Perfetto ignores it
  std::string_view scope;  // instants: "g" global, "t" thread
  std::string args;        // a JSON object, or empty
  uint64_t flow_id = 0;    // bind_id when flow != kNone; REQUIRES: > 0 then (0 reads as unset)
  FlowRole flow = FlowRole::kNone;  // X events only
};

class TraceWriter {
 public:
  // Appends to `out`, which holds the text before the events' array.
  explicit TraceWriter(std::string& out) : out_(out) {}
  void Add(const TraceEvent& e);
  // The "M" events that name a process or thread ("process"/"thread") and give its sort index.
  void Meta(int pid, int64_t tid, std::string_view what, std::string_view name, int64_t sort);

 private:
  std::string& out_;
  bool first_ = true;
};

}  // namespace drainsim::reports
