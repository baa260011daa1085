#include "experiments/explain.h"

#include <nlohmann/json.hpp>
#include <string>

#include "sim/config/enum_names.h"
#include "sim/scenario/load.h"
#include "sim/scenario/presets.h"

namespace drainsim::experiments {

namespace {

using Json = nlohmann::json;

// `given` has what `rule` says: equal, or for an object every member of `rule` (a retry class
// the preset routes may carry more members than the preset wrote).
bool Holds(const Json& given, const Json& rule) {
  if (!rule.is_object()) return given == rule;
  if (!given.is_object()) return false;
  for (const auto& [key, value] : rule.items()) {
    if (!given.contains(key) || !Holds(given.at(key), value)) return false;
  }
  return true;
}

// The preset's defaults the scenario kept (its dump still has the preset's value there), each
// as "VALUE: preset NAME [VERSION], SOURCE".
std::map<std::string, std::string> PresetRulesOf(const config::Scenario& s) {
  std::map<std::string, std::string> rules;
  if (!s.broker.preset) return rules;
  const std::string version =
      s.broker.version.value_or(std::string(scenario::DefaultBrokerVersion(*s.broker.preset)));
  const std::string preset = "preset " + std::string(config::NameOf(*s.broker.preset)) +
                             (version.empty() ? "" : " " + version);
  const Json dumped = Json::parse(scenario::DumpCanonical(s));
  for (const scenario::PresetDefault& d : scenario::PresetDefaults(*s.broker.preset, version)) {
    const Json::json_pointer pointer{std::string(d.pointer)};
    if (!dumped.contains(pointer) || !Holds(dumped.at(pointer), Json::parse(d.value))) {
      continue;
    }
    rules[std::string(d.pointer)] =
        std::string(d.value) + ": " + preset + ", " + std::string(d.source);
  }
  return rules;
}

}  // namespace

reports::ExplainScene ExplainSceneOf(const config::Scenario& scenario) {
  reports::ExplainScene scene;
  for (const config::Producer& producer : scenario.producers) {
    scene.producer_kinds.push_back(producer.kind);
  }
  for (const config::BacklogEntry& entry : scenario.backlog) {
    scene.backlog_reasons.push_back(entry.reason.value_or(config::DlqReason::kMaxAttempts));
  }
  for (const auto& [name, kind] : scenario.kinds) scene.idempotency[name] = kind.idempotency;
  for (const config::ErrorClass error :
       {config::ErrorClass::kRateLimited, config::ErrorClass::kTransient,
        config::ErrorClass::kPermanent, config::ErrorClass::kUnknown}) {
    scene.attempts_max.at(static_cast<size_t>(error)) =
        scenario.retry.classes.For(error).attempts_max;
  }
  scene.delivery_limit = scenario.broker.delivery_limit.value_or(0);
  scene.rabbitmq_quorum = scenario.broker.preset == config::BrokerPreset::kRabbitmqQuorum;
  scene.delayed_retry = scenario.broker.delayed_retry.has_value();
  scene.preset_rules = PresetRulesOf(scenario);
  return scene;
}

}  // namespace drainsim::experiments
