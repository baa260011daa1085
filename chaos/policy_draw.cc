#include "chaos/policy_draw.h"

#include <array>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>
#include <vector>

#include "sim/base/check.h"
#include "sim/config/enum_names.h"
#include "sim/engine/rng.h"
#include "sim/scenario/load.h"
#include "sim/scenario/presets.h"

namespace drainsim::chaos {

namespace {

using config::BrokerPreset;
using config::EnumNames;

// The preset whose broker message_groups models (message_group_kind): the only one besides none
// that the loader accepts with them.
BrokerPreset GroupsPreset(const config::Broker& broker) {
  switch (broker.message_group_kind.value_or(config::MessageGroupKind::kFifoGroup)) {
    case config::MessageGroupKind::kSession:
      return BrokerPreset::kAzureServiceBus;
    case config::MessageGroupKind::kOrderingKey:
      return BrokerPreset::kPubsub;
    case config::MessageGroupKind::kFifoGroup:
      break;
  }
  return BrokerPreset::kSqs;
}
using config::NameOf;
using nlohmann::json;

constexpr uint64_t kPolicyStream = engine::StreamId("swarm-policy");
enum Dimension : uint64_t { kPreset, kDelivery, kBudget, kBreaker };

// The fastest drain SQS allows (sim/scenario/check_presets.cc): a base with a faster drain
// never draws the sqs preset.
constexpr double kSqsDrainRateMax = 500;
// Sidekiq's own 25 retries wait 21 days in all; the swarm runs its variants to rest, so a drawn
// sidekiq preset retries 7 times (`sidekiq_options retry: 7`, 44 minutes of backoff).
constexpr int64_t kSidekiqAttemptsMax = 8;
// NATS JetStream's MaxDeliver is unlimited by default: a message that always fails would be
// redelivered for ever, so a drawn nats-jetstream preset delivers at most 10 times.
constexpr int64_t kNatsDeliverMax = 10;

// Ladders, exact in decimal so that a dumped variant reads as it was drawn.
constexpr std::array kBudgetRatios = {0.05, 0.1, 0.2, 0.5, 1.0};
constexpr std::array<int64_t, 4> kBudgetBursts = {0, 1, 10, 100};
constexpr std::array kBudgetWindowsS = {1.0, 10.0, 60.0};
constexpr std::array kBreakerRates = {0.1, 0.2, 0.5, 0.8, 1.0};
constexpr std::array kBreakerWindowsS = {5.0, 10.0, 30.0, 60.0};
constexpr std::array kBreakerOpenS = {1.0, 5.0, 15.0, 45.0};
constexpr std::array<int64_t, 4> kBreakerProbes = {1, 2, 3, 5};
constexpr std::array<int64_t, 4> kBreakerAttemptsMin = {1, 5, 20, 50};

class Draw {
 public:
  Draw(uint64_t seed, Dimension dimension)
      : rng_(engine::Rng::ForStream(seed, kPolicyStream, dimension)) {}
  bool Chance(uint64_t numerator, uint64_t denominator) {
    return rng_.Bernoulli(numerator, denominator);
  }
  uint64_t Below(uint64_t n) { return rng_.UniformInt(n); }
  template <typename T, size_t N>
  T Pick(const std::array<T, N>& ladder) {
    return ladder[rng_.UniformInt(N)];
  }

