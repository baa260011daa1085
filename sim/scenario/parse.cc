#include "sim/scenario/parse.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <vector>

namespace drainsim::scenario::internal {

namespace {

// Offset of the first byte that breaks UTF-8 (RFC 3629: no overlong forms, no surrogates,
// nothing above U+10FFFF), or nullopt if the text is valid.
std::optional<size_t> FirstInvalidUtf8(std::string_view text) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const size_t size = text.size();
  size_t i = 0;
  while (i < size) {
    const unsigned char lead = bytes[i];
    if (lead < 0x80) {
      ++i;
      continue;
    }
    size_t length = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      if (lead == 0xE0) low = 0xA0;
      if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      if (lead == 0xF0) low = 0x90;
      if (lead == 0xF4) high = 0x8F;
    } else {
      return i;
    }
    if (i + length > size) return i;
    for (size_t k = 1; k < length; ++k) {
      const unsigned char next = bytes[i + k];
      const unsigned char lo = k == 1 ? low : 0x80;
      const unsigned char hi = k == 1 ? high : 0xBF;
      // Report the sequence's first byte: it is the one a user recognises (0xE9 for a
      // Latin-1 'é'), not the ASCII byte after it.
      if (next < lo || next > hi) return i;
    }
    i += length;
  }
  return std::nullopt;
}

// Offset of the bracket that first exceeds kDepthMax levels of nesting outside strings.
std::optional<size_t> FirstTooDeep(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kDepthMax) return i;
    } else if (c == ']' || c == '}') {
      // Unbalanced closers are the parser's to report; never let depth go negative.
      depth = std::max(0, depth - 1);
    }
  }
  return std::nullopt;
}

// Builds the document through nlohmann's DOM builder while (a) remembering where a syntax
// error happened and (b) reporting duplicate keys, which nlohmann would silently collapse to
// the last value.
class CheckingSax {
 public:
  CheckingSax(Json& result, Problems& problems) : dom_(result, false), problems_(problems) {}

  bool null() { return Value() && dom_.null(); }
  bool boolean(bool v) { return Value() && dom_.boolean(v); }
  bool number_integer(Json::number_integer_t v) { return Value() && dom_.number_integer(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return Value() && dom_.number_unsigned(v); }
  bool number_float(Json::number_float_t v, const std::string& s) {
    return Value() && dom_.number_float(v, s);
  }
  bool string(std::string& v) { return Value() && dom_.string(v); }
  bool binary(Json::binary_t& v) { return Value() && dom_.binary(v); }
  bool start_object(std::size_t n) {
    Open(true);
    return dom_.start_object(n);
  }
  bool key(std::string& k) {
    Frame& frame = frames_.back();
    if (!frame.keys.insert(k).second) {
      problems_.Add(ChildPointer(Pointer(), k),
                    "duplicate key " + Quote(k) + " (JSON objects must have unique keys)");
    }
    frame.current = ChildPointer("", k).substr(1);
    return dom_.key(k);
  }
  bool end_object() {
    frames_.pop_back();
    return dom_.end_object();
  }
  bool start_array(std::size_t n) {
    Open(false);
    return dom_.start_array(n);
  }
  bool end_array() {
    frames_.pop_back();
    return dom_.end_array();
  }
  bool parse_error(std::size_t position, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& error) {
    error_position_ = position;
    error_message_ = error.what();
    return false;
  }

  std::optional<size_t> error_position() const { return error_position_; }
  const std::string& error_message() const { return error_message_; }

 private:
  struct Frame {
    bool is_object = false;
    size_t next_index = 0;
    std::string component;  // this container's own pointer component
    std::string current;    // the component of the child being read
    std::set<std::string> keys;
  };

  // Called for each scalar: advances the index of an enclosing array.
  bool Value() {
    if (!frames_.empty() && !frames_.back().is_object) {
      frames_.back().current = std::to_string(frames_.back().next_index++);
    }
    return true;
  }
  void Open(bool is_object) {
    Value();
    Frame frame;
    frame.is_object = is_object;
    frame.component = frames_.empty() ? "" : frames_.back().current;
    frames_.push_back(std::move(frame));
  }
  std::string Pointer() const {
    std::string out;
    for (size_t i = 1; i < frames_.size(); ++i) out += "/" + frames_[i].component;
    return out;
  }

  nlohmann::detail::json_sax_dom_parser<Json> dom_;
  Problems& problems_;
  std::vector<Frame> frames_;
  std::optional<size_t> error_position_;
  std::string error_message_;
};

// nlohmann's messages start with "[json.exception.parse_error.101] parse error at line 1,
// column 2: " or "[json.exception.out_of_range.406] "; keep what follows.
std::string StripPrefix(std::string message) {
  if (message.rfind("[json.exception.", 0) == 0) {
    const size_t close = message.find("] ");
    if (close != std::string::npos) message.erase(0, close + 2);
  }
  if (message.rfind("parse error", 0) == 0) {
    const size_t colon = message.find(": ");
    if (colon != std::string::npos) message.erase(0, colon + 2);
  }
  // "syntax error while parsing value - ..." would repeat our own "syntax error at ...".
  const std::string repeated = "syntax error while ";
  if (message.rfind(repeated, 0) == 0) message.replace(0, repeated.size(), "while ");
  if (message.size() > 200) message = message.substr(0, 200) + "...";
  return message;
}

}  // namespace

