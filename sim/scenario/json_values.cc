// The typed reads of json_reader.h: numbers, integers, strings, durations, enums, arrays and
// maps, each reporting one problem when the value is present but unusable.
#include <cmath>

#include "sim/scenario/json_reader.h"

namespace drainsim::scenario::internal {

namespace {

// The decimal-string form of a 64-bit integer (sim/base/json_integers.h): digits only, no
// sign or leading zero, below 2^64.
std::optional<uint64_t> ReadUint64Digits(const Node& node) {
  const std::string& text = node.json().get_ref<const std::string&>();
  const bool digits = !text.empty() && text.size() <= 20 &&
                      text.find_first_not_of("0123456789") == std::string::npos &&
                      (text == "0" || text[0] != '0');
  uint64_t value = 0;
  bool fits = digits;
  for (size_t i = 0; fits && i < text.size(); ++i) {
    const uint64_t digit = static_cast<uint64_t>(text[i] - '0');
    fits = value <= (UINT64_MAX - digit) / 10;
    value = value * 10 + digit;
  }
  if (!fits) {
    node.Error("must be an integer in [0, 2^64), as a number or a string of decimal digits (got " +
               Describe(node.json()) + ")");
    return std::nullopt;
  }
  return value;
}

std::optional<engine::Duration> ReadSpan(const Node& node, const Range& range,
                                         double micros_per_unit) {
  auto value = ReadNumber(node, range);
  if (!value) return std::nullopt;
  auto span = micros_per_unit == 1e6 ? engine::DurationFromSeconds(*value)
                                     : engine::DurationFromMillis(*value);
  if (!span) {
    node.Error("must be at most 100 years (got " + Describe(node.json()) + ")");
    return std::nullopt;
  }
  const bool excludes_zero = range.min > 0 || (range.min == 0 && range.min_open);
  if (excludes_zero && span->micros() <= 0) {
    node.Error("must be at least 1 microsecond (got " + Describe(node.json()) + ")");
    return std::nullopt;
  }
  return span;
}

}  // namespace

std::optional<double> ReadNumber(const Node& node, const Range& range) {
  if (!node.present()) return std::nullopt;
  if (!node.json().is_number()) {
    node.TypeError("a number");
    return std::nullopt;
  }
  const double value = node.json().get<double>();
  // The parser refuses overflowing literals ("number overflow"); this keeps every number the
  // loader hands on finite even if that ever changes.
  if (!std::isfinite(value)) {
    node.Error("must be a finite number (got " + Describe(node.json()) + ")");
    return std::nullopt;
  }
  if (auto violation = range.Violation(value)) {
    node.Error(*violation + " (got " + Describe(node.json()) + ")");
    return std::nullopt;
  }
  return value;
}

std::optional<int64_t> ReadInt(const Node& node, const Range& range) {
  if (!node.present()) return std::nullopt;
  const Json& json = node.json();
  int64_t value = 0;
  if (json.is_number_integer() && !json.is_number_unsigned()) {
    value = json.get<int64_t>();
  } else if (json.is_number_unsigned()) {
    const uint64_t u = json.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      node.Error("is too large (got " + Describe(json) + ")");
      return std::nullopt;
    }
    value = static_cast<int64_t>(u);
  } else if (json.is_number_float()) {
    const double d = json.get<double>();
    if (d != std::floor(d)) {
      node.TypeError("an integer");
      return std::nullopt;
    }
    if (std::fabs(d) > kExactIntegerMax) {
      node.Error("is too large (got " + Describe(json) + ")");
      return std::nullopt;
    }
    value = static_cast<int64_t>(d);
  } else {
    node.TypeError("an integer");
    return std::nullopt;
  }
  if (auto violation = range.Violation(static_cast<double>(value))) {
    node.Error(*violation + " (got " + Describe(json) + ")");
    return std::nullopt;
  }
  return value;
}

std::optional<uint64_t> ReadUint64(const Node& node) {
  if (!node.present()) return std::nullopt;
  const Json& json = node.json();
  if (json.is_number_unsigned()) return json.get<uint64_t>();
  if (json.is_string()) return ReadUint64Digits(node);
  if (json.is_number_integer()) {
    node.Error("must be >= 0 (got " + Describe(json) + ")");
    return std::nullopt;
  }
  if (json.is_number_float()) {
    const double d = json.get<double>();
    if (d == std::floor(d) && d >= 0 && d <= kExactIntegerMax) return static_cast<uint64_t>(d);
    if (d != std::floor(d)) {
      node.TypeError("an integer");
    } else {
      node.Error("must be an integer in [0, 2^64) written without exponent (got " + Describe(json) +
                 ")");
    }
    return std::nullopt;
  }
  node.TypeError("an integer");
  return std::nullopt;
}

