// Reading OpenTelemetry traces in OTLP/JSON for `drainsim fit`: the messaging consumers'
// "process" spans, each reduced to what a fit needs (kind, message, times, failure class). An
// input layer beside the scenario format (sim/scenario/): bytes in, plain records or the reason
// out; no statistics here (experiments/fit.h).
//
// What is read (docs/TELEMETRY.md, "Reading telemetry"): {"resourceSpans": [{"scopeSpans":
// [{"spans": [...]}]}]}. A span is a processing span iff its attribute messaging.operation.type
// (or the older messaging.operation) is "process"; others are counted and skipped. Its kind is
// drainsim.kind, else messaging.destination.name; its message messaging.message.id (optional);
// its times startTimeUnixNano and endTimeUnixNano (decimal strings, as OTLP/JSON writes 64-bit
// integers, or JSON integers); it failed iff status.code is 2 (or "STATUS_CODE_ERROR"), with the
// class from its "exception" event's exception.type, else error.type, else "unknown". A span
// whose drainsim.outcome is "unfinished" was cut by the run's end: kept, marked censored. A span
// with db.system.name (or db.system) and a parentSpanId is a database statement (StatementSpan).
//
// Contract:
//  (1) Never throws and never recurses deeper than kDepthMax: the bytes are scanned for nesting
//      as the parser takes them (json_source.h), and the parse is a SAX parse (otlp_sax.h) that
//      keeps no more than one span's value at a time. Input over kTextBytesMax is refused.
//  (2) Either every span of the text is read, or the result is the first problem:
//      "FILE: /json/pointer: reason" (syntax errors: "FILE: line L, column C: reason"). Nesting
//      too deep anywhere comes first, then a syntax error, then problems in document order (the
//      same a walk of the parsed text would find first; a structural key given twice in one
//      object is a problem, see otlp_sax.h).
//  (3) Deterministic: spans in the file's order; kinds and classes numbered by first sight.
//  (4) Memory: the set's records and one span's value; a file read by ReadOtlpTracesFile is
//      never in memory whole (1 MiB chunks).
//
// Thread-safety: reentrant.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/base/expected.h"

namespace drainsim::telemetry {

inline constexpr size_t kTextBytesMax = size_t{1} << 30;  // 1 GiB
inline constexpr int kDepthMax = 64;

struct ProcessSpan {
  uint32_t kind = 0;         // index into TelemetrySet::kinds
  int64_t message = -1;      // index into TelemetrySet::messages; -1: no messaging.message.id
  int64_t start_ns = 0;      // unix nanoseconds
  int64_t end_ns = 0;        // >= start_ns
  bool failed = false;       // status ERROR
  uint32_t error_class = 0;  // index into TelemetrySet::classes when failed
  bool censored = false;     // drainsim.outcome "unfinished": still running at the end
  // SpanKey(traceId, spanId), by which its database statements name it; 0 without a spanId.
  uint64_t key = 0;
};

// A database client span under a process span: an attribute db.system.name (or the older
// db.system) and a parentSpanId. Which process span, and so which kind, is resolved when the
// fit has read every file (experiments/fit.h): a child may come before its parent.
struct StatementSpan {
  uint64_t parent_key = 0;  // SpanKey(traceId, parentSpanId)
  int64_t start_ns = 0;
  int64_t end_ns = 0;   // >= start_ns
  bool failed = false;  // status ERROR
};

struct TelemetrySet {
  std::vector<std::string> files;  // the files read, in order
  std::vector<std::string> kinds;
  std::vector<std::string> classes;
  std::vector<std::string> messages;  // message ids as written (per kind: "kind/id")
  std::vector<ProcessSpan> spans;
  std::vector<StatementSpan> statements;
  int64_t spans_skipped = 0;  // spans that are neither process spans nor statements under one
};

// A 64-bit FNV-1a hash of "traceId/spanId": a span's name among the files' spans in 8 bytes.
// Two spans' keys collide with probability about n^2 / 2^65 (3e-8 for a million spans); 0 is
// never returned.
uint64_t SpanKey(std::string_view trace_id, std::string_view span_id);

// Reads one file's text into `set` (appending; kinds, classes and messages are shared between
// files). `file` names it in problems. REQUIRES: set != nullptr
base::Status ReadOtlpTraces(std::string_view text, const std::string& file, TelemetrySet* set);
// The same, streaming the file at `path` (which names it in problems). REQUIRES: set != nullptr
base::Status ReadOtlpTracesFile(const std::string& path, TelemetrySet* set);

}  // namespace drainsim::telemetry
