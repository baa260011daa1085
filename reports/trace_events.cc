#include "reports/trace_events.h"

#include <cstdio>

#include "sim/base/check.h"

namespace drainsim::reports {

std::string JsonQuote(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\u%04x", static_cast<unsigned>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

TraceArgs& TraceArgs::Raw(std::string_view key, std::string_view json) {
  if (!body_.empty()) body_ += ',';
  body_ += JsonQuote(key);
  body_ += ':';
  body_ += json;
  return *this;
}

void TraceWriter::Add(const TraceEvent& e) {
  out_ += first_ ? "\n" : ",\n";
  first_ = false;
  TraceArgs fields;
  fields.Str("name", e.name);
  if (!e.cat.empty()) fields.Str("cat", e.cat);
  fields.Str("ph", e.ph).Int("ts", e.ts.micros());
  if (e.dur.micros() >= 0) fields.Int("dur", e.dur.micros());
  fields.Int("pid", e.pid).Int("tid", e.tid);
  if (!e.scope.empty()) fields.Str("s", e.scope);
  if (!e.cname.empty()) fields.Str("cname", e.cname);
  if (e.flow != FlowRole::kNone) {
    // A flow id of 0 would read as "no id" in viewers that test it for truth.
    DRAINSIM_CHECK(e.flow_id > 0);
    fields.Int("bind_id", static_cast<int64_t>(e.flow_id));
    if (e.flow != FlowRole::kStart) fields.Raw("flow_in", "true");
    if (e.flow != FlowRole::kEnd) fields.Raw("flow_out", "true");
  }
  if (!e.args.empty()) fields.Raw("args", e.args);
  out_ += fields.Text();
}

void TraceWriter::Meta(int pid, int64_t tid, std::string_view what, std::string_view name,
                       int64_t sort) {
  Add(TraceEvent{"M", pid, tid, engine::Instant::Zero(), engine::Duration::Micros(-1),
                 std::string(what) + "_name", "", "", "", TraceArgs().Str("name", name).Text()});
  Add(TraceEvent{"M", pid, tid, engine::Instant::Zero(), engine::Duration::Micros(-1),
                 std::string(what) + "_sort_index", "", "", "",
                 TraceArgs().Int("sort_index", sort).Text()});
}

}  // namespace drainsim::reports