std::optional<bool> ReadBool(const Node& node) {
  if (!node.present()) return std::nullopt;
  if (!node.json().is_boolean()) {
    node.TypeError("a boolean");
    return std::nullopt;
  }
  return node.json().get<bool>();
}

std::optional<std::string> ReadString(const Node& node, size_t max_bytes, bool allow_empty) {
  if (!node.present()) return std::nullopt;
  if (!node.json().is_string()) {
    node.TypeError("a string");
    return std::nullopt;
  }
  const std::string& text = node.json().get_ref<const std::string&>();
  if (text.empty() && !allow_empty) {
    node.Error("must not be empty");
    return std::nullopt;
  }
  if (text.size() > max_bytes) {
    node.Error("must be at most " + std::to_string(max_bytes) + " bytes long (got " +
               std::to_string(text.size()) + " bytes)");
    return std::nullopt;
  }
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7F) {
      node.Error("must not contain control characters (got " + Describe(node.json()) + ")");
      return std::nullopt;
    }
  }
  return text;
}

std::optional<engine::Duration> ReadSeconds(const Node& node, const Range& range) {
  return ReadSpan(node, range, 1e6);
}

std::optional<engine::Duration> ReadMillis(const Node& node, const Range& range) {
  return ReadSpan(node, range, 1e3);
}

std::optional<engine::Instant> ReadInstant(const Node& node, const Range& range) {
  auto span = ReadSpan(node, range, 1e6);
  if (!span) return std::nullopt;
  return engine::Instant::Zero() + *span;
}

std::optional<size_t> ReadEnumIndex(const Node& node, std::span<const std::string_view> names) {
  if (!node.present()) return std::nullopt;
  if (!node.json().is_string()) {
    node.TypeError("a string");
    return std::nullopt;
  }
  const std::string& text = node.json().get_ref<const std::string&>();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == text) return i;
  }
  std::string message = "must be one of: " + JoinNames(names) + " (got " + Quote(text);
  const std::string suggestion = Suggestion(text, names, '"');
  // " (did you mean "x"?)" -> "; did you mean "x"?"
  if (!suggestion.empty()) message += "; " + suggestion.substr(2, suggestion.size() - 3);
  node.Error(message + ")");
  return std::nullopt;
}

std::vector<Node> ArrayItems(const Node& node, size_t min_items, size_t max_items) {
  std::vector<Node> items;
  if (!node.present()) return items;
  if (!node.json().is_array()) {
    node.TypeError("an array");
    return items;
  }
  const size_t size = node.json().size();
  if (size < min_items) {
    node.Error(size == 0 ? "must not be empty"
                         : "must have at least " + std::to_string(min_items) + " items (got " +
                               std::to_string(size) + ")");
    return items;
  }
  if (size > max_items) {
    node.Error("must have at most " + std::to_string(max_items) + " items (got " +
               std::to_string(size) + ")");
    return items;
  }
  for (size_t i = 0; i < size; ++i) {
    items.emplace_back(&node.json().at(i), ChildPointer(node.pointer(), i), &node.problems());
  }
  return items;
}

std::vector<std::pair<std::string, Node>> MapEntries(const Node& node, size_t min_entries,
                                                     size_t max_entries) {
  std::vector<std::pair<std::string, Node>> entries;
  if (!node.present()) return entries;
  if (!node.json().is_object()) {
    node.TypeError("an object");
    return entries;
  }
  const size_t size = node.json().size();
  if (size < min_entries) {
    node.Error(size == 0 ? "must not be empty"
                         : "must have at least " + std::to_string(min_entries) + " entries");
    return entries;
  }
  if (size > max_entries) {
    node.Error("must have at most " + std::to_string(max_entries) + " entries (got " +
               std::to_string(size) + ")");
    return entries;
  }
  for (const auto& [key, value] : node.json().items()) {
    entries.emplace_back(key, Node(&value, ChildPointer(node.pointer(), key), &node.problems()));
  }
  return entries;
}

}  // namespace drainsim::scenario::internal
