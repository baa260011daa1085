// The OTLP reader as it was before it streamed (03b7230): the whole text parsed into nlohmann
// DOM, then walked. Kept as the trivially correct model the streaming reader is compared with
// (fit_test.cc: the same spans or the same problem on every mutated input).
#include "tests/telemetry/otlp_read_dom.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "sim/base/check.h"

namespace drainsim::telemetry::testing {

namespace {

using Json = nlohmann::json;
using base::Failure;

// The byte offset where nesting first exceeds kDepthMax, outside strings; npos if never.
size_t TooDeepAt(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kDepthMax) return i;
    } else if (c == ']' || c == '}') {
      depth = std::max(0, depth - 1);
    }
  }
  return std::string_view::npos;
}

std::string LineColumn(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  const size_t line =
      1 + static_cast<size_t>(std::count(text.begin(), text.begin() + offset, '\n'));
  const size_t line_start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  const size_t column = line_start == std::string_view::npos ? offset + 1 : offset - line_start;
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// Walks one file, turning the first problem into "FILE: /pointer: reason".
class Reader {
 public:
  // Kinds, classes and messages of earlier files keep their numbers.
  Reader(const std::string& file, TelemetrySet& set) : file_(file), set_(set) {
    for (uint32_t i = 0; i < set.kinds.size(); ++i) kind_index_[set.kinds[i]] = i;
    for (uint32_t i = 0; i < set.classes.size(); ++i) class_index_[set.classes[i]] = i;
    for (uint32_t i = 0; i < set.messages.size(); ++i) message_index_[set.messages[i]] = i;
  }

  base::Status Read(const Json& root);

 private:
  base::Status Problem(const std::string& pointer, const std::string& reason) const {
    return Failure{file_ + ": " + (pointer.empty() ? "/" : pointer) + ": " + reason};
  }
  // The array at `key` of `object`, or a problem; an absent key is an empty array iff `optional`.
  const Json* ArrayAt(const Json& object, const std::string& pointer, const char* key,
                      bool optional, base::Status* status) const;
  base::Status ReadSpan(const Json& span, const std::string& pointer);
  std::optional<int64_t> Nanos(const Json& span, const std::string& pointer, const char* key,
                               base::Status* status) const;
  uint32_t Intern(std::vector<std::string>& names, std::map<std::string, uint32_t>& index,
                  const std::string& name);

  const std::string& file_;
  TelemetrySet& set_;
  std::map<std::string, uint32_t> kind_index_;
  std::map<std::string, uint32_t> class_index_;
  std::map<std::string, uint32_t> message_index_;
};

const Json* Reader::ArrayAt(const Json& object, const std::string& pointer, const char* key,
                            bool optional, base::Status* status) const {
  static const Json kEmpty = Json::array();
  if (!object.is_object()) {
    *status = Problem(pointer, "must be an object");
    return nullptr;
  }
  const auto it = object.find(key);
  if (it == object.end()) {
    if (optional) return &kEmpty;
    *status = Problem(pointer, std::string("has no \"") + key + "\"");
    return nullptr;
  }
  if (!it->is_array()) {
    *status = Problem(pointer + "/" + key, "must be an array");
    return nullptr;
  }
  return &*it;
}

uint32_t Reader::Intern(std::vector<std::string>& names, std::map<std::string, uint32_t>& index,
                        const std::string& name) {
  const auto [it, added] = index.emplace(name, static_cast<uint32_t>(names.size()));
  if (added) names.push_back(name);
  return it->second;
}

std::optional<int64_t> Reader::Nanos(const Json& span, const std::string& pointer, const char* key,
                                     base::Status* status) const {
  const std::string at = pointer + "/" + key;
  const auto it = span.find(key);
  if (it == span.end()) {
    *status = Problem(pointer, std::string("has no \"") + key + "\"");
    return std::nullopt;
  }
  int64_t value = -1;
  if (it->is_number_unsigned() && it->get<uint64_t>() <= INT64_MAX) {
    value = static_cast<int64_t>(it->get<uint64_t>());
  } else if (it->is_string()) {
    const std::string& text = it->get_ref<const std::string&>();
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || text.empty()) value = -1;
  }
  if (value < 0) {
    *status = Problem(at, "must be unix nanoseconds: a string of decimal digits below 2^63");
    return std::nullopt;
  }
  return value;
}

// Attribute values as text: stringValue, intValue (a string or a number), else "".
std::map<std::string, std::string> AttributeText(const Json& list) {
  std::map<std::string, std::string> out;
  if (!list.is_array()) return out;
  for (const Json& kv : list) {
    const auto key = kv.is_object() ? kv.find("key") : kv.end();
    if (!kv.is_object() || key == kv.end() || !key->is_string()) continue;
    const auto value = kv.find("value");
    if (value == kv.end() || !value->is_object()) continue;
    for (const char* type : {"stringValue", "intValue"}) {
      const auto v = value->find(type);
      if (v == value->end()) continue;
      if (v->is_string()) out[key->get<std::string>()] = v->get<std::string>();
      if (v->is_number_integer()) out[key->get<std::string>()] = std::to_string(v->get<int64_t>());
    }
  }
  return out;
}

