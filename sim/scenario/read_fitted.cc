// The `fitted` member `drainsim fit` writes beside a fitted value (sim/config/fitted.h): read
// strictly, like every other member, so that a typo or a giant value is a problem, not a silent
// pass-through.
#include <cmath>

#include "sim/scenario/read_sections.h"

namespace drainsim::scenario::internal {

namespace {

constexpr size_t kFromBytesMax = 4096;
constexpr size_t kMethodBytesMax = 200;
constexpr size_t kIntervalsMax = 8;

// [low, high]: two finite numbers, low <= high.
std::optional<std::pair<double, double>> ReadInterval(const Node& node) {
  const std::vector<Node> items = ArrayItems(node, 2, 2);
  if (items.size() != 2) return std::nullopt;
  const auto low = ReadNumber(items[0]);
  const auto high = ReadNumber(items[1]);
  if (!low || !high) return std::nullopt;
  if (*low > *high) {
    node.Error("must be [low, high] with low <= high (got [" + FormatNumber(*low) + ", " +
               FormatNumber(*high) + "])");
    return std::nullopt;
  }
  return std::pair{*low, *high};
}

bool ReadIntervals(const Node& node, config::Fitted* fitted) {
  if (!node.present()) return true;
  if (node.json().is_array()) {
    const auto interval = ReadInterval(node);
    if (interval) fitted->intervals.push_back({"", *interval});
    return interval.has_value();
  }
  if (!node.json().is_object()) {
    node.TypeError("[low, high], or an object of such intervals by parameter");
    return false;
  }
  bool ok = true;
  for (const auto& [name, item] : MapEntries(node, 1, kIntervalsMax)) {
    if (name.empty() || name.size() > config::kNameBytesMax) {
      item.Error("must be named by 1..64 bytes");
      ok = false;
      continue;
    }
    const auto interval = ReadInterval(item);
    if (interval) fitted->intervals.push_back({name, *interval});
    ok = ok && interval.has_value();
  }
  return ok && !fitted->intervals.empty();
}

}  // namespace

std::optional<config::Fitted> ReadFitted(const Node& node) {
  if (!node.present()) return std::nullopt;
  ObjectReader o(node);
  if (!o.valid()) return std::nullopt;
  config::Fitted fitted;
  const auto from = ReadString(o.Required("from"), kFromBytesMax, false);
  const auto n = ReadInt(o.Required("n"), Range::AtLeast(0));
  const Node method_node = o.Optional("method");
  const auto method = method_node.present() ? ReadString(method_node, kMethodBytesMax, true)
                                            : std::optional<std::string>("");
  const Node ks_node = o.Optional("ks");
  const auto ks = ks_node.present() ? ReadNumber(ks_node, Range::Probability()) : std::nullopt;
  const bool intervals_ok = ReadIntervals(o.Optional("interval"), &fitted);
  o.Finish();
  if (!from || !n || !method || (ks_node.present() && !ks) || !intervals_ok) return std::nullopt;
  fitted.from = *from;
  fitted.n = *n;
  fitted.method = *method;
  fitted.ks = ks;
  return fitted;
}

}  // namespace drainsim::scenario::internal
