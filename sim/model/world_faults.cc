// Faults: windows opening and closing, crashes, and the failures fated to a message or an
// attempt. Each per-message or per-attempt decision draws from its own stream, named by the
// fault's index and the message (and execution), so one fault's draws never shift another's.
#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/config/enum_names.h"
#include "sim/config/fault_types.h"
#include "sim/model/world.h"

namespace drainsim::model {

void World::ScheduleFaults() {
  fault_window_slot_.clear();
  for (uint32_t f = 0; f < scenario_.faults.size(); ++f) {
    const config::Fault& fault = scenario_.faults[f];
    if (const auto* restart = std::get_if<config::BrokerRestartFault>(&fault)) {
      At(restart->at, Event{EventType::kBrokerRestart, f});
    } else if (const auto* crash = std::get_if<config::WorkerCrashFault>(&fault)) {
      if (crash->at) At(*crash->at, Event{EventType::kWorkerCrash, f});
    }
    fault_window_slot_.push_back(-1);
    if (const config::Window* window = config::WindowOf(fault)) {
      std::vector<FaultWindowAttempts>& windows = metrics_.results().fault_windows;
      fault_window_slot_[f] = static_cast<int32_t>(windows.size());
      windows.push_back(FaultWindowAttempts{f, std::string(config::NameOf(config::TypeOf(fault))),
                                            window->from.seconds(), window->until.seconds(), 0, 0});
      // A window open from the start is open before anything else happens at time 0.
      if (window->from == engine::Instant::Zero()) {
        FaultEdge(Event{EventType::kFaultEdge, f, 1});
      } else {
        At(window->from, Event{EventType::kFaultEdge, f, 1});
      }
      if (window->until < until_) At(window->until, Event{EventType::kFaultEdge, f, 0});
    }
  }
}

void World::CountAttemptInWindows(bool first) {
  for (uint32_t f = 0; f < scenario_.faults.size(); ++f) {
    if (!faults_.active(f) || fault_window_slot_[f] < 0) continue;
    FaultWindowAttempts& w =
        metrics_.results().fault_windows[static_cast<size_t>(fault_window_slot_[f])];
    ++w.attempts;
    w.first_attempts += first ? 1 : 0;
  }
}

void World::FaultEdge(const Event& event) {
  const uint32_t f = event.a;
  const bool open = event.b == 1;
  DRAINSIM_CHECK(fault_window_slot_[f] >= 0);  // only windows have edges
  faults_.SetActive(f, open);
  if (observer_ != nullptr) [[unlikely]] {
    observer_->OnFaultEdge(f, open ? FaultEdge::kOpen : FaultEdge::kClose, now_);
  }
  const config::Fault& fault = scenario_.faults[f];
  // Database settings are recomputed from every active fault, so overlapping windows compose.
  if (database_) {
    const FaultSchedule::DatabaseSettings db = faults_.Database(scenario_.database->connections);
    database_->SetSlowdown(db.slowdown);
    database_->SetOutage(db.outage);
    if (db.connections != database_->capacity()) database_->SetCapacity(db.connections);
  }
  if (const auto* limit = std::get_if<config::DownstreamRateLimitFault>(&fault)) {
    if (open) {
      downstream_->LimitRate(now_, limit->rate_limit_per_s, limit->burst);
    } else {
      downstream_->EndRateLimit(now_);
    }
  } else if (const auto* crash = std::get_if<config::WorkerCrashFault>(&fault)) {
    if (open && crash->rate_per_h) CrashEvent(Event{EventType::kWorkerCrash, f, 1});
  }
  Dispatch();
}

void World::CrashEvent(const Event& event) {
  const uint32_t f = event.a;
  const auto& crash = std::get<config::WorkerCrashFault>(scenario_.faults[f]);
  const bool scheduling_only = event.b == 1;  // the window just opened: no crash yet
  const int64_t count = crash.rate_per_h ? 1 : crash.count;
  if (!scheduling_only) {
    if (observer_ != nullptr) [[unlikely]] {
      observer_->OnFaultEdge(f, FaultEdge::kStrike, now_);
    }
    if (crash.rate_per_h) {
      Results& results = metrics_.results();
      if (results.crash_strikes_s.size() < Results::kStrikesKept) {
        results.crash_strikes_s.push_back(now_.seconds());
      }
      ++results.crash_strikes;
    }
    // `count` distinct workers, drawn without replacement (a partial Fisher-Yates shuffle).
    std::vector<uint32_t> candidates(pool_.size());
    for (uint32_t w = 0; w < candidates.size(); ++w) candidates[w] = w;
    const auto picks = static_cast<size_t>(std::min<int64_t>(count, pool_.size()));
    for (size_t i = 0; i < picks; ++i) {
      const size_t j = i + crash_rng_.UniformInt(candidates.size() - i);
      std::swap(candidates[i], candidates[j]);
      const uint32_t w = candidates[i];
      if (crash.point == config::CrashPoint::kBetweenCommitAndAck) {
        pool_.ArmCrashAfterCommit(w);  // dies at its next commit
      } else {
        CrashWorker(w, /*after_commit=*/false);
      }
    }
  }
  if (crash.rate_per_h && faults_.active(f)) {
    const double gap_s = -std::log(crash_rng_.NextOpenDouble()) * 3600.0 / *crash.rate_per_h;
    const double gap_us = std::nearbyint(gap_s * 1e6);
    if (gap_us < static_cast<double>(engine::kInputMicrosMax)) {
      const engine::Instant next = now_ + engine::Duration::Micros(static_cast<int64_t>(gap_us));
      if (next < crash.window.until && next < until_) {
        At(next, Event{EventType::kWorkerCrash, f, 0});
      }
    }
  }
}

}  // namespace drainsim::model
