// The streaming OTLP reader (sim/telemetry/otlp_read.h) against the reader it replaced, which
// parsed the whole text into a DOM (otlp_read_dom.h): the same spans, or the same problem word
// for word, on valid files and on thousands of mutated ones; the file reader (1 MiB chunks)
// agrees with the text reader across chunk boundaries.
#include "sim/telemetry/otlp_read.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/telemetry/json_source.h"
#include "tests/telemetry/otlp_read_dom.h"

namespace drainsim::telemetry {
namespace otlp_read_test {
namespace {

bool SameSpan(const ProcessSpan& a, const ProcessSpan& b) {
  return a.kind == b.kind && a.message == b.message && a.start_ns == b.start_ns &&
         a.end_ns == b.end_ns && a.failed == b.failed && a.error_class == b.error_class &&
         a.censored == b.censored;
}

void RequireSameSet(const TelemetrySet& a, const TelemetrySet& b) {
  REQUIRE(a.files == b.files);
  REQUIRE(a.kinds == b.kinds);
  REQUIRE(a.classes == b.classes);
  REQUIRE(a.messages == b.messages);
  REQUIRE(a.spans_skipped == b.spans_skipped);
  REQUIRE(a.spans.size() == b.spans.size());
  for (size_t i = 0; i < a.spans.size(); ++i) REQUIRE(SameSpan(a.spans[i], b.spans[i]));
}

std::string Span(int message, bool failed, const std::string& kind) {
  const std::string start = std::to_string(1'000'000'000LL + message * 1'000'000LL);
  const std::string end = std::to_string(1'000'000'000LL + message * 1'000'000LL + 5'000'000);
  std::string span = R"({"traceId": "01", "name": "process", "links": [{"spanId": "x"}],
    "startTimeUnixNano": ")" +
                     start + R"(", "endTimeUnixNano": ")" + end + R"(",
    "attributes": [{"key": "messaging.operation.type", "value": {"stringValue": "process"}},
                   {"key": "drainsim.kind", "value": {"stringValue": ")" +
                     kind + R"("}},
                   {"key": "messaging.message.id", "value": {"intValue": ")" +
                     std::to_string(message % 7) + R"("}}])";
  if (failed) {
    span += R"(, "status": {"code": 2}, "events": [{"name": "exception", "attributes":
      [{"key": "exception.type", "value": {"stringValue": "transient"}}]}])";
  }
  return span + "}";
}

// Two resources, the second with two scopes, a skipped span and a resource without scopes.
std::string Traces(int spans_per_scope) {
  std::string scopes[3];
  for (int s = 0; s < 3; ++s) {
    for (int i = 0; i < spans_per_scope; ++i) {
      scopes[s] += (i ? ",\n" : "") + Span(s * 1000 + i, i % 5 == 3, s == 2 ? "mail" : "job");
    }
  }
  return R"({"resourceSpans": [{"resource": {}, "scopeSpans": [{"scope": {"name": "a"}, "spans": [)" +
         scopes[0] + R"(]}]}, {"scopeSpans": [{"spans": [)" + scopes[1] +
         R"(, {"name": "send", "attributes": []}]}, {"spans": [)" + scopes[2] +
         R"(]}]}, {"resource": {"x": [[[1]]]}}], "other": {"spans": 5}})";
}

// The streaming reader's result, required equal to the DOM reader's; true iff it read.
bool RequireSameAsDom(const std::string& text) {
  TelemetrySet streamed;
  TelemetrySet parsed;
  const base::Status s = ReadOtlpTraces(text, "t.json", &streamed);
  const base::Status d = testing::ReadOtlpTracesDom(text, "t.json", &parsed);
  INFO(text.substr(0, 400));
  REQUIRE(s.ok() == d.ok());
  if (!s.ok()) REQUIRE(s.error() == d.error());
  RequireSameSet(streamed, parsed);
  return s.ok();
}

TEST_CASE("otlp reader: streaming reads what the DOM reader read", "[fit][otlp]") {
  REQUIRE(RequireSameAsDom(Traces(4)));
  TelemetrySet set;
  REQUIRE(ReadOtlpTraces(Traces(4), "t.json", &set).ok());
  CHECK(set.spans.size() == 12);
  CHECK(set.spans_skipped == 1);
  CHECK(set.kinds == std::vector<std::string>{"job", "mail"});
  for (const std::string& text :
       {std::string("[]"), std::string("{}"), std::string("5"),
        std::string("{\"resourceSpans\": 5}"), std::string("{\"resourceSpans\": [5]}"),
        std::string("{\"resourceSpans\": [{\"scopeSpans\": {}}]}"),
        std::string("{\"resourceSpans\": [{\"scopeSpans\": [[]]}]}"),
        std::string("{\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": [1]}]}]}"),
        std::string("{\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": \"no\"}]}]}"),
        std::string("{\"resourceSpans\": [}"), std::string("{\"resourceSpans\": [1e400]}"),
        std::string(100, '[') + std::string(100, ']'), "{]" + std::string(70, '{'),
        std::string("{\"a\": \"[[[[\\\"[[[[\"}")}) {
    RequireSameAsDom(text);
  }
}

