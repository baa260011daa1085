// Walking a parsed JSON document with a JSON pointer in hand, collecting Problems.
//
// The loader reads every value through these helpers so that each problem names where it is
// (the pointer), what is wrong, and what was found ("must be > 0 (got -5)"), and so that every
// problem is reported rather than the first.
//
// Contract:
//  (1) Nothing here throws, and nothing uses nlohmann's operator[] on input: values are found
//      with find() and read with typed checks.
//  (2) Read* functions are silent when the value is absent (the caller applies the default or
//      has already reported a missing required key), and report exactly one problem when it
//      is present but unusable (wrong type, out of range, explicit null).
//  (3) ObjectReader::Finish reports every key that no Optional/Required call declared.
//  (4) Messages quote input strings escaped and cut to about 40 bytes.
//
// Thread-safety: objects are confined to one load.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/config/enum_names.h"
#include "sim/config/fitted.h"
#include "sim/engine/time.h"
#include "sim/scenario/load.h"

namespace drainsim::scenario::internal {

using Json = nlohmann::json;

// Limits several readers share, defined once: in a unity build (cmake/unity_libraries.cmake) the
// files of a batch see each other's file-scope names.
inline constexpr double kExactIntegerMax = 9007199254740992.0;  // 2^53: doubles are exact below
inline constexpr double kDaySeconds = 86400;
inline constexpr double kRateMax = 1e6;  // per second: producers, drains, databases
inline constexpr double kRunSecondsMax = 100 * kDaySeconds;

// Problems of one load, in the order found. At most kMax are kept; Take() then appends a note
// with the number left out, so a pathological file cannot flood a terminal.
class Problems {
 public:
  static constexpr size_t kMax = 200;
  void Add(std::string pointer, std::string message);
  // Counts a problem without recording it; for callers that saw full() and want to skip
  // building a message nobody will read (a file with a million unknown keys).
  void CountOnly() { ++count_; }
  bool full() const { return list_.size() >= kMax; }
  bool empty() const { return count_ == 0; }
  size_t count() const { return count_; }
  std::vector<Problem> Take();

  // `drainsim fit`'s provenance met during the load, by the JSON pointer of the object holding
  // the fitted value (sim/scenario/fitted_values.h). Here because every reader reaches the
  // load's Problems through its Node, and the provenance is the one other thing a load collects
  // outside the typed configuration (the model never sees it).
  std::map<std::string, config::Fitted> fitted;

 private:
  std::vector<Problem> list_;
  size_t count_ = 0;
};

// "/a/b" + key, with '~' and '/' escaped as RFC 6901 says. Keys longer than 64 bytes are cut
// (with "...") so that a giant key cannot make a giant message.
std::string ChildPointer(std::string_view pointer, std::string_view key);
std::string ChildPointer(std::string_view pointer, size_t index);

// `text` in double quotes, JSON-escaped, non-printables as \u00XX, cut at ~40 bytes.
std::string Quote(std::string_view text);
// The value as a message shows it: string "abc", -5, 2.5, true, null, object, array.
std::string Describe(const Json& value);
// Shortest decimal form that reads back as the same double; integers without ".0".
std::string FormatNumber(double value);
// " (did you mean 'x'?)" when one of `known` is close to `wrong`, else "".
std::string Suggestion(std::string_view wrong, std::span<const std::string_view> known,
                       char quote = '\'');
// "a, b, c".
std::string JoinNames(std::span<const std::string_view> names);

template <typename E>
std::vector<std::string_view> NamesOf() {
  std::vector<std::string_view> names;
  for (const auto& entry : config::EnumNames<E>()) names.push_back(entry.name);
  return names;
}

// An interval of allowed numbers; Violation(v) names the breach ("must be > 0").
struct Range {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_open = false;
  bool max_open = false;

