#include "sim/model/idempotency_keys.h"

namespace drainsim::model {

namespace {

// One key template per source (producer or backlog entry), by the source's index.
template <typename Source>
std::vector<KeyTemplate> KeyTemplates(const config::Scenario& scenario,
                                      const std::vector<Source>& sources) {
  std::vector<KeyTemplate> keys;
  keys.reserve(sources.size());
  for (const Source& source : sources) {
    keys.emplace_back(scenario.kinds.at(source.kind).key_pattern, source.kind, source.fields);
  }
  return keys;
}

}  // namespace

IdempotencyKeys::IdempotencyKeys(const config::Scenario& scenario)
    : producers_(KeyTemplates(scenario, scenario.producers)),
      backlog_(KeyTemplates(scenario, scenario.backlog)) {}

}  // namespace drainsim::model
