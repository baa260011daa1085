#include "sim/model/keys.h"

#include "sim/base/check.h"

namespace drainsim::model {

std::string RenderKey(std::string_view pattern, uint64_t id, std::string_view kind_name,
                      const config::Fields& fields, engine::Instant published_at) {
  return KeyTemplate(pattern, kind_name, fields).Render(id, published_at);
}

KeyTemplate::KeyTemplate(std::string_view pattern, std::string_view kind_name,
                         const config::Fields& fields) {
  std::string text;  // the text since the last slot
  const auto slot = [&](Slot kind) {
    if (!text.empty()) parts_.push_back(Part{Slot::kText, std::move(text)});
    text.clear();
    parts_.push_back(Part{kind, {}});
  };
  size_t i = 0;
  while (i < pattern.size()) {
    if (pattern[i] != '{') {
      text.push_back(pattern[i++]);
      continue;
    }
    const size_t close = pattern.find('}', i);
    DRAINSIM_CHECK(close != std::string_view::npos);
    const std::string_view name = pattern.substr(i + 1, close - i - 1);
    if (name == "id") {
      slot(Slot::kId);
    } else if (name == "kind") {
      text += kind_name;
    } else if (name == "date" && fields.find("date") == fields.end()) {
      slot(Slot::kDate);
    } else {
      const auto it = fields.find(std::string(name));
      DRAINSIM_CHECK(it != fields.end());
      text += it->second;
    }
    i = close + 1;
  }
  if (!text.empty()) parts_.push_back(Part{Slot::kText, std::move(text)});
  for (const Part& part : parts_) text_bytes_ += part.text.size();
}

std::string KeyTemplate::Render(uint64_t id, engine::Instant published_at) const {
  std::string key;
  key.reserve(text_bytes_ + 16);
  for (const Part& part : parts_) {
    switch (part.slot) {
      case Slot::kText:
        key += part.text;
        break;
      case Slot::kId:
        key += std::to_string(id);
        break;
      case Slot::kDate: {
        // Floor division: a backlog message published 1 s before the start is on day -1.
        const int64_t us = published_at.micros();
        const int64_t day_us = int64_t{86400} * 1'000'000;
        const int64_t day = us >= 0 ? us / day_us : -((-us + day_us - 1) / day_us);
        key += day >= 0 ? "day-" + std::to_string(day) : "day-m" + std::to_string(-day);
        break;
      }
    }
  }
  return key;
}

}  // namespace drainsim::model

namespace drainsim::model {

bool KeysAreUnique(std::string_view pattern) {
  return pattern.find("{id}") != std::string_view::npos;
}

uint64_t HashKey(std::string_view key) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : key) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash | 1;
}

}  // namespace drainsim::model
