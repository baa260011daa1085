#include "sim/model/autoscaler.h"

#include <algorithm>
#include <cmath>

#include "sim/base/check.h"

namespace drainsim::model {

namespace {

// A proposal this large is beyond any max (workers.count and autoscale.max are at most
// 100000): it keeps ceil(metric / target) inside int64 whatever the metric.
constexpr double kProposalCap = 1e9;

}  // namespace

Autoscaler::Autoscaler(const config::Autoscale& spec, int64_t initial)
    : target_(spec.target),
      min_(spec.min),
      max_(spec.max),
      cooldown_(spec.cooldown),
      current_(initial) {
  DRAINSIM_CHECK(min_ >= 1);
  DRAINSIM_CHECK(min_ <= max_);
  DRAINSIM_CHECK(target_ > 0);
  DRAINSIM_CHECK(current_ >= min_);  // (1)
  DRAINSIM_CHECK(current_ <= max_);
}

int64_t Autoscaler::Proposal(double metric, int64_t current) const {
  DRAINSIM_CHECK(metric >= 0);
  DRAINSIM_CHECK(std::isfinite(metric));
  DRAINSIM_CHECK(current >= 1);
  // replica_calculator.go, GetExternalPerPodMetricReplicas: the usage ratio against what the
  // current replicas are meant to handle; within the tolerance nothing changes.
  const double ratio = metric / (target_ * static_cast<double>(current));
  if (std::fabs(ratio - 1.0) <= kTolerance) return current;
  return static_cast<int64_t>(std::min(kProposalCap, std::ceil(metric / target_)));
}

int64_t Autoscaler::Decide(engine::Instant now, double metric) {
  DRAINSIM_CHECK(now >= last_decision_);
  last_decision_ = now;
  const int64_t proposal = Proposal(metric, current_);

  // Step 2, stabilizeRecommendationWithBehaviors: the scale-down window's largest proposal,
  // this one included; older ones leave the window (invariant (3)).
  while (!recommendations_.empty() && !(recommendations_.front().at > now - cooldown_)) {
    recommendations_.pop_front();
  }
  recommendations_.push_back(Recommendation{now, proposal});
  int64_t down_limit = proposal;
  for (const Recommendation& r : recommendations_) down_limit = std::max(down_limit, r.workers);
  int64_t wanted = current_;
  if (wanted < proposal) wanted = proposal;      // scale-up window 0 s: the proposal itself
  if (wanted > down_limit) wanted = down_limit;  // never below the window's largest

  // Step 3, convertDesiredReplicasWithBehaviorRate and calculateScaleUpLimitWithScalingRules.
  while (!changes_.empty() && !(changes_.front().at > now - kPolicyPeriod)) changes_.pop_front();
  if (wanted > current_) {
    // The replicas at the start of the policy's period: current less what the period added,
    // plus what it removed.
    int64_t start = current_;
    for (const ScaleEvent& e : changes_) start -= e.change;
    const int64_t up_limit = std::max({current_, 2 * start, start + 4});
    wanted = std::min({wanted, up_limit, max_});  // step 4's upper bound
  } else if (wanted < current_) {
    wanted = std::max(wanted, min_);  // step 4's lower bound
  }
  DRAINSIM_CHECK(wanted >= min_);  // (1)
  DRAINSIM_CHECK(wanted <= max_);
  if (wanted != current_) changes_.push_back(ScaleEvent{now, wanted - current_});
  current_ = wanted;
  return current_;
}

}  // namespace drainsim::model
