// The liveness bounds of plan.h: DefaultLiveness from a scenario's policy, VariantLiveness
// for one variant. The backoff ceilings are the model's own (sim/model/backoff.h).
#include <algorithm>
#include <cmath>
#include <variant>

#include "chaos/fault_draw.h"
#include "chaos/plan.h"
#include "sim/model/backoff.h"

namespace drainsim::chaos {

namespace {

using config::Scenario;
using engine::Duration;
using engine::Instant;

constexpr double kLivenessFloorS = 600;

// The longest wait `backoff` can produce before retry n (attempts made so far), jitter
// included: the model's own ceiling (sim/model/backoff.h) at Sidekiq's largest random term,
// spread by the largest jitter factor.
double DelayCeilingS(const config::Backoff& backoff, int64_t n) {
  const int64_t sidekiq_rand_max = model::SidekiqRandCount(backoff.curve, n) - 1;
  if (backoff.jitter.kind == config::JitterKind::kDecorrelated) {
    // Decorrelated jitter ignores the curve and grows up to the exponential's cap.
    if (const auto* e = std::get_if<config::ExponentialBackoff>(&backoff.curve)) {
      return e->cap.seconds();
    }
  }
  if (backoff.jitter.kind == config::JitterKind::kSidekiq) {  // the curve ignores r then
    return model::BackoffCeiling(backoff.curve, n, 0).seconds() +
           static_cast<double>(model::SidekiqJitterMaxS(backoff.jitter, n));
  }
  double delay_s = model::BackoffCeiling(backoff.curve, n, sidekiq_rand_max).seconds();
  if (backoff.jitter.kind == config::JitterKind::kProportional) {
    delay_s *= std::max(1.0, backoff.jitter.high);
  }
  return delay_s;
}

// How many attempts a message that fails every time gets under `policy`: its attempts_max,
// unless the broker dead-letters it first (receive_count_max counts every delivery;
// delivery_limit counts the returns of delivery_counted, here the retry's own returns).
int64_t AttemptsOf(const config::ClassPolicy& policy, const Scenario& s) {
  int64_t attempts = policy.attempts_max;
  if (s.broker.receive_count_max) attempts = std::min(attempts, *s.broker.receive_count_max);
  const bool counted_requeue =
      s.retry.delivery == config::RetryDelivery::kRequeue && s.broker.delivery_limit &&
      s.broker.delivery_counted[static_cast<size_t>(
          s.retry.requeue_with == config::RequeueWith::kNack ? config::ReturnKind::kNack
                                                             : config::ReturnKind::kReject)];
  if (counted_requeue) attempts = std::min(attempts, *s.broker.delivery_limit + 1);
  return std::max<int64_t>(attempts, 1);
}

// The wait before retry n under the scenario's retry delivery: the class's backoff for the
// deliveries that use it, the broker's redelivery backoff for "requeue", the visibility
// timeout for "visibility_timeout".
double RetryWaitS(const config::Backoff& backoff, const Scenario& s, int64_t n) {
  switch (s.retry.delivery) {
    case config::RetryDelivery::kRepublish:
    case config::RetryDelivery::kSleepInConsumer:
    case config::RetryDelivery::kEtaInConsumer:
      return DelayCeilingS(backoff, n);
    case config::RetryDelivery::kRequeue:
      return s.broker.redelivery_backoff ? DelayCeilingS(*s.broker.redelivery_backoff, n) : 0;
    case config::RetryDelivery::kVisibilityTimeout:
      return s.broker.visibility_timeout.seconds();
  }
  return 0;
}

// The most attempts AttemptsOf gives over the retry classes; 1 when none retries.
int64_t MostAttempts(const Scenario& s) {
  const config::RetryClasses& c = s.retry.classes;
  int64_t attempts = 1;
  for (const config::ClassPolicy* policy :
       {&c.rate_limited, &c.transient, &c.permanent, &c.unknown}) {
    if (policy->action == config::ClassAction::kRetry) {
      attempts = std::max(attempts, AttemptsOf(*policy, s));
    }
  }
  return attempts;
}

// At most how many messages of `kind` the scenario publishes (backlog included); a Poisson
// producer counted at twice its mean plus 20.
double PublishedAtMost(const Scenario& s, const std::string& kind) {
  double count = 0;
  for (const config::BacklogEntry& entry : s.backlog) {
    if (entry.kind == kind) count += static_cast<double>(entry.count);
  }
  for (const config::Producer& p : s.producers) {
    if (p.kind != kind) continue;
    if (const auto* c = std::get_if<config::ConstantSchedule>(&p.schedule)) {
      count += std::floor(c->rate_per_s * (c->window.until - c->window.from).seconds()) + 1;
    } else if (const auto* q = std::get_if<config::PoissonSchedule>(&p.schedule)) {
      count += 2 * q->rate_per_s * (q->window.until - q->window.from).seconds() + 20;
    } else if (const auto* b = std::get_if<config::BurstSchedule>(&p.schedule)) {
      count += static_cast<double>(b->count);  // the plan left no repetition
    } else {
      count += static_cast<double>(std::get<config::FanoutSchedule>(p.schedule).count);
    }
  }
  return count;
}

// At most how many poison pills one poison fault makes.
double PillsOf(const Scenario& variant, const config::PoisonFault& poison) {
  return poison.count
             ? static_cast<double>(*poison.count)
             : std::ceil(poison.fraction.value_or(0) * PublishedAtMost(variant, poison.kind));
}

// At most how many poison pills the variant's poison faults make.
double PoisonPillsAtMost(const Scenario& variant) {
  double pills = 0;
  for (const config::Fault& fault : variant.faults) {
    if (const auto* poison = std::get_if<config::PoisonFault>(&fault)) {
      pills += PillsOf(variant, *poison);
    }
  }
  return pills;
}

// How long the variant's slow pills can keep every worker slot busy: a pill that fails only
// after fail_after holds a slot that long on each attempt (as many as its error class gets), so
// its pills cost at most pills * attempts * fail_after of slot time, shared by count * concurrency slots (a throughput
// term: the rest of the bound follows one message). preset-kafka-share.json's seed 190 found
// why: 10% pills failing after 30 s, 5 deliveries each, kept its 100 slots busy for about 3
// hours and left 6,811 messages waiting at the old bound: slow, not stuck.
double SlowPillWorkS(const Scenario& variant) {
  double slot_s = 0;
  for (const config::Fault& fault : variant.faults) {
    const auto* poison = std::get_if<config::PoisonFault>(&fault);
    if (!poison || !poison->fail_after) continue;
    const config::ClassPolicy& policy = variant.retry.classes.For(poison->error);
    const int64_t attempts =
        policy.action == config::ClassAction::kRetry ? AttemptsOf(policy, variant) : 1;
    slot_s += PillsOf(variant, *poison) * static_cast<double>(attempts) *
              poison->fail_after->seconds();
  }
  // With workers.autoscale only autoscale.min workers are certain to stay.
  const int64_t workers =
      variant.workers.autoscale ? variant.workers.autoscale->min : variant.workers.count;
  return slot_s / (static_cast<double>(workers) * static_cast<double>(variant.workers.concurrency));
}

// How much longer an autoscaled pool can keep one message: an attempt on a worker the
// autoscaler removes may run to the end of its grace period and be killed there, to run again
// (a crash return, which the retry policy does not count): grace_s for each attempt the message
// can get. Worker 0 is never removed and a new worker's start-up lag delays no message that
// worker 0 can take, so the lag adds nothing.
double AutoscaleKillS(const Scenario& variant) {
  if (!variant.workers.autoscale) return 0;
  return static_cast<double>(MostAttempts(variant)) * variant.workers.autoscale->grace.seconds();
}

// How long a breaker can hold back the retries of the variant's poison pills: each failure of
// a pill may open it for open_s, and a pill fails every attempt, so at most
// pills * attempts * open_s (the swarm first found it as liveness failures of breaker variants
// of poison-pills.json: slow, not stuck).
double BreakerHoldS(const Scenario& variant) {
  if (!variant.retry.circuit_breaker) return 0;
  return PoisonPillsAtMost(variant) * static_cast<double>(MostAttempts(variant)) *
         variant.retry.circuit_breaker->open.seconds();
}

// How long message groups can hold a message back behind the variant's poison pills: a pill
// keeps its group from delivering for each of its attempts (in flight up to the visibility
// timeout), and every pill may fall in the message's group, so at most pills * attempts *
// attempt_s. FIFO groups with a poison fraction serialise a group behind every pill: the swarm
// found such variants of preset-sqs-fifo.json slow, not stuck (4 of 200 seeds before this term).
// A topic's partitions hold the same way, and a pill retried at once holds its consumer's other
// partitions too: within the same bound, as the consumer runs nothing else meanwhile.
double GroupHoldS(const Scenario& variant, double attempt_s) {
  if (!variant.broker.message_groups && !variant.broker.partitions) return 0;
  return PoisonPillsAtMost(variant) * static_cast<double>(MostAttempts(variant)) * attempt_s;
}

// Sum of the waits of a message that fails every attempt of `policy`.
double RetryChainS(const config::ClassPolicy& policy, const Scenario& s) {
  if (policy.action != config::ClassAction::kRetry) return 0;
  const config::Backoff& backoff = policy.backoff ? *policy.backoff : s.retry.backoff;
  double chain_s = 0;
  const int64_t attempts = AttemptsOf(policy, s);
  for (int64_t n = 1; n < attempts; ++n) chain_s += RetryWaitS(backoff, s, n);
  return chain_s;
}

// The longest one attempt can keep its message in flight: the visibility timeout, every
// statement's timeout, the longest fail_after, and an open breaker's open_s.
double AttemptS(const Scenario& base) {
  double handler_s = 0;
  for (const auto& [name, kind] : base.kinds) {
    const int64_t queries = kind.handler.db_ops + (kind.idempotency == config::Idempotency::kClaim);
    if (base.database) {
      handler_s =
          std::max(handler_s, static_cast<double>(queries) * base.database->timeout.seconds());
    }
  }
  const double breaker_s =
      base.retry.circuit_breaker ? base.retry.circuit_breaker->open.seconds() : 0;
  return base.broker.visibility_timeout.seconds() + handler_s + FailAfterMax().seconds() +
         breaker_s;
}

}  // namespace

Duration DefaultLiveness(const Scenario& base) {
  const config::RetryPolicy& retry = base.retry;
  const config::ClassPolicy* classes[] = {&retry.classes.rate_limited, &retry.classes.transient,
                                          &retry.classes.permanent, &retry.classes.unknown};
  double chain_s = 0;
  for (const config::ClassPolicy* policy : classes) {
    chain_s = std::max(chain_s, RetryChainS(*policy, base));
  }
  const int64_t attempts_max = MostAttempts(base);
  const double attempt_s = AttemptS(base);
  const double bound_s =
      kLivenessFloorS + 2 * (chain_s + static_cast<double>(attempts_max) * attempt_s +
                             base.workers.restart.seconds() + BrokerDowntimeMax().seconds());
  const double capped_s = std::min(std::ceil(bound_s), static_cast<double>(kRunMicrosMax) / 1e6);
  return Duration::Seconds(static_cast<int64_t>(capped_s));
}

Duration VariantLiveness(const SwarmPlan& plan, const Scenario& variant) {
  if (plan.liveness_given) return plan.liveness;
  const double room_s =
      static_cast<double>(kRunMicrosMax - (plan.safety_end - Instant::Zero()).micros()) / 1e6;
  const double bound_s = DefaultLiveness(variant).seconds() + std::ceil(BreakerHoldS(variant)) +
                         std::ceil(GroupHoldS(variant, AttemptS(variant))) +
                         std::ceil(SlowPillWorkS(variant)) + std::ceil(AutoscaleKillS(variant));
  return Duration::Seconds(static_cast<int64_t>(std::min(bound_s, std::floor(room_s))));
}

}  // namespace drainsim::chaos