 private:
  engine::Rng rng_;
};

// Every pointer any preset fills: the fields that make up "the broker's policy".
std::set<std::string> PresetPointers() {
  std::set<std::string> pointers;
  for (const auto& entry : EnumNames<BrokerPreset>()) {
    for (const scenario::PresetDefault& d : scenario::PresetDefaults(entry.value)) {
      pointers.emplace(d.pointer);
    }
  }
  return pointers;
}

void Remove(json& document, const std::string& pointer) {
  const json::json_pointer where(pointer);
  json& parent = document[where.parent_pointer()];
  if (parent.is_object()) parent.erase(where.back());
}

bool DrainFasterThan(const config::Scenario& s, double rate_per_s) {
  for (const config::Drain& d : s.drains) {
    if (const auto* drip = std::get_if<config::DripDrain>(&d.strategy)) {
      if (drip->rate_per_s > rate_per_s) return true;
    } else if (const auto* bounded = std::get_if<config::BoundedDrain>(&d.strategy)) {
      if (bounded->rate_per_s && *bounded->rate_per_s > rate_per_s) return true;
    } else if (const auto* adaptive = std::get_if<config::AdaptiveDrain>(&d.strategy)) {
      if (adaptive->rate_max_per_s > rate_per_s) return true;
    }
  }
  return false;
}

// A preset without a dead-letter queue (celery): the loader refuses it beside a drain or a DLQ
// backlog, so a base with either never draws it.
bool LacksDeadLetterQueue(BrokerPreset preset) {
  for (const scenario::PresetDefault& d : scenario::PresetDefaults(preset)) {
    if (d.pointer == "/broker/dead_letter_queue" && d.value == "false") return true;
  }
  return false;
}

bool UsesDeadLetterQueue(const config::Scenario& s) {
  if (!s.drains.empty()) return true;
  for (const config::BacklogEntry& b : s.backlog) {
    if (b.where == config::BacklogWhere::kDlq) return true;
  }
  return false;
}

// The preset dimension. Returns true iff a preset (not "none", not the base's) was drawn.
bool DrawPreset(const config::Scenario& skeleton, uint64_t seed, json& document,
                std::vector<std::string>& drawn) {
  Draw draw(seed, kPreset);
  if (draw.Chance(1, 3)) {
    drawn.push_back(std::string("preset: the base's (") +
                    (skeleton.broker.preset ? std::string(NameOf(*skeleton.broker.preset))
                                            : std::string("none")) +
                    ")");
    return false;
  }
  // A Lambda event-source mapping reads SQS only (workers.lambda_esm): no preset is not a choice.
  const bool lambda = skeleton.workers.lambda_esm.has_value();
  std::vector<std::optional<BrokerPreset>> choices;
  if (!lambda) choices.push_back(std::nullopt);
  for (const auto& entry : EnumNames<BrokerPreset>()) {
    if (lambda && entry.value != BrokerPreset::kSqs) continue;
    if (entry.value == BrokerPreset::kSqs && DrainFasterThan(skeleton, kSqsDrainRateMax)) continue;
    if (LacksDeadLetterQueue(entry.value) && UsesDeadLetterQueue(skeleton)) continue;
    // Message groups are SQS FIFO queues', partitions Kafka's: every other preset refuses them
    // (kafka-share too: a share group's records belong to no one consumer). kafka-share needs no
    // bound below: its delivery count limit (5, at most 10) archives a record that always fails.
    // Service Bus sessions and Pub/Sub ordering keys (message_group_kind) are their brokers'.
    if (skeleton.broker.message_groups && entry.value != GroupsPreset(skeleton.broker)) continue;
    if (skeleton.broker.partitions && entry.value != BrokerPreset::kKafka) continue;
    // The kafka preset sets partitions, which the loader refuses beside workers.autoscale.
    if (skeleton.workers.autoscale && entry.value == BrokerPreset::kKafka) continue;
    // A Kafka consumer is one thread (workers.concurrency 1).
    if (entry.value == BrokerPreset::kKafka && skeleton.workers.concurrency != 1) continue;
    choices.push_back(entry.value);
  }
  const std::optional<BrokerPreset> preset = choices[draw.Below(choices.size())];
  for (const std::string& pointer : PresetPointers()) {
    // The base's partitions are its workload's shape, not the policy: kept as they are.
    if (pointer != "/broker/partitions") Remove(document, pointer);
  }
  // What the broker does with dead letters it cannot keep depends on fields a preset fills (a
  // DLQ at all, its cap and trim): part of the policy, so it goes with them; so does RabbitMQ
  // 4.3's delayed retry, which every other preset refuses, and the auto-commit interval, which
  // needs the offset_commit "auto" that only a kafka base keeps (the preset fills "record").
  for (const char* pointer : {"/broker/dlq_overflow", "/broker/dead_letter_strategy",
                              "/broker/without_dlq", "/broker/delayed_retry",
                              "/broker/auto_commit_interval_s"}) {
    Remove(document, pointer);
  }
  Remove(document, "/broker/preset");
  if (!preset) {
    drawn.push_back("preset: none (drainsim's defaults)");
    return false;
  }
  document["broker"]["preset"] = std::string(NameOf(*preset));
  drawn.push_back("preset: " + std::string(NameOf(*preset)));
  if (*preset == BrokerPreset::kKafka && !skeleton.broker.partitions) {
    // Kafka's default of one partition would run the base on one consumer: one per worker, as a
    // topic sized for its consumer group is.
    document["broker"]["partitions"] = skeleton.workers.count;
    drawn.push_back("partitions: " + std::to_string(skeleton.workers.count) +
                    " (one per worker; docs/SWARM.md)");
  }
  return true;
}

void DrawDelivery(const config::Scenario& skeleton, uint64_t seed, json& document,
                  std::vector<std::string>& drawn) {
  Draw draw(seed, kDelivery);
  std::vector<std::string_view> modes;
  for (const auto& entry : EnumNames<config::RetryDelivery>()) {
    // A Lambda invocation that ends gives its message back: it cannot wait in the function.
    if (skeleton.workers.lambda_esm && (entry.value == config::RetryDelivery::kSleepInConsumer ||
                                        entry.value == config::RetryDelivery::kEtaInConsumer)) {
      continue;
    }
    modes.push_back(entry.name);
  }
  const std::string mode(modes[draw.Below(modes.size())]);
  document["retry"]["delivery"] = mode;
  drawn.push_back("delivery: " + mode);
}

void DrawBudget(uint64_t seed, json& document, std::vector<std::string>& drawn) {
  Draw draw(seed, kBudget);
  json& budget = document["retry"]["budget"];
  if (draw.Chance(1, 2)) {
    budget = nullptr;
  } else {
    budget = {{"ratio", draw.Pick(kBudgetRatios)},
              {"burst", draw.Pick(kBudgetBursts)},
              {"window_s", draw.Pick(kBudgetWindowsS)}};
  }
  drawn.push_back("budget: " + (budget.is_null() ? std::string("off") : budget.dump()));
}

void DrawBreaker(uint64_t seed, json& document, std::vector<std::string>& drawn) {
  Draw draw(seed, kBreaker);
  json& breaker = document["retry"]["circuit_breaker"];
  if (draw.Chance(1, 2)) {
    breaker = nullptr;
  } else {
    breaker = {{"error_rate_open", draw.Pick(kBreakerRates)},
               {"window_s", draw.Pick(kBreakerWindowsS)},
               {"open_s", draw.Pick(kBreakerOpenS)},
               {"half_open_probes", draw.Pick(kBreakerProbes)},
               {"attempts_min", draw.Pick(kBreakerAttemptsMin)}};
  }
  drawn.push_back("breaker: " + (breaker.is_null() ? std::string("off") : breaker.dump()));
}

// Invariant (4), the sidekiq retry count and NATS's MaxDeliver, on the loaded preset variant.
void BoundDrawnPreset(const config::Scenario& loaded, json& document,
                      std::vector<std::string>& drawn) {
  const int64_t visibility_max_us = kSwarmVisibilityMaxS * 1'000'000;
  if (loaded.broker.visibility_timeout.micros() > visibility_max_us) {
    document["broker"]["visibility_timeout_s"] = kSwarmVisibilityMaxS;
    drawn.push_back("visibility_timeout_s: " + std::to_string(kSwarmVisibilityMaxS) +
                    " (the preset's is longer; docs/SWARM.md)");
  }
  if (loaded.broker.preset == BrokerPreset::kSidekiq) {
    for (const char* name : {"rate_limited", "transient", "permanent", "unknown"}) {
      json& route = document["retry"]["classes"][name];
      if (route.is_object() && route.value("action", "") == "retry" &&
          route.value("attempts_max", int64_t{1}) > kSidekiqAttemptsMax) {
        route["attempts_max"] = kSidekiqAttemptsMax;
      }
    }
    drawn.push_back("attempts_max: at most " + std::to_string(kSidekiqAttemptsMax) +
                    " (sidekiq retry: 7; docs/SWARM.md)");
  }
  if (loaded.broker.preset == BrokerPreset::kNatsJetstream &&
      (!loaded.broker.receive_count_max || *loaded.broker.receive_count_max > kNatsDeliverMax)) {
    document["broker"]["receive_count_max"] = kNatsDeliverMax;
    drawn.push_back("receive_count_max: " + std::to_string(kNatsDeliverMax) +
                    " (MaxDeliver; the preset's is unlimited; docs/SWARM.md)");
  }
}

void AddProblems(const scenario::LoadResult& loaded, DrawnPolicy& out) {
  for (const scenario::Problem& problem : loaded.problems) {
    out.problems.push_back(scenario::FormatProblem("<policy variant>", problem));
  }
}

}  // namespace

DrawnPolicy DrawPolicy(const config::Scenario& skeleton, uint64_t seed) {
  DrawnPolicy out;
  json document = json::parse(scenario::DumpCanonical(skeleton));
  const bool preset_drawn = DrawPreset(skeleton, seed, document, out.drawn);
  if (!preset_drawn) DrawDelivery(skeleton, seed, document, out.drawn);
  DrawBudget(seed, document, out.drawn);
  DrawBreaker(seed, document, out.drawn);
  scenario::LoadResult loaded = scenario::LoadScenarioText(document.dump());
  if (loaded.ok() && preset_drawn) {
    // The preset's defaults are in the loaded scenario only: bound them there, in its dump.
    json filled = json::parse(scenario::DumpCanonical(*loaded.scenario));
    BoundDrawnPreset(*loaded.scenario, filled, out.drawn);
    loaded = scenario::LoadScenarioText(filled.dump());
  }
  if (!loaded.ok()) {
    AddProblems(loaded, out);
    return out;
  }
  out.scenario = std::move(loaded.scenario);
  return out;
}

}  // namespace drainsim::chaos
