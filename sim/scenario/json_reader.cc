#include "sim/scenario/json_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace drainsim::scenario::internal {

namespace {

constexpr size_t kQuoteBytesMax = 40;
constexpr size_t kPointerKeyBytesMax = 64;

// Length of the UTF-8 sequence starting with `lead` (1 for anything unexpected, so that a cut
// never loops; input is validated as UTF-8 before it gets here).
size_t SequenceLength(unsigned char lead) {
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

// The longest prefix of `text` of at most `max_bytes` that does not split a UTF-8 sequence.
std::string_view CutAtCharacter(std::string_view text, size_t max_bytes) {
  size_t end = 0;
  while (end < text.size()) {
    const size_t next = end + SequenceLength(static_cast<unsigned char>(text[end]));
    if (next > max_bytes) break;
    end = next;
  }
  return text.substr(0, std::min(end, text.size()));
}

void AppendEscaped(std::string& out, std::string_view text) {
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte == 0x7F) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04X", byte);
      out += buffer;
    } else {
      out += c;
    }
  }
}

// Optimal string alignment distance: Levenshtein plus adjacent transpositions, the commonest
// typo ("wrokers").
size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

void Problems::Add(std::string pointer, std::string message) {
  ++count_;
  if (list_.size() < kMax) list_.push_back({std::move(pointer), std::move(message)});
}

std::vector<Problem> Problems::Take() {
  std::vector<Problem> out = std::move(list_);
  if (count_ > out.size()) {
    out.push_back({"", std::to_string(count_ - out.size()) + " more problems not shown"});
  }
  list_.clear();
  count_ = 0;
  return out;
}

std::string ChildPointer(std::string_view pointer, std::string_view key) {
  std::string out(pointer);
  out += '/';
  const std::string_view shown = CutAtCharacter(key, kPointerKeyBytesMax);
  for (char c : shown) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  if (shown.size() < key.size()) out += "...";
  return out;
}

std::string ChildPointer(std::string_view pointer, size_t index) {
  return std::string(pointer) + "/" + std::to_string(index);
}

std::string Quote(std::string_view text) {
  const std::string_view shown = CutAtCharacter(text, kQuoteBytesMax);
  std::string out = "\"";
  AppendEscaped(out, shown);
  if (shown.size() < text.size()) out += "...";
  out += '"';
  return out;
}

std::string FormatNumber(double value) {
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < kExactIntegerMax) {
    return std::to_string(static_cast<int64_t>(value));
  }
  return Json(value).dump();
}

std::string Describe(const Json& value) {
  switch (value.type()) {
    case Json::value_t::string:
      return "string " + Quote(value.get_ref<const std::string&>());
    case Json::value_t::number_float:
      return FormatNumber(value.get<double>());
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::boolean:
    case Json::value_t::null:
      return value.dump();
    case Json::value_t::object:
      return "object";
    case Json::value_t::array:
      return "array";
    default:
      return "unsupported value";
  }
}

std::string Suggestion(std::string_view wrong, std::span<const std::string_view> known,
                       char quote) {
  // Distances are only worth computing for key-sized strings; a 1 MB key gets no suggestion.
  if (wrong.size() > 64) return "";
  std::string_view best;
  size_t best_distance = std::max<size_t>(2, wrong.size() / 3) + 1;
  for (std::string_view candidate : known) {
    const size_t distance = EditDistance(wrong, candidate);
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  if (best.empty()) return "";
  return std::string(" (did you mean ") + quote + std::string(best) + quote + "?)";
}

std::string JoinNames(std::span<const std::string_view> names) {
  std::string out;
  for (std::string_view name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

std::optional<std::string> Range::Violation(double value) const {
  const bool low_ok = min_open ? value > min : value >= min;
  const bool high_ok = max_open ? value < max : value <= max;
  if (low_ok && high_ok) return std::nullopt;
  // Fractions read best as an interval; elsewhere name the side that was crossed.
  if (min == 0 && max == 1) {
    return std::string("must be in ") + (min_open ? "(" : "[") + "0, 1" + (max_open ? ")" : "]");
  }
  if (!low_ok) return std::string("must be ") + (min_open ? "> " : ">= ") + FormatNumber(min);
  return std::string("must be ") + (max_open ? "< " : "<= ") + FormatNumber(max);
}

void Node::TypeError(std::string_view what) const {
  Error("must be " + std::string(what) + " (got " + Describe(json()) + ")");
}

ObjectReader::ObjectReader(const Node& node) : node_(node) {
  if (!node.given()) return;
  if (!node.json().is_object()) {
    node.TypeError("an object");
    return;
  }
  valid_ = true;
}

Node ObjectReader::Optional(std::string_view key) {
  known_.push_back(key);
  if (!valid_) return Node(nullptr, ChildPointer(node_.pointer(), key), &node_.problems());
  const auto it = node_.json().find(key);
  const Json* value = it == node_.json().end() ? nullptr : &*it;
  return Node(value, ChildPointer(node_.pointer(), key), &node_.problems());
}

Node ObjectReader::Required(std::string_view key) {
  Node node = Optional(key);
  if (valid_ && !node.given()) {
    node.Error(node.is_null() ? "is required (got null)" : "is required");
    return Node(nullptr, node.pointer(), &node.problems());
  }
  return node;
}

bool ObjectReader::Has(std::string_view key) const {
  return valid_ && node_.json().find(key) != node_.json().end();
}

void ObjectReader::Finish(std::string_view context) {
  if (!valid_) return;
  for (const auto& [key, value] : node_.json().items()) {
    if (std::find(known_.begin(), known_.end(), key) != known_.end()) continue;
    if (node_.problems().full()) {
      node_.problems().CountOnly();
      continue;
    }
    std::string message = "unknown key '";
    AppendEscaped(message, CutAtCharacter(key, kQuoteBytesMax));
    if (key.size() > kQuoteBytesMax) message += "...";
    message += "'";
    // Appends rather than operator+ chains: GCC 12 at -O3 warns falsely (-Wrestrict) on those.
    if (!context.empty()) {
      message += ' ';
      message.append(context);
    }
    const std::string suggestion = Suggestion(key, known_);
    if (suggestion.empty()) {
      message += "; allowed keys: ";
      message += JoinNames(known_);
    } else {
      message += suggestion;
    }
    node_.problems().Add(ChildPointer(node_.pointer(), key), std::move(message));
  }
}

}  // namespace drainsim::scenario::internal
