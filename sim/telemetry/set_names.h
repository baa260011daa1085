// The numbers a TelemetrySet (otlp_read.h) gives its kinds, error classes and messages: dense
// indices in first-seen order, shared by the span readers (otlp_span.h, live_events_read.h) so
// that files read one after another into one set agree on them.
//
// Thread-safety: one per set, used by one reader at a time.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/telemetry/otlp_read.h"

namespace drainsim::telemetry {

class SetNames {
 public:
  // Names already in `set` keep their numbers. REQUIRES: `set` outlives this.
  explicit SetNames(TelemetrySet& set) : set_(set) {
    IndexExisting(set.kinds, kinds_);
    IndexExisting(set.classes, classes_);
    IndexExisting(set.messages, messages_);
  }

  uint32_t Kind(const std::string& name) { return Intern(set_.kinds, kinds_, name); }
  uint32_t Class(const std::string& name) { return Intern(set_.classes, classes_, name); }
  uint32_t Message(const std::string& name) { return Intern(set_.messages, messages_, name); }

 private:
  using Index = std::map<std::string, uint32_t>;
  static void IndexExisting(const std::vector<std::string>& names, Index& index) {
    for (uint32_t i = 0; i < names.size(); ++i) index[names[i]] = i;
  }
  static uint32_t Intern(std::vector<std::string>& names, Index& index, const std::string& name) {
    const auto [it, added] = index.emplace(name, static_cast<uint32_t>(names.size()));
    if (added) names.push_back(name);
    return it->second;
  }

  TelemetrySet& set_;
  Index kinds_;
  Index classes_;
  Index messages_;
};

}  // namespace drainsim::telemetry