std::string LineColumn(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  size_t line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(offset - line_start + 1);
}

std::optional<Json> ParseDocument(std::string_view text, Problems& problems) {
  if (text.size() > kTextBytesMax) {
    char size[32];
    std::snprintf(size, sizeof size, "%.1f", static_cast<double>(text.size()) / (1 << 20));
    problems.Add(
        "", std::string("input is ") + size + " MiB; scenarios of at most 16 MiB are supported");
    return std::nullopt;
  }
  if (auto bad = FirstInvalidUtf8(text)) {
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[*bad]));
    problems.Add("", std::string("not valid UTF-8: byte ") + byte + " at " +
                         LineColumn(text, *bad) + "; scenarios must be UTF-8 text");
    return std::nullopt;
  }
  // nlohmann's lexer takes a NUL for the end of input (a C string's end): whatever follows one
  // would be silently ignored. NUL is valid UTF-8 but never valid in JSON text.
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos) {
    problems.Add("", "a NUL byte (0x00) at byte offset " + std::to_string(nul) + ", " +
                         LineColumn(text, nul) + "; scenarios are JSON text, which has none");
    return std::nullopt;
  }
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    problems.Add("", "input is empty: expected a JSON object with \"format_version\": 1");
    return std::nullopt;
  }
  if (auto deep = FirstTooDeep(text)) {
    problems.Add("", "nesting is deeper than " + std::to_string(kDepthMax) + " levels at " +
                         LineColumn(text, *deep) + "; scenarios need far fewer");
    return std::nullopt;
  }
  Json result;
  Problems duplicates;
  CheckingSax sax(result, duplicates);
  bool ok = false;
  try {
    ok = Json::sax_parse(text, &sax, nlohmann::detail::input_format_t::json, /*strict=*/true,
                         /*ignore_comments=*/false);
  } catch (const std::exception& e) {
    // sax_parse reports through parse_error; this only guards against the unexpected (an
    // allocation failure, say), so that nothing escapes the loader.
    problems.Add("", std::string("cannot parse: ") + e.what());
    return std::nullopt;
  }
  if (!ok || sax.error_position()) {
    // The position counts the bytes read, including the one where the parser gave up: the
    // last byte of the offending token (the closing quote of an unexpected string).
    const size_t position = sax.error_position().value_or(text.size() + 1);
    const size_t offset = position == 0 ? 0 : position - 1;
    problems.Add("", "syntax error at " + LineColumn(text, offset) + ": " +
                         StripPrefix(sax.error_message()));
    return std::nullopt;
  }
  if (!duplicates.empty()) {
    for (Problem& p : duplicates.Take()) problems.Add(std::move(p.pointer), std::move(p.message));
    return std::nullopt;
  }
  return result;
}

}  // namespace drainsim::scenario::internal