TEST_CASE("otlp reader: a structural key given twice is a problem, not the last", "[fit][otlp]") {
  TelemetrySet set;
  const base::Status s = ReadOtlpTraces(
      R"({"resourceSpans": [{"scopeSpans": [], "scopeSpans": []}]})", "t.json", &set);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error() ==
        "t.json: /resourceSpans/0: has \"scopeSpans\" twice (a streaming reader "
        "cannot take the last only)");
}

// Mutations as fit_test.cc's fuzz case makes them, here compared with the DOM reader.
TEST_CASE("otlp reader: the same result as the DOM reader on mutated input", "[fit][otlp][fuzz]") {
  const std::string valid = Traces(2);
  const std::string inserts[] = {"[",
                                 "]",
                                 "{",
                                 "}",
                                 "\"",
                                 ",",
                                 "-1",
                                 "1e400",
                                 "null",
                                 "\\u0000",
                                 "\"99999999999999999999\"",
                                 "\"scopeSpans\": [",
                                 "\n"};
  uint64_t state = 4242;
  const auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  };
  int read = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string text = valid;
    for (int edits = 1 + static_cast<int>(next() % 3); edits > 0; --edits) {
      const size_t at = next() % text.size();
      switch (next() % 4) {
        case 0:
          text[at] = static_cast<char>(next() % 256);
          break;
        case 1:
          text.erase(at, 1 + next() % 20);
          break;
        case 2:
          text.insert(at, inserts[next() % std::size(inserts)]);
          break;
        default:
          text.resize(at);
          break;
      }
      if (text.empty()) text = "{";
    }
    if (RequireSameAsDom(text)) ++read;
  }
  CHECK(read > 100);
}

TEST_CASE("otlp reader: the file reader streams in chunks and agrees with the text reader",
          "[fit][otlp]") {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("drainsim-otlp-read-" + std::to_string(getpid()) + ".json"))
                               .string();
  const auto both = [&path](const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
    TelemetrySet from_file;
    TelemetrySet from_text;
    const base::Status f = ReadOtlpTracesFile(path, &from_file);
    const base::Status t = ReadOtlpTraces(text, path, &from_text);
    REQUIRE(f.ok() == t.ok());
    if (!f.ok()) REQUIRE(f.error() == t.error());
    RequireSameSet(from_file, from_text);
    return f;
  };
  std::string text = Traces(4000);  // several chunks
  REQUIRE(text.size() > 2 * JsonSource::kChunkBytes);
  REQUIRE(both(text).ok());
  // A problem past the first chunk: its line, and its pointer.
  const size_t late = text.rfind("\"endTimeUnixNano\": \"");
  std::string bad = text;
  bad.replace(late, 20, "\"endTimeUnixNano\": \"x");
  CHECK(both(bad).error() ==
        path +
            ": /resourceSpans/1/scopeSpans/1/spans/3999/endTimeUnixNano: must be unix "
            "nanoseconds: a string of decimal digits below 2^63");
  bad = text;
  bad.insert(late, "}");
  const std::string error = both(bad).error();
  CHECK(error.rfind(path + ": line ", 0) == 0);
  CHECK(error.find("not JSON") != std::string::npos);
  CHECK(both(text.substr(0, text.size() - 1) + std::string(80, '['))
            .error()
            .find("nested deeper than 64 levels") != std::string::npos);
  std::filesystem::remove(path);
  TelemetrySet set;
  CHECK(ReadOtlpTracesFile(path, &set).error().rfind(path + ": cannot read: ", 0) == 0);
}

}  // namespace
}  // namespace otlp_read_test
}  // namespace drainsim::telemetry
