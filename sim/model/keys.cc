#include "sim/model/keys.h"

#include "sim/engine/check.h"

namespace drainsim::model {

std::string RenderKey(std::string_view pattern, uint64_t id, std::string_view kind_name,
                      const scenario::Fields& fields) {
  std::string key;
  key.reserve(pattern.size() + 16);
  size_t i = 0;
  while (i < pattern.size()) {
    if (pattern[i] != '{') {
      key.push_back(pattern[i++]);
      continue;
    }
    const size_t close = pattern.find('}', i);
    DRAINSIM_CHECK(close != std::string_view::npos);
    const std::string_view name = pattern.substr(i + 1, close - i - 1);
    if (name == "id") {
      key += std::to_string(id);
    } else if (name == "kind") {
      key += kind_name;
    } else {
      const auto it = fields.find(std::string(name));
      DRAINSIM_CHECK(it != fields.end());
      key += it->second;
    }
    i = close + 1;
  }
  return key;
}

}  // namespace drainsim::model
