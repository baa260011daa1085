#include "sim/telemetry/otlp_sax.h"

namespace drainsim::telemetry {

const char* OtlpSax::MemberName(Role role) {
  return role == Role::kResources ? "resourceSpans"
         : role == Role::kScopes  ? "scopeSpans"
                                  : "spans";
}

bool OtlpSax::Open(bool object) {
  if (++depth_ > depth_max_) return false;  // the source's scan names the place (contract (2))
  if (done_) return true;
  if (!span_open_.empty()) {
    if (KeepsNext()) {
      Keep(object ? Json::object() : Json::array(), true);
    } else {
      ++span_skip_;  // a member of the span no reader needs (name, links, ...), or inside one
    }
    return true;
  }
  const std::optional<Role> role = Place(object, !object);
  if (!role) return true;  // a problem: nothing more is read
  if (*role == Role::kSpan) {
    span_ = Json::object();
    span_open_.assign(1, &span_);
    span_key_.clear();
    return true;
  }
  frames_.push_back(Frame{*role});
  return true;
}

bool OtlpSax::Close() {
  --depth_;
  if (done_) return true;
  if (!span_open_.empty()) {
    SpanClose();
    return true;
  }
  const Frame frame = frames_.back();
  frames_.pop_back();
  if (frame.role == Role::kTop && !frame.found) Fail("", "has no \"resourceSpans\"");
  return true;
}

bool OtlpSax::key(std::string& name) {
  if (done_) return true;
  if (!span_open_.empty()) {
    if (span_skip_ == 0) span_key_ = std::move(name);
    return true;
  }
  Frame& frame = frames_.back();
  frame.next = Role::kSkip;
  // The one member of each structural object that is read, and the role of its value.
  const Role role = frame.role == Role::kTop        ? Role::kResources
                    : frame.role == Role::kResource ? Role::kScopes
                    : frame.role == Role::kScope    ? Role::kSpans
                                                    : Role::kSkip;
  if (role == Role::kSkip || name != MemberName(role)) return true;
  if (frame.found) {
    Fail(Pointer(), "has \"" + name + "\" twice (a streaming reader cannot take the last only)");
    return true;
  }
  frame.found = true;
  frame.next = role;
  return true;
}

std::optional<OtlpSax::Role> OtlpSax::Place(bool is_object, bool is_array) {
  if (frames_.empty()) {
    if (is_object) return Role::kTop;
    Fail("", "must be an object");
    return std::nullopt;
  }
  Frame& frame = frames_.back();
  switch (frame.role) {
    case Role::kTop:
    case Role::kResource:
    case Role::kScope: {
      const Role next = frame.next;
      frame.next = Role::kSkip;
      if (next == Role::kSkip || is_array) return next;
      Fail(Pointer() + "/" + MemberName(next), "must be an array");
      return std::nullopt;
    }
    case Role::kResources:
    case Role::kScopes:
    case Role::kSpans: {
      ++frame.index;
      const Role element = frame.role == Role::kResources ? Role::kResource
                           : frame.role == Role::kScopes  ? Role::kScope
                                                          : Role::kSpan;
      if (is_object) return element;
      Fail(Pointer(), element == Role::kSpan ? "must be an object (a span)" : "must be an object");
      return std::nullopt;
    }
    default:
      return Role::kSkip;
  }
}

void OtlpSax::Keep(Json value, bool container) {
  Json* open = span_open_.back();
  Json* slot = nullptr;
  if (open->is_array()) {
    open->push_back(std::move(value));
    slot = &open->back();
  } else {
    slot = &(*open)[span_key_];  // a repeated key: the last wins, as in a parsed text
    *slot = std::move(value);
  }
  if (container) span_open_.push_back(slot);
}

void OtlpSax::SpanClose() {
  if (span_skip_ > 0) {
    --span_skip_;
    return;
  }
  span_open_.pop_back();
  if (!span_open_.empty()) return;
  base::Status status = reader_.ReadSpan(span_, Pointer());
  if (!status) {
    problem_ = std::move(status);
    done_ = true;
  }
  span_ = Json();
}

std::string OtlpSax::Pointer() const {
  std::string pointer;
  for (const Frame& frame : frames_) {
    const bool is_array =
        frame.role == Role::kResources || frame.role == Role::kScopes || frame.role == Role::kSpans;
    if (!is_array) continue;
    pointer += '/';
    pointer += MemberName(frame.role);
    pointer += '/' + std::to_string(frame.index - 1);
  }
  return pointer;
}

void OtlpSax::Fail(const std::string& pointer, const std::string& reason) {
  problem_ = reader_.Problem(pointer, reason);
  done_ = true;
}

bool OtlpSax::parse_error(size_t, const std::string&, const nlohmann::detail::exception& error) {
  SyntaxError syntax;
  syntax.what = error.what();
  if (const auto* parse = dynamic_cast<const Json::parse_error*>(&error)) {
    syntax.is_parse_error = true;
    syntax.byte = parse->byte;
  }
  syntax_error_ = std::move(syntax);
  return false;
}

}  // namespace drainsim::telemetry
