#include "chaos/variant.h"

#include <algorithm>
#include <string>

#include "chaos/fault_draw.h"
#include "chaos/policy_draw.h"
#include "sim/base/check.h"

namespace drainsim::chaos {

namespace {
// The loader's limit on scenario names.
constexpr size_t kNameBytesMax = 200;

std::string Joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : "; ") + part;
  return out;
}
// The loader records at most 1e7 samples per run (until_s / sample_every_s). A long liveness
// bound (a Sidekiq chain of days) over a fine sample period would pass it, and the variant
// would not load: it samples more coarsely instead, in whole milliseconds. Samples observe;
// they decide no message's fate.
void CoarsenSampling(config::Scenario& variant) {
  constexpr int64_t kSamplesMax = 10'000'000;
  const int64_t until_us = (variant.run.until - engine::Instant::Zero()).micros();
  // In doubles, as the loader checks it: every * 1e7 could overflow an int64.
  const double samples =
      static_cast<double>(until_us) / static_cast<double>(variant.run.sample_every.micros());
  if (samples <= static_cast<double>(kSamplesMax)) return;
  const int64_t every_ms = (until_us / kSamplesMax + 999) / 1000;
  variant.run.sample_every = engine::Duration::Millis(every_ms);
}

}  // namespace

Variant DrawVariant(const SwarmPlan& plan, uint64_t seed) {
  Variant out;
  config::Scenario variant = plan.skeleton;
  // Until the variant's own bound is known, its run ends with the safety phase: the skeleton's
  // (the base's bound) may be too long for its sample period (below).
  variant.run.until = plan.safety_end;
  if (plan.vary_policies) {
    DrawnPolicy drawn = DrawPolicy(variant, seed);
    out.policy = std::move(drawn.drawn);
    if (!drawn.scenario) {
      out.problems = std::move(drawn.problems);
      return out;
    }
    variant = std::move(*drawn.scenario);
  }
  variant.seed = seed;
  const std::string suffix = "-swarm-" + std::to_string(seed);
  // Cut on a byte boundary that keeps UTF-8 whole: never inside a multi-byte sequence.
  size_t keep = std::min(plan.skeleton.name.size(), kNameBytesMax - suffix.size());
  while (keep > 0 && keep < plan.skeleton.name.size() &&
         (static_cast<unsigned char>(plan.skeleton.name[keep]) & 0xC0) == 0x80) {
    --keep;
  }
  variant.name = plan.skeleton.name.substr(0, keep) + suffix;
  variant.faults = DrawFaults(variant, plan.safety_end, seed);
  // After the faults: the bound counts the poison pills a breaker may hold back.
  out.liveness = VariantLiveness(plan, variant);
  variant.run.until = plan.safety_end + out.liveness;
  CoarsenSampling(variant);
  variant.description =
      "Chaos swarm variant of '" + plan.skeleton.name + "', swarm seed " + std::to_string(seed) +
      ": " + (plan.vary_policies ? "drawn policy (" + Joined(out.policy) + ") and " : "") +
      "random faults in the safety phase [0, " +
      FormatSeconds(plan.safety_end - engine::Instant::Zero()) + ") s, then a liveness phase of " +
      FormatSeconds(out.liveness) +
      " s without faults or producers, by the end of which every message must rest. Generated "
      "by drainsim swarm; see docs/SWARM.md.";
  out.scenario = std::move(variant);
  return out;
}

config::Scenario MakeVariant(const SwarmPlan& plan, uint64_t seed) {
  Variant drawn = DrawVariant(plan, seed);
  DRAINSIM_CHECK(drawn.scenario.has_value());
  return std::move(*drawn.scenario);
}

scenario::LoadResult ReloadVariant(const config::Scenario& variant) {
  return scenario::LoadScenarioText(scenario::DumpCanonical(variant));
}

}  // namespace drainsim::chaos
