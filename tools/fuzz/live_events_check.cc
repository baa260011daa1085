#include "tools/fuzz/live_events_check.h"

#include "sim/telemetry/live_events_read.h"

namespace drainsim::fuzz {

namespace {

constexpr const char* kFile = "fuzz.jsonl";

// A set that already holds one file's span, so that a failed read can be seen to leave it.
telemetry::TelemetrySet Seeded() {
  telemetry::TelemetrySet set;
  const base::Status read = telemetry::ReadLiveEvents(
      "{\"t_s\":0,\"event\":\"publish\",\"id\":1,\"detail\":\"job\"}\n"
      "{\"t_s\":1,\"event\":\"attempt\",\"id\":1,\"worker\":0,\"attempt\":1}\n",
      "seed.jsonl", &set);
  (void)read;  // a fixed, valid text
  return set;
}

bool SameSpans(const telemetry::TelemetrySet& a, const telemetry::TelemetrySet& b) {
  if (a.spans.size() != b.spans.size() || a.kinds != b.kinds || a.classes != b.classes ||
      a.messages != b.messages || a.files != b.files) {
    return false;
  }
  for (size_t i = 0; i < a.spans.size(); ++i) {
    const telemetry::ProcessSpan& x = a.spans[i];
    const telemetry::ProcessSpan& y = b.spans[i];
    if (x.kind != y.kind || x.message != y.message || x.start_ns != y.start_ns ||
        x.end_ns != y.end_ns || x.failed != y.failed || x.error_class != y.error_class ||
        x.censored != y.censored) {
      return false;
    }
  }
  return true;
}

std::string CheckSpans(const telemetry::TelemetrySet& set) {
  for (const telemetry::ProcessSpan& s : set.spans) {
    if (s.end_ns < s.start_ns) return "a span that ends before it starts";
    if (s.kind >= set.kinds.size()) return "a span of no kind";
    if (s.message < 0 || static_cast<size_t>(s.message) >= set.messages.size()) {
      return "a span of no message";
    }
    if (s.failed && s.error_class >= set.classes.size()) return "a failure of no class";
  }
  return "";
}

}  // namespace

std::string CheckLiveEventsBytes(std::string_view bytes) {
  const telemetry::TelemetrySet before = Seeded();
  telemetry::TelemetrySet first = before;
  telemetry::TelemetrySet second = before;
  const base::Status a = telemetry::ReadLiveEvents(bytes, kFile, &first);
  const base::Status b = telemetry::ReadLiveEvents(bytes, kFile, &second);
  if (a.ok() != b.ok()) return "two reads of the same bytes disagree";
  if (!a.ok()) {
    if (a.error().rfind(std::string(kFile) + ": ", 0) != 0) {
      return "a problem that does not name the file: " + a.error();
    }
    if (a.error() != b.error()) return "two reads give different problems";
    if (!SameSpans(first, before)) return "a failed read changed the set";
    return "";
  }
  if (!SameSpans(first, second)) return "two reads give different spans";
  return CheckSpans(first);
}

}  // namespace drainsim::fuzz
