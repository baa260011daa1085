#include "sim/telemetry/otlp_read.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>

#include "sim/base/check.h"
#include "sim/telemetry/json_source.h"
#include "sim/telemetry/otlp_sax.h"
#include "sim/telemetry/otlp_span.h"

namespace drainsim::telemetry {

namespace {

using base::Failure;

// "line L, column C" of the byte at `offset`, counting the bytes handed out by `source`.
std::string LineColumn(JsonSource& source, size_t offset) {
  size_t line = 1;
  size_t line_start = 0;  // the offset just after the last newline before `offset`
  for (; !source.AtEnd() && source.Offset() < offset; source.Advance()) {
    if (source.Peek() == '\n') {
      ++line;
      line_start = source.Offset() + 1;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(offset - line_start + 1);
}

// The sizes of a set before a file: what a failed file is cut back to (contract (2)).
struct Mark {
  size_t kinds, classes, messages, spans, statements;
  int64_t skipped;
  explicit Mark(const TelemetrySet& set)
      : kinds(set.kinds.size()),
        classes(set.classes.size()),
        messages(set.messages.size()),
        spans(set.spans.size()),
        statements(set.statements.size()),
        skipped(set.spans_skipped) {}
  void Restore(TelemetrySet& set) const {
    set.kinds.resize(kinds);
    set.classes.resize(classes);
    set.messages.resize(messages);
    set.spans.resize(spans);
    set.statements.resize(statements);
    set.spans_skipped = skipped;
  }
};

// Parses the source into `set`. The first problem, by precedence: nesting too deep anywhere in
// the bytes, then a syntax error, then the first problem of the structure or a span.
// `line_column` places an offset of the bytes in lines and columns.
base::Status Parse(JsonSource& source, const std::string& file,
                   const std::function<std::string(size_t)>& line_column, TelemetrySet* set) {
  const Mark mark(*set);
  SpanReader reader(file, *set);
  OtlpSax sax(reader, kDepthMax);
  nlohmann::json::sax_parse(source.begin(), JsonSource::end(), &sax);
  source.Drain();  // the scan for nesting covers the bytes the parser did not read
  base::Status status = sax.problem();
  if (source.read_failed()) {
    status = Failure{file + ": cannot read: " + "a read failed"};
  } else if (source.TooDeepAt() != std::string_view::npos) {
    status = Failure{file + ": " + line_column(source.TooDeepAt()) + ": nested deeper than " +
                     std::to_string(kDepthMax) + " levels"};
  } else if (const auto& syntax = sax.syntax_error(); syntax && syntax->is_parse_error) {
    status = Failure{file + ": " + line_column(syntax->byte == 0 ? 0 : syntax->byte - 1) +
                     ": not JSON: " + syntax->what};
  } else if (syntax) {
    status = Failure{file + ": not JSON: " + syntax->what};  // a number out of range (1e400)
  }
  if (!status) {
    mark.Restore(*set);
    return status;
  }
  set->files.push_back(file);
  return {};
}

}  // namespace

uint64_t SpanKey(std::string_view trace_id, std::string_view span_id) {
  uint64_t hash = 14695981039346656037ull;
  const auto add = [&hash](std::string_view text) {
    for (const char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  };
  add(trace_id);
  add("/");
  add(span_id);
  return hash == 0 ? 1 : hash;
}

base::Status ReadOtlpTraces(std::string_view text, const std::string& file, TelemetrySet* set) {
  DRAINSIM_CHECK(set != nullptr);
  if (text.size() > kTextBytesMax) {
    return Failure{file + ": larger than " + std::to_string(kTextBytesMax >> 20) + " MiB"};
  }
  JsonSource source(text, kDepthMax);
  const auto line_column = [text](size_t offset) {
    JsonSource again(text, kDepthMax);
    return LineColumn(again, std::min(offset, text.size()));
  };
  return Parse(source, file, line_column, set);
}

base::Status ReadOtlpTracesFile(const std::string& path, TelemetrySet* set) {
  DRAINSIM_CHECK(set != nullptr);
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) return Failure{path + ": cannot read: " + error.message()};
  if (size > kTextBytesMax) {
    return Failure{path + ": larger than " + std::to_string(kTextBytesMax >> 20) + " MiB"};
  }
  const auto open = [&path] { return std::fopen(path.c_str(), "rb"); };
  std::FILE* file = open();
  if (file == nullptr) return Failure{path + ": cannot open"};
  JsonSource source(file, kDepthMax);
  const auto line_column = [&](size_t offset) {
    std::FILE* again = open();
    if (again == nullptr) return "byte " + std::to_string(offset + 1);
    JsonSource from_start(again, kDepthMax);
    std::string place = LineColumn(from_start, std::min<std::uintmax_t>(offset, size));
    std::fclose(again);
    return place;
  };
  base::Status status = Parse(source, path, line_column, set);
  std::fclose(file);
  return status;
}

}  // namespace drainsim::telemetry
