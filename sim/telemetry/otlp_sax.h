// The streaming half of the OTLP/JSON reader (sim/telemetry/otlp_read.h): a SAX handler for
// nlohmann::json::sax_parse that walks {"resourceSpans": [{"scopeSpans": [{"spans": [...]}]}]}
// and builds each span, and only the span, as a small JSON value (only the members a span
// reader reads: SpanReader::IsRead) for SpanReader. Memory is one span's, not the file's.
//
// Contract:
//  (1) Problems come in document order, the same a walk of the whole parsed text would find
//      first, with the same pointers and words; after the first, the handler keeps the parser
//      going (so that a later syntax error, which takes precedence, is still found) and reads
//      nothing more. One exception to "the same": a structural key (resourceSpans, scopeSpans,
//      spans) given twice in one object is a problem here, where a parsed text kept the last.
//  (2) Never recurses: the span's value is built with an explicit stack; nesting deeper than
//      depth_max stops the parse (the source's scan reports it: json_source.h).
//  (3) A syntax error or a number out of range is kept, as the parser reports it, apart from
//      the problems of (1).
//
// Thread-safety: one handler per parse.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sim/base/expected.h"
#include "sim/telemetry/otlp_span.h"

namespace drainsim::telemetry {

class OtlpSax {
 public:
  using Json = nlohmann::json;

  struct SyntaxError {
    bool is_parse_error = false;  // else a number out of range (1e400)
    size_t byte = 0;              // parse errors: the parser's byte count at the error
    std::string what;
  };

  OtlpSax(SpanReader& reader, int depth_max) : reader_(reader), depth_max_(depth_max) {}

  const base::Status& problem() const { return problem_; }
  const std::optional<SyntaxError>& syntax_error() const { return syntax_error_; }

  // nlohmann::json's SAX interface.
  bool null() {
    return Scalar([] { return Json(nullptr); });
  }
  bool boolean(bool value) {
    return Scalar([value] { return Json(value); });
  }
  bool number_integer(Json::number_integer_t value) {
    return Scalar([value] { return Json(value); });
  }
  bool number_unsigned(Json::number_unsigned_t value) {
    return Scalar([value] { return Json(value); });
  }
  bool number_float(Json::number_float_t value, const std::string&) {
    return Scalar([value] { return Json(value); });
  }
  bool string(std::string& value) {
    return Scalar([&value] { return Json(std::move(value)); });
  }
  bool binary(Json::binary_t&) {
    return Scalar([] { return Json(nullptr); });
  }  // not in JSON
  bool start_object(size_t) { return Open(true); }
  bool start_array(size_t) { return Open(false); }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }
  bool key(std::string& name);
  bool parse_error(size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& error);

 private:
  // Where a value sits in the structure; kSkip: inside something not read; kSpan: a span (built
  // in span_, no frame).
  enum class Role : uint8_t { kTop, kResources, kResource, kScopes, kScope, kSpans, kSpan, kSkip };
  struct Frame {
    Role role;
    size_t index = 0;         // arrays: the elements begun
    bool found = false;       // objects: their structural key seen
    Role next = Role::kSkip;  // objects: the role of the value after the last key
  };

  // "resourceSpans", "scopeSpans" or "spans": the member whose value has `role` (an array's).
  static const char* MemberName(Role role);
  // A value that is no container; `make` builds it, called only if the value is kept (most
  // of a file's strings are not: ids, names, links).
  template <typename Make>
  bool Scalar(const Make& make) {
    if (done_) return true;
    if (span_open_.empty()) {
      Place(false, false);  // only for its problem: a scalar where structure was expected
    } else if (KeepsNext()) {
      Keep(make(), false);
    }
    return true;
  }
  // Whether the span keeps the next value; Keep stores it (and opens it if a container).
  bool KeepsNext() const {
    return span_skip_ == 0 && (span_open_.size() > 1 || SpanReader::IsRead(span_key_));
  }
  void Keep(Json value, bool container);
  bool Open(bool object);
  bool Close();
  // The role a value starting at the top of the stack takes, or nullopt after a problem (a value
  // of the wrong type where structure was expected). Counts array elements.
  std::optional<Role> Place(bool is_object, bool is_array);
  void SpanClose();
  std::string Pointer() const;  // of the innermost element begun
  void Fail(const std::string& pointer, const std::string& reason);

  SpanReader& reader_;
  const int depth_max_;
  int depth_ = 0;
  std::vector<Frame> frames_;
  // The span being built: its value, the containers open in it, the key of the next value, and
  // how deep inside a member that is not kept.
  Json span_;
  std::vector<Json*> span_open_;
  std::string span_key_;
  int span_skip_ = 0;
  bool done_ = false;  // a problem was found: read nothing more
  base::Status problem_;
  std::optional<SyntaxError> syntax_error_;
};

}  // namespace drainsim::telemetry
