#include "experiments/explain.h"

namespace drainsim::experiments {

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
  return scene;
}

}  // namespace drainsim::experiments
