// One OTLP/JSON span, as a small JSON value, to a ProcessSpan (sim/telemetry/otlp_read.h has
// what is read and why). The streaming reader (otlp_sax.h) hands each span here whole; the
// rest of the file never is in memory at once.
//
// Contract: a span is added to the set, counted as skipped, or the reason it is bad is returned
// as "FILE: /pointer: reason". Kinds, classes and messages keep their numbers (first sight).
//
// Thread-safety: one reader per set.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sim/base/expected.h"
#include "sim/telemetry/otlp_read.h"
#include "sim/telemetry/set_names.h"

namespace drainsim::telemetry {

class SpanReader {
 public:
  // Kinds, classes and messages already in `set` keep their numbers. REQUIRES: `file` and `set`
  // outlive the reader.
  SpanReader(const std::string& file, TelemetrySet& set);

  // Adds the span at `pointer` to the set (or counts it skipped), or says what is wrong.
  base::Status ReadSpan(const nlohmann::json& span, const std::string& pointer);
  // "FILE: /pointer: reason"
  base::Status Problem(const std::string& pointer, const std::string& reason) const;

  // The keys of a span ReadSpan reads: others need not be kept.
  static bool IsRead(const std::string& key);

 private:
  // A database statement span (it has db.system.name or db.system): kept iff it has a parent.
  base::Status ReadStatement(const nlohmann::json& span, const std::string& pointer);
  // A span's start and end times, end not before start, or what is wrong with them.
  base::Status Interval(const nlohmann::json& span, const std::string& pointer, int64_t* start_ns,
                        int64_t* end_ns) const;
  std::optional<int64_t> Nanos(const nlohmann::json& span, const std::string& pointer,
                               const char* key, base::Status* status) const;

  const std::string& file_;
  TelemetrySet& set_;
  SetNames names_;
};

}  // namespace drainsim::telemetry
