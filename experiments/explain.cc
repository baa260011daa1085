#include "experiments/explain.h"

namespace drainsim::experiments {

reports::ExplainScene ExplainSceneOf(const scenario::Scenario& scenario) {
  reports::ExplainScene scene;
  for (const scenario::Producer& producer : scenario.producers) {
    scene.producer_kinds.push_back(producer.kind);
  }
  for (const scenario::BacklogEntry& entry : scenario.backlog) {
    scene.backlog_reasons.push_back(entry.reason.value_or(scenario::DlqReason::kMaxAttempts));
  }
  for (const auto& [name, kind] : scenario.kinds) scene.idempotency[name] = kind.idempotency;
  for (const scenario::ErrorClass error :
       {scenario::ErrorClass::kRateLimited, scenario::ErrorClass::kTransient,
        scenario::ErrorClass::kPermanent, scenario::ErrorClass::kUnknown}) {
    scene.attempts_max.at(static_cast<size_t>(error)) =
        scenario.retry.classes.For(error).attempts_max;
  }
  scene.delivery_limit = scenario.broker.delivery_limit.value_or(0);
  scene.rabbitmq_quorum = scenario.broker.preset == scenario::BrokerPreset::kRabbitmqQuorum;
  return scene;
}

}  // namespace drainsim::experiments
