#include "sim/telemetry/otlp_span.h"

#include <charconv>

namespace drainsim::telemetry {

namespace {

using Json = nlohmann::json;

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

// A string id member ("traceId", "spanId", "parentSpanId") as written, or "".
std::string Id(const Json& span, const char* key) {
  const auto it = span.find(key);
  return it != span.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

SpanReader::SpanReader(const std::string& file, TelemetrySet& set)
    : file_(file), set_(set), names_(set) {}

base::Status SpanReader::Problem(const std::string& pointer, const std::string& reason) const {
  return base::Failure{file_ + ": " + (pointer.empty() ? "/" : pointer) + ": " + reason};
}

bool SpanReader::IsRead(const std::string& key) {
  return key == "attributes" || key == "startTimeUnixNano" || key == "endTimeUnixNano" ||
         key == "status" || key == "events" || key == "traceId" || key == "spanId" ||
         key == "parentSpanId";
}

std::optional<int64_t> SpanReader::Nanos(const Json& span, const std::string& pointer,
                                         const char* key, base::Status* status) const {
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

base::Status SpanReader::ReadSpan(const Json& span, const std::string& pointer) {
  if (!span.is_object()) return Problem(pointer, "must be an object (a span)");
  const auto attributes = AttributeText(span.value("attributes", Json::array()));
  const auto find = [&](const char* key) -> const std::string* {
    const auto it = attributes.find(key);
    return it == attributes.end() ? nullptr : &it->second;
  };
  const std::string* operation = find("messaging.operation.type");
  if (operation == nullptr) operation = find("messaging.operation");
  if (operation == nullptr || *operation != "process") {
    if (find("db.system.name") != nullptr || find("db.system") != nullptr) {
      return ReadStatement(span, pointer);
    }
    ++set_.spans_skipped;
    return {};
  }
  const std::string* kind = find("drainsim.kind");
  if (kind == nullptr) kind = find("messaging.destination.name");
  if (kind == nullptr || kind->empty()) {
    return Problem(pointer + "/attributes",
                   "a process span without messaging.destination.name (or drainsim.kind)");
  }
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  if (base::Status status = Interval(span, pointer, &start_ns, &end_ns); !status.ok()) {
    return status;
  }
  ProcessSpan out;
  out.kind = names_.Kind(*kind);
  if (const std::string* id = find("messaging.message.id")) {
    out.message = names_.Message(*kind + "/" + *id);
  }
  out.start_ns = start_ns;
  out.end_ns = end_ns;
  out.failed = IsError(span);
  if (out.failed) out.error_class = names_.Class(ErrorClass(span, attributes));
  const std::string* outcome = find("drainsim.outcome");
  out.censored = outcome != nullptr && *outcome == "unfinished";
  if (const std::string span_id = Id(span, "spanId"); !span_id.empty()) {
    out.key = SpanKey(Id(span, "traceId"), span_id);
  }
  set_.spans.push_back(out);
  return {};
}

base::Status SpanReader::Interval(const Json& span, const std::string& pointer, int64_t* start_ns,
                                  int64_t* end_ns) const {
  base::Status status;
  const auto start = Nanos(span, pointer, "startTimeUnixNano", &status);
  if (!start) return status;
  const auto end = Nanos(span, pointer, "endTimeUnixNano", &status);
  if (!end) return status;
  if (*end < *start) return Problem(pointer + "/endTimeUnixNano", "before startTimeUnixNano");
  *start_ns = *start;
  *end_ns = *end;
  return {};
}

base::Status SpanReader::ReadStatement(const Json& span, const std::string& pointer) {
  const std::string parent = Id(span, "parentSpanId");
  if (parent.empty()) {  // a root database span: no process span to charge it to
    ++set_.spans_skipped;
    return {};
  }
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  if (base::Status status = Interval(span, pointer, &start_ns, &end_ns); !status.ok()) {
    return status;
  }
  set_.statements.push_back(
      StatementSpan{SpanKey(Id(span, "traceId"), parent), start_ns, end_ns, IsError(span)});
  return {};
}

}  // namespace drainsim::telemetry
