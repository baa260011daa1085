#include "sim/model/drain_plan.h"

#include <algorithm>
#include <variant>

namespace drainsim::model {

namespace {

// The bits of the enumerators `list` names, or of all `count` when there is no list.
template <typename E>
uint32_t SelectionBits(const std::optional<std::vector<E>>& list, int count) {
  if (!list) return (uint32_t{1} << count) - 1;
  uint32_t bits = 0;
  for (const E value : *list) bits |= uint32_t{1} << static_cast<int>(value);
  return bits;
}

constexpr int kErrorClassCount = static_cast<int>(config::ErrorClass::kUnknown) + 1;

// The latest fix of any bug fault: start_after_fix counts from it.
std::optional<engine::Instant> LatestFix(const std::vector<config::Fault>& faults) {
  std::optional<engine::Instant> fixed_at;
  for (const config::Fault& fault : faults) {
    if (const auto* bug = std::get_if<config::BugFault>(&fault); bug && bug->fixed_at) {
      fixed_at = fixed_at ? std::max(*fixed_at, *bug->fixed_at) : *bug->fixed_at;
    }
  }
  return fixed_at;
}

}  // namespace

DrainPlans::DrainPlans(const std::vector<config::Drain>& drains,
                       const std::vector<config::Fault>& faults,
                       const std::vector<std::string>& kind_names,
                       std::optional<double> redrive_rate_max_per_s, uint64_t seed)
    : plans_(drains.size()), redrive_rate_max_per_s_(redrive_rate_max_per_s), seed_(seed) {
  const std::optional<engine::Instant> fixed_at = LatestFix(faults);
  for (size_t d = 0; d < drains.size(); ++d) {
    const config::Drain& drain = drains[d];
    Plan& plan = plans_[d];
    plan.spec = &drain;
    // config/drains.h (1): start_after_fix comes with a bug fault that has a fix.
    plan.start_at = drain.start_at ? *drain.start_at : *fixed_at + *drain.start_after_fix;
    plan.reasons = SelectionBits(drain.select.reasons, config::kDlqReasonCount);
    plan.errors = SelectionBits(drain.select.errors, kErrorClassCount);
    const auto& kinds = drain.select.kinds;
    for (const std::string& name : kind_names) {
      plan.kinds.push_back(!kinds || std::find(kinds->begin(), kinds->end(), name) != kinds->end());
    }
  }
}

std::optional<uint32_t> DrainPlans::NextToStart() const {
  if (active_ >= 0) return std::nullopt;
  for (uint32_t d = 0; d < plans_.size(); ++d) {
    if (plans_[d].due && !plans_[d].started) return d;
  }
  return std::nullopt;
}

void DrainPlans::Start(uint32_t d, engine::Instant now, const std::optional<DatabaseTotals>& db) {
  Plan& plan = plans_[d];
  DRAINSIM_CHECK(plan.due && !plan.started);
  DRAINSIM_CHECK(active_ < 0);
  plan.started = true;
  ++uncleared_;
  plan.started_at = now;
  active_ = static_cast<int32_t>(d);
  if (!first_start_) first_start_ = now;
  if (db) {
    plan.db_busy_at_start = db->busy_connection_s;
    plan.db_capacity_at_start = db->capacity_connection_s;
  }
  SetUpPace(plan, d, now, db);
}

void DrainPlans::SetUpPace(Plan& plan, uint32_t d, engine::Instant now,
                           const std::optional<DatabaseTotals>& db) {
  const config::Drain& drain = *plan.spec;
  if (drain.replay_ms) {
    plan.replay_time = DurationSampler::Millis(*drain.replay_ms);
    plan.replay_rng = engine::Rng::ForStream(seed_, kStreamDrainer, d);
  }
  plan.busy_until = now;
  if (const auto* drip = std::get_if<config::DripDrain>(&drain.strategy)) {
    plan.bucket.emplace(drip->rate_per_s, drip->burst);
  } else if (const auto* bounded = std::get_if<config::BoundedDrain>(&drain.strategy);
             bounded != nullptr && bounded->rate_per_s) {
    plan.bucket.emplace(*bounded->rate_per_s, 1);
  } else if (const auto* adaptive = std::get_if<config::AdaptiveDrain>(&drain.strategy)) {
    DRAINSIM_CHECK(db.has_value());  // config/drains.h (3)
    plan.rate_per_s = adaptive->rate_min_per_s;
    plan.bucket.emplace(plan.rate_per_s, 1);
    db_latency_us_.Clear();
    db_timeouts_at_adjust_ = db->timeouts;
  }
  if (!plan.bucket && redrive_rate_max_per_s_) {
    // An all-at-once drain under a broker cap (SQS's move task): message k moves at k / rate,
    // so the bucket starts empty.
    plan.bucket.emplace(*redrive_rate_max_per_s_, 1);
    plan.bucket->TryTake(now);
  }
}

bool DrainPlans::End(uint32_t d) {
  Plan& plan = plans_[d];
  if (plan.ended) return false;
  plan.ended = true;
  if (active_ == static_cast<int32_t>(d)) active_ = -1;
  return true;
}

bool DrainPlans::LimitReached(uint32_t d) const {
  const Plan& plan = plans_[d];
  return plan.spec->limit && plan.replayed >= *plan.spec->limit;
}

std::optional<engine::Instant> DrainPlans::Pace(uint32_t d, engine::Instant now) {
  Plan& plan = plans_[d];
  if (plan.busy_until > now) return plan.busy_until;  // the drainer is still on its last replay
  if (plan.bucket && !plan.bucket->TryTake(now)) return plan.bucket->NextAvailable(now);
  return std::nullopt;
}

DlqEntry DrainPlans::TakeListed(uint32_t d, engine::Instant now) {
  Plan& plan = plans_[d];
  DRAINSIM_CHECK(!plan.listed.empty());
  if (plan.replay_time) plan.busy_until = now + plan.replay_time->Sample(plan.replay_rng);
  const DlqEntry entry = plan.listed.front();
  plan.listed.pop_front();
  --plan.listed_count;
  DRAINSIM_CHECK(plan.listed_count >= 0);
  ++plan.replayed;
  plan.last_replay_at = now;
  return entry;
}

engine::Duration DrainPlans::Adjust(uint32_t d, engine::Instant now, int64_t db_timeouts) {
  Plan& plan = plans_[d];
  const auto& adaptive = std::get<config::AdaptiveDrain>(plan.spec->strategy);
  DRAINSIM_CHECK(IsActive(d));
  const bool timeouts = db_timeouts > db_timeouts_at_adjust_;
  const bool slow =
      !db_latency_us_.empty() && db_latency_us_.Quantile(0.99) > adaptive.latency_target.micros();
  if (timeouts || slow) {
    plan.rate_per_s = std::max(adaptive.rate_min_per_s, plan.rate_per_s * adaptive.decrease_factor);
  } else {
    plan.rate_per_s =
        std::min(adaptive.rate_max_per_s,
                 plan.rate_per_s + adaptive.increase_per_s * adaptive.adjust_every.seconds());
  }
  plan.bucket->SetRate(now, plan.rate_per_s, 1);
  db_latency_us_.Clear();
  db_timeouts_at_adjust_ = db_timeouts;
  return adaptive.adjust_every;
}

bool DrainPlans::AllSettled() const {
  int64_t listed = 0;
  for (const Plan& plan : plans_) {
    if (!plan.started) return false;  // a plan still to come: not judged yet
    listed += plan.listed_count;
  }
  return listed == 0 && replays_in_pipeline_ == 0;
}

void DrainPlans::NoteMainQueueInPlans(int64_t main_queue, engine::Instant now) {
  for (Plan& plan : plans_) {
    if (!plan.started || plan.backlog_cleared_at) continue;
    if (main_queue > 0) {
      plan.main_held = true;
    } else if (plan.main_held) {
      plan.backlog_cleared_at = now;
      --uncleared_;
    }
  }
}

void DrainPlans::FillResults(uint32_t d, engine::Instant now,
                             const std::optional<DatabaseTotals>& db, DrainResults& out) const {
  const Plan& plan = plans_[d];
  out.replayed = plan.replayed;
  out.left = plan.listed_count;
  const double active_s = (now - plan.started_at).seconds();
  out.achieved_rate_per_s = active_s > 0 ? static_cast<double>(plan.replayed) / active_s : 0;
  if (plan.replayed > 0) out.last_replay_at_s = plan.last_replay_at.seconds();
  if (plan.backlog_cleared_at) {
    out.backlog_cleared_s = (*plan.backlog_cleared_at - plan.started_at).seconds();
  }
  if (db) {
    const double capacity = db->capacity_connection_s - plan.db_capacity_at_start;
    out.db_utilisation =
        capacity > 0 ? (db->busy_connection_s - plan.db_busy_at_start) / capacity : 0;
  }
}

}  // namespace drainsim::model
