#include "live/retry_plan.h"

#include <algorithm>
#include <set>

#include "sim/config/enum_names.h"
#include "sim/engine/rng.h"
#include "sim/model/backoff.h"

namespace drainsim::live {

namespace {

using config::ClassAction;
using config::ClassPolicy;
using config::ErrorClass;

const config::Backoff& BackoffOf(const config::RetryPolicy& r, const ClassPolicy& policy) {
  return policy.backoff ? *policy.backoff : r.backoff;
}

// Calls f(class name, its policy, the pointer of its backoff) for every class that retries.
template <typename F>
void ForEachRetryClass(const config::RetryPolicy& r, F f) {
  for (const auto& entry : config::EnumNames<ErrorClass>()) {
    const ClassPolicy& policy = r.classes.For(entry.value);
    if (policy.action != ClassAction::kRetry || policy.attempts_max < 2) continue;
    const std::string pointer = policy.backoff
                                    ? "/retry/classes/" + std::string(entry.name) + "/backoff"
                                    : std::string("/retry/backoff");
    f(policy, pointer);
  }
}

}  // namespace

int64_t DelayLevelMs(int64_t delay_us) { return std::max<int64_t>(1, (delay_us + 500) / 1000); }

std::vector<int64_t> DelayLevelsMs(const config::RetryPolicy& r) {
  std::vector<int64_t> levels;
  ForEachRetryClass(r, [&](const ClassPolicy& policy, const std::string&) {
    const config::Backoff& b = BackoffOf(r, policy);
    for (int64_t n = 1; n < policy.attempts_max; ++n) {
      levels.push_back(DelayLevelMs(model::BackoffCeiling(b.curve, n, 0).micros()));
    }
  });
  std::sort(levels.begin(), levels.end());
  levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
  return levels;
}

std::string DelayQueueName(const std::string& run_id, int64_t delay_ms) {
  return run_id + ".delay." + std::to_string(delay_ms) + "ms";
}

void CheckRetrySupport(const config::RetryPolicy& r, std::vector<scenario::Problem>* out) {
  using config::RetryDelivery;
  if (r.delivery == RetryDelivery::kRequeue || r.delivery == RetryDelivery::kSleepInConsumer) {
    return;
  }
  if (r.delivery != RetryDelivery::kRepublish) {
    out->push_back(
        {"/retry/delivery", "delivery " + std::string(config::NameOf(r.delivery)) +
                                " is not supported by drainsim live yet (requeue, republish and "
                                "sleep_in_consumer are)"});
    return;
  }
  bool deterministic = true;
  std::set<std::string> seen;  // classes without a backoff of their own share /retry/backoff
  ForEachRetryClass(r, [&](const ClassPolicy& policy, const std::string& pointer) {
    if (!seen.insert(pointer).second) return;
    const config::Backoff& b = BackoffOf(r, policy);
    if (b.jitter.kind != config::JitterKind::kNone) {
      deterministic = false;
      out->push_back({pointer + "/jitter",
                      "jitter " + std::string(config::NameOf(b.jitter.kind)) +
                          " with republish is not supported by drainsim live yet (one delay "
                          "queue per delay level needs delays known before the run: use jitter "
                          "none, or sleep_in_consumer)"});
    } else if (b.kind() == config::BackoffKind::kSidekiq) {
      deterministic = false;
      out->push_back({pointer + "/kind",
                      "backoff sidekiq with republish is not supported by drainsim live yet (its "
                      "random term is a jitter: delays not known before the run)"});
    }
  });
  if (deterministic && DelayLevelsMs(r).size() > kDelayLevelsMax) {
    out->push_back({"/retry", "more than " + std::to_string(kDelayLevelsMax) +
                                  " distinct backoff delays (one delay queue each) is not "
                                  "supported by drainsim live"});
  }
}

int64_t LiveBackoffUs(const config::Scenario& s, const PlannedMessage& m, uint64_t seed,
                      int attempt, ErrorClass error) {
  const size_t index = static_cast<size_t>(attempt - 1);
  if (attempt >= 1 && index < m.backoff_us.size() && m.backoff_us[index] >= 0) {
    return m.backoff_us[index];
  }
  // Not drawn by the simulation (it never made this attempt fail): a stream of its own.
  engine::Rng rng = engine::Rng::ForStream(seed, engine::StreamId("live-backoff"),
                                           m.id * 1024 + static_cast<uint64_t>(attempt));
  model::BackoffState state;
  for (size_t i = index; i-- > 0;) {
    if (i < m.backoff_us.size() && m.backoff_us[i] >= 0) {
      state.previous = engine::Duration::Micros(m.backoff_us[i]);
      break;
    }
  }
  const ClassPolicy& policy = s.retry.classes.For(error);
  return model::BackoffDelay(BackoffOf(s.retry, policy), std::max(1, attempt), state, rng).micros();
}

}  // namespace drainsim::live
