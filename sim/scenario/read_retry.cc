// Reader for the retry policy: delivery, backoff and jitter, per-class routes, budget and
// circuit breaker.
#include "sim/scenario/read_sections.h"

namespace drainsim::scenario::internal {

namespace {

constexpr double kDelaySecondsMax = 30 * kDaySeconds;

void ReadJitter(const Node& node, config::Jitter* jitter) {
  ObjectReader o(node);
  if (!o.valid()) {
    if (node.is_null()) node.TypeError("an object");
    return;
  }
  auto kind = ReadEnum<config::JitterKind>(o.Required("kind"));
  if (kind) jitter->kind = *kind;
  if (!kind || *kind == config::JitterKind::kSidekiq) {
    if (auto term = ReadEnum<config::SidekiqRandomTerm>(o.Optional("random_term"))) {
      jitter->random_term = *term;
    }
  }
  if (!kind || *kind == config::JitterKind::kProportional) {
    const Node high_node = o.Required("high");
    auto low = ReadNumber(o.Required("low"), Range::Closed(0, 100));
    auto high = ReadNumber(high_node, Range::Closed(0, 100));
    if (low && high && *high < *low) {
      high_node.Error("must be >= low = " + FormatNumber(*low) + " (got " + FormatNumber(*high) +
                      ")");
    } else if (low && high) {
      jitter->low = *low;
      jitter->high = *high;
    }
  }
  o.Finish(kind ? "for jitter kind '" + std::string(config::NameOf(*kind)) + "'" : "");
}

// Reads base_s and cap_s (cap >= base) of linear and exponential curves.
bool ReadBaseAndCap(ObjectReader& o, engine::Duration* base, engine::Duration* cap) {
  const Node cap_node = o.Required("cap_s");
  auto b = ReadSeconds(o.Required("base_s"), Range::AboveAtMost(0, kDelaySecondsMax));
  auto c = ReadSeconds(cap_node, Range::AboveAtMost(0, kDelaySecondsMax));
  if (!b || !c) return false;
  if (*c < *b) {
    cap_node.Error("must be >= base_s = " + FormatNumber(b->seconds()) + " (got " +
                   Describe(cap_node.json()) + ")");
    return false;
  }
  *base = *b;
  *cap = *c;
  return true;
}

// Jitters that need or exclude a curve: decorrelated takes an exponential's base and cap; the
// sidekiq curve carries its own random term, so "sidekiq" jitter on it would add a second.
void CheckJitterFitsCurve(config::BackoffKind curve, config::JitterKind jitter,
                          const Node& jitter_node) {
  if (jitter == config::JitterKind::kDecorrelated && curve != config::BackoffKind::kExponential) {
    ObjectReader o(jitter_node);
    o.Optional("kind").Error("must not be 'decorrelated' with backoff kind '" +
                             std::string(config::NameOf(curve)) +
                             "': decorrelated jitter needs an exponential backoff's base_s and "
                             "cap_s");
  }
  if (jitter == config::JitterKind::kSidekiq && curve == config::BackoffKind::kSidekiq) {
    ObjectReader o(jitter_node);
    o.Optional("kind").Error(
        "must not be 'sidekiq' with backoff kind 'sidekiq': the sidekiq curve carries its own "
        "random term");
  }
}

}  // namespace

void ReadBackoff(const Node& node, config::Backoff* backoff) {
  ObjectReader o(node);
  if (!o.valid()) {
    if (node.is_null()) node.TypeError("an object");
    return;
  }
  const Node kind_node = o.Required("kind");
  auto kind = ReadEnum<config::BackoffKind>(kind_node);
  const Node jitter_node = o.Optional("jitter");
  ReadJitter(jitter_node, &backoff->jitter);
  if (!kind) {
    // Accept every curve's keys: only the unreadable kind is reported.
    for (auto key : {"delay_s", "base_s", "step_s", "factor", "cap_s", "random_term"}) {
      o.Optional(key);
    }
    o.Finish();
    return;
  }
  switch (*kind) {
    case config::BackoffKind::kConstant: {
      // 0 retries at once (BullMQ without a backoff option).
      auto delay = ReadSeconds(o.Required("delay_s"), Range::Closed(0, kDelaySecondsMax));
      if (delay) backoff->curve = config::ConstantBackoff{*delay};
      break;
    }
    case config::BackoffKind::kLinear: {
      config::LinearBackoff curve;
      auto step = ReadSeconds(o.Required("step_s"), Range::Closed(0, kDelaySecondsMax));
      if (ReadBaseAndCap(o, &curve.base, &curve.cap) && step) {
        curve.step = *step;
        backoff->curve = curve;
      }
      break;
    }
    case config::BackoffKind::kExponential: {
      config::ExponentialBackoff curve;
      auto factor = ReadNumber(o.Optional("factor"), Range::Closed(1, 100));
      if (ReadBaseAndCap(o, &curve.base, &curve.cap) && (factor || !o.Has("factor"))) {
        curve.factor = factor.value_or(2);
        backoff->curve = curve;
      }
      break;
    }
    case config::BackoffKind::kSidekiq: {
      config::SidekiqBackoff curve;
      if (auto term = ReadEnum<config::SidekiqRandomTerm>(o.Optional("random_term"))) {
        curve.random_term = *term;
      }
      backoff->curve = curve;
      // Sidekiq's formula has its own randomness (its random term); adding "full" jitter on top
      // would make it something Sidekiq never does. An explicit jitter is still honoured.
      if (!jitter_node.present()) backoff->jitter = config::Jitter{config::JitterKind::kNone, 0, 0};
      break;
    }
  }
  CheckJitterFitsCurve(*kind, backoff->jitter.kind, jitter_node);
  o.Finish("for backoff kind '" + std::string(config::NameOf(*kind)) + "'");
}

namespace {

void ReadClassPolicy(const Node& node, config::ErrorClass error_class,
                     config::ClassPolicy* policy) {
  ObjectReader o(node);
  if (!o.valid()) {
    if (node.is_null()) node.TypeError("an object");
    return;
  }
  if (auto action = ReadEnum<config::ClassAction>(o.Optional("action"))) policy->action = *action;
  const bool retry = policy->action == config::ClassAction::kRetry;
  const std::string action_text = "action is '" + std::string(config::NameOf(policy->action)) + "'";
  const Node attempts = o.Optional("attempts_max");
  const Node backoff = o.Optional("backoff");
  if (retry) {
    if (policy->attempts_max < 2) policy->attempts_max = 2;
    if (auto n = ReadInt(attempts, Range::Closed(1, 1000))) policy->attempts_max = *n;
    if (backoff.given()) {
      config::Backoff b;
      ReadBackoff(backoff, &b);
      policy->backoff = b;
    } else if (backoff.is_null()) {
      policy->backoff.reset();
    }
  } else {
    policy->attempts_max = 1;
    policy->backoff.reset();
    if (attempts.present())
      attempts.Error("applies only when action is 'retry' (" + action_text + ")");
    if (backoff.present())
      backoff.Error("applies only when action is 'retry' (" + action_text + ")");
  }
  const Node honor = o.Optional("honor_retry_after");
  if (error_class == config::ErrorClass::kRateLimited) {
    if (auto v = ReadBool(honor)) policy->honor_retry_after = *v;
  } else if (honor.present()) {
    honor.Error("applies only to class 'rate_limited' (only a 429 carries Retry-After)");
  }
  o.Finish();
}

}  // namespace

void ReadRetry(const Node& node, Context& /*c*/, config::RetryPolicy* retry) {
  ObjectReader o(node);
  if (!o.valid()) {
    if (node.is_null()) node.TypeError("an object");
    return;
  }
  if (auto v = ReadEnum<config::RetryDelivery>(o.Optional("delivery"))) retry->delivery = *v;
  if (auto v = ReadEnum<config::RequeueWith>(o.Optional("requeue_with"))) retry->requeue_with = *v;
  ReadBackoff(o.Optional("backoff"), &retry->backoff);

  ObjectReader classes(o.Optional("classes"));
  if (classes.valid()) {
    config::ClassPolicy* policies[] = {&retry->classes.rate_limited, &retry->classes.transient,
                                       &retry->classes.permanent, &retry->classes.unknown};
    for (const auto& entry : config::EnumNames<config::ErrorClass>()) {
      ReadClassPolicy(classes.Optional(entry.name), entry.value,
                      policies[static_cast<size_t>(entry.value)]);
    }
    classes.Finish();
  } else if (classes.node().is_null()) {
    classes.node().TypeError("an object");
  }

  ObjectReader budget(NullAsAbsent(o.Optional("budget")));
  if (budget.valid()) {
    config::RetryBudget b;
    if (auto v = ReadNumber(budget.Optional("ratio"), Range::Probability())) b.ratio = *v;
    if (auto v = ReadInt(budget.Optional("burst"), Range::Closed(0, 1e9))) b.burst = *v;
    if (auto v = ReadSeconds(budget.Optional("window_s"), Range::AboveAtMost(0, kDaySeconds))) {
      b.window = *v;
    }
    budget.Finish();
    retry->budget = b;
  }

  ObjectReader breaker(NullAsAbsent(o.Optional("circuit_breaker")));
  if (breaker.valid()) {
    config::CircuitBreaker b;
    if (auto v = ReadNumber(breaker.Optional("error_rate_open"), Range::AboveAtMost(0, 1))) {
      b.error_rate_open = *v;
    }
    if (auto v = ReadSeconds(breaker.Optional("window_s"), Range::AboveAtMost(0, kDaySeconds))) {
      b.window = *v;
    }
    if (auto v = ReadSeconds(breaker.Optional("open_s"), Range::AboveAtMost(0, kDaySeconds))) {
      b.open = *v;
    }
    if (auto v = ReadInt(breaker.Optional("half_open_probes"), Range::Closed(1, 1e6))) {
      b.half_open_probes = *v;
    }
    if (auto v = ReadInt(breaker.Optional("attempts_min"), Range::Closed(1, 1e9))) {
      b.attempts_min = *v;
    }
    breaker.Finish();
    retry->circuit_breaker = b;
  }
  o.Finish();
}

}  // namespace drainsim::scenario::internal
