#include "live/attempt_fates.h"

#include <algorithm>

#include "sim/base/check.h"
#include "sim/engine/rng.h"
#include "sim/model/world.h"

namespace drainsim::live {

namespace {

// The failure an errors or bug fault injects: its class and fail_after.
template <typename F>
Fate FateFrom(const F& fault, int index) {
  Fate fate;
  fate.fault_index = index;
  fate.error = fault.error;
  if (fault.fail_after) fate.fail_after_ms = static_cast<double>(fault.fail_after->micros()) / 1e3;
  return fate;
}

}  // namespace

bool BugVictim(const config::BugFault& bug, uint64_t seed, int fault_index, uint64_t id) {
  // World::AssignPublishFates: one fresh stream per (fault, message), its first draw.
  engine::Rng rng =
      engine::Rng::ForStream(seed, model::kStreamFates + static_cast<uint64_t>(fault_index), id);
  return rng.NextDouble() < bug.fraction;
}

engine::Instant DrainStartAt(const config::Scenario& s, const config::Drain& drain) {
  if (drain.start_at) return *drain.start_at;
  std::optional<engine::Instant> fixed_at;
  for (const config::Fault& fault : s.faults) {
    if (const auto* bug = std::get_if<config::BugFault>(&fault); bug && bug->fixed_at) {
      fixed_at = fixed_at ? std::max(*fixed_at, *bug->fixed_at) : *bug->fixed_at;
    }
  }
  DRAINSIM_CHECK(fixed_at.has_value() && drain.start_after_fix.has_value());
  return *fixed_at + *drain.start_after_fix;
}

std::optional<Fate> AttemptFate(const PlannedMessage& m, int32_t execution, double now_s) {
  std::optional<Fate> best;
  for (const BugFate& bug : m.bug_fates) {  // in fault order: the first that strikes
    if (now_s >= bug.from_s && (!bug.fixed_at_s || now_s < *bug.fixed_at_s)) {
      best = bug.fate;
      break;
    }
  }
  const auto it =
      std::lower_bound(m.execution_fates.begin(), m.execution_fates.end(), execution,
                       [](const ExecutionFate& f, int32_t e) { return f.execution < e; });
  if (it != m.execution_fates.end() && it->execution == execution &&
      (!best || it->fate.fault_index < best->fault_index)) {
    best = it->fate;
  }
  return best;
}

void AttemptFateRecorder::OnAttemptStart(const model::AttemptInfo& info) {
  if (slot_execution_.size() <= info.slot) slot_execution_.resize(info.slot + 1, 0);
  slot_execution_[info.slot] = info.execution;
}

void AttemptFateRecorder::OnAttemptEnd(const model::AttemptEndInfo& info) {
  if (info.outcome != model::AttemptOutcome::kFailed ||
      info.failure != model::FailureCause::kInjected || info.fault < 0) {
    return;
  }
  const config::Fault& fault = scenario_.faults.at(static_cast<size_t>(info.fault));
  if (std::holds_alternative<config::ErrorsFault>(fault)) {
    DRAINSIM_CHECK(info.slot < slot_execution_.size());
    errors_.emplace(std::make_pair(info.message_id, slot_execution_[info.slot]), info.fault);
  } else if (std::holds_alternative<config::BugFault>(fault)) {
    bug_failed_.emplace(info.message_id, info.fault);
    ++bug_failures_;
  }
}

void AttemptFateRecorder::Finish(Plan* plan) const {
  InjectedFigures& figures = plan->injected;
  for (const auto& [key, fault] : errors_) {
    const auto& [id, execution] = key;
    if (id >= plan->messages.size()) continue;
    const auto& errors = std::get<config::ErrorsFault>(scenario_.faults[fault]);
    // The map is ordered by (id, execution): each message's fates come sorted.
    plan->messages[id].execution_fates.push_back({execution, FateFrom(errors, fault)});
    ++figures.errors_failed;
  }
  for (size_t f = 0; f < scenario_.faults.size(); ++f) {
    figures.errors =
        figures.errors || std::holds_alternative<config::ErrorsFault>(scenario_.faults[f]);
    const auto* bug = std::get_if<config::BugFault>(&scenario_.faults[f]);
    if (bug == nullptr) continue;
    figures.bug = true;
    const int index = static_cast<int>(f);
    for (PlannedMessage& m : plan->messages) {
      if (m.kind != bug->kind || !BugVictim(*bug, plan->seed, index, m.id)) {
        DRAINSIM_CHECK(!bug_failed_.contains({m.id, index}));  // contract (2)
        continue;
      }
      BugFate fate{FateFrom(*bug, index), bug->from.seconds(), std::nullopt};
      if (bug->fixed_at) fate.fixed_at_s = bug->fixed_at->seconds();
      m.bug_fates.push_back(fate);
      ++figures.bug_victims;
    }
  }
  figures.bug_failed = bug_failures_;
}

}  // namespace drainsim::live