  static Range Any() { return {}; }
  static Range AtLeast(double lo) { return {lo, Range{}.max, false, false}; }
  static Range Above(double lo) { return {lo, Range{}.max, true, false}; }
  static Range Closed(double lo, double hi) { return {lo, hi, false, false}; }
  static Range AboveAtMost(double lo, double hi) { return {lo, hi, true, false}; }
  static Range Probability() { return Closed(0, 1); }
  std::optional<std::string> Violation(double value) const;
};

// A value (or the absence of one) at a pointer.
class Node {
 public:
  Node(const Json* value, std::string pointer, Problems* problems)
      : value_(value), pointer_(std::move(pointer)), problems_(problems) {}
  bool present() const { return value_ != nullptr; }
  bool is_null() const { return value_ != nullptr && value_->is_null(); }
  // Present and not null.
  bool given() const { return value_ != nullptr && !value_->is_null(); }
  // REQUIRES: present().
  const Json& json() const { return *value_; }
  const std::string& pointer() const { return pointer_; }
  Problems& problems() const { return *problems_; }
  void Error(std::string message) const { problems_->Add(pointer_, std::move(message)); }
  // Reports "must be a|an <what> (got ...)".
  void TypeError(std::string_view what) const;

 private:
  const Json* value_;
  std::string pointer_;
  Problems* problems_;
};

// `node`, or an absent node at the same pointer if it holds null: for the optional fields
// whose null means "not given" (the dump writes them as null).
inline Node NullAsAbsent(const Node& node) {
  if (node.is_null()) return Node(nullptr, node.pointer(), &node.problems());
  return node;
}

// Reads the keys of one object. Declare every key the format allows, then call Finish().
class ObjectReader {
 public:
  // Reports "must be an object" if `node` is given but is not an object.
  explicit ObjectReader(const Node& node);
  // True iff the node is an object (absent, null and wrong types are not).
  bool valid() const { return valid_; }
  const Node& node() const { return node_; }
  // The value at `key` (absent if missing); declares the key.
  Node Optional(std::string_view key);
  // Like Optional, and reports "is required" when the key is missing or null (the returned
  // node is then absent, so reads stay silent).
  Node Required(std::string_view key);
  // True iff the key is present (null counts), without declaring it.
  bool Has(std::string_view key) const;
  // Reports each undeclared key: "unknown key 'x' (did you mean 'y'?)". `context` is added to
  // the message (e.g. "for strategy 'drip'") when keys depend on a discriminator.
  void Finish(std::string_view context = "");

 private:
  Node node_;
  bool valid_ = false;
  std::vector<std::string_view> known_;
};

// Typed reads; see the contract above. Integers accept integral floats (1e6) within 2^53.
std::optional<double> ReadNumber(const Node& node, const Range& range = Range::Any());
std::optional<int64_t> ReadInt(const Node& node, const Range& range = Range::Any());
std::optional<uint64_t> ReadUint64(const Node& node);
std::optional<bool> ReadBool(const Node& node);
// A UTF-8 string without control characters, at most `max_bytes` bytes, non-empty unless
// `allow_empty`.
std::optional<std::string> ReadString(const Node& node, size_t max_bytes, bool allow_empty);
// Seconds (resp. milliseconds) rounded to the microsecond; `range` is in the input's unit. A
// range that excludes 0 also excludes values that round to 0 us.
std::optional<engine::Duration> ReadSeconds(const Node& node, const Range& range);
std::optional<engine::Duration> ReadMillis(const Node& node, const Range& range);
std::optional<engine::Instant> ReadInstant(const Node& node, const Range& range);

std::optional<size_t> ReadEnumIndex(const Node& node, std::span<const std::string_view> names);

template <typename E>
std::optional<E> ReadEnum(const Node& node) {
  const std::vector<std::string_view> names = NamesOf<E>();
  auto index = ReadEnumIndex(node, names);
  if (!index) return std::nullopt;
  return config::EnumNames<E>()[*index].value;
}

// The items of an array with min_items..max_items items; reports otherwise. Empty if the node
// is absent or unusable.
std::vector<Node> ArrayItems(const Node& node, size_t min_items, size_t max_items);
// The members of an object used as a map (kinds, fields), in key order.
std::vector<std::pair<std::string, Node>> MapEntries(const Node& node, size_t min_entries,
                                                     size_t max_entries);

}  // namespace drainsim::scenario::internal