bool IsError(const Json& span) {
  const auto status = span.find("status");
  if (status == span.end() || !status->is_object()) return false;
  const auto code = status->find("code");
  if (code == status->end()) return false;
  return (code->is_number_integer() && code->get<int64_t>() == 2) ||
         (code->is_string() && code->get<std::string>() == "STATUS_CODE_ERROR");
}

// exception.type of the span's first "exception" event, else error.type, else "unknown".
std::string ErrorClass(const Json& span, const std::map<std::string, std::string>& attributes) {
  const auto events = span.find("events");
  if (events != span.end() && events->is_array()) {
    for (const Json& event : *events) {
      if (!event.is_object() || event.value("name", Json()) != "exception") continue;
      const auto a = AttributeText(event.value("attributes", Json::array()));
      if (const auto it = a.find("exception.type"); it != a.end() && !it->second.empty()) {
        return it->second;
      }
    }
  }
  if (const auto it = attributes.find("error.type"); it != attributes.end()) return it->second;
  return "unknown";
}

base::Status Reader::ReadSpan(const Json& span, const std::string& pointer) {
  if (!span.is_object()) return Problem(pointer, "must be an object (a span)");
  const auto attributes = AttributeText(span.value("attributes", Json::array()));
  const auto find = [&](const char* key) -> const std::string* {
    const auto it = attributes.find(key);
    return it == attributes.end() ? nullptr : &it->second;
  };
  const std::string* operation = find("messaging.operation.type");
  if (operation == nullptr) operation = find("messaging.operation");
  if (operation == nullptr || *operation != "process") {
    ++set_.spans_skipped;
    return {};
  }
  const std::string* kind = find("drainsim.kind");
  if (kind == nullptr) kind = find("messaging.destination.name");
  if (kind == nullptr || kind->empty()) {
    return Problem(pointer + "/attributes",
                   "a process span without messaging.destination.name (or drainsim.kind)");
  }
  base::Status status;
  const auto start = Nanos(span, pointer, "startTimeUnixNano", &status);
  if (!start) return status;
  const auto end = Nanos(span, pointer, "endTimeUnixNano", &status);
  if (!end) return status;
  if (*end < *start) return Problem(pointer + "/endTimeUnixNano", "before startTimeUnixNano");
  ProcessSpan out;
  out.kind = Intern(set_.kinds, kind_index_, *kind);
  if (const std::string* id = find("messaging.message.id")) {
    out.message = Intern(set_.messages, message_index_, *kind + "/" + *id);
  }
  out.start_ns = *start;
  out.end_ns = *end;
  out.failed = IsError(span);
  if (out.failed)
    out.error_class = Intern(set_.classes, class_index_, ErrorClass(span, attributes));
  const std::string* outcome = find("drainsim.outcome");
  out.censored = outcome != nullptr && *outcome == "unfinished";
  set_.spans.push_back(out);
  return {};
}

base::Status Reader::Read(const Json& root) {
  base::Status status;
  const Json* resources = ArrayAt(root, "", "resourceSpans", false, &status);
  if (resources == nullptr) return status;
  for (size_t r = 0; r < resources->size(); ++r) {
    const std::string rp = "/resourceSpans/" + std::to_string(r);
    const Json* scopes = ArrayAt((*resources)[r], rp, "scopeSpans", true, &status);
    if (scopes == nullptr) return status;
    for (size_t s = 0; s < scopes->size(); ++s) {
      const std::string sp = rp + "/scopeSpans/" + std::to_string(s);
      const Json* spans = ArrayAt((*scopes)[s], sp, "spans", true, &status);
      if (spans == nullptr) return status;
      for (size_t i = 0; i < spans->size(); ++i) {
        status = ReadSpan((*spans)[i], sp + "/spans/" + std::to_string(i));
        if (!status) return status;
      }
    }
  }
  return {};
}

}  // namespace

base::Status ReadOtlpTracesDom(std::string_view text, const std::string& file, TelemetrySet* set) {
  DRAINSIM_CHECK(set != nullptr);
  if (text.size() > kTextBytesMax) {
    return Failure{file + ": larger than " + std::to_string(kTextBytesMax >> 20) + " MiB"};
  }
  if (const size_t at = TooDeepAt(text); at != std::string_view::npos) {
    return Failure{file + ": " + LineColumn(text, at) + ": nested deeper than " +
                   std::to_string(kDepthMax) + " levels"};
  }
  Json root;
  try {
    root = Json::parse(text);
  } catch (const Json::parse_error& e) {
    return Failure{file + ": " + LineColumn(text, e.byte == 0 ? 0 : e.byte - 1) +
                   ": not JSON: " + e.what()};
  } catch (const Json::exception& e) {
    return Failure{file + ": not JSON: " + e.what()};  // a number out of range (1e400)
  }
  // Read into a copy: either every span of the file is added, or none (contract (2)).
  TelemetrySet grown = *set;
  Reader reader(file, grown);
  base::Status status = reader.Read(root);
  if (!status) return status;
  grown.files.push_back(file);
  *set = std::move(grown);
  return {};
}

}  // namespace drainsim::telemetry::testing
