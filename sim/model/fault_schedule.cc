#include "sim/model/fault_schedule.h"

#include <utility>
#include <variant>

#include "sim/base/check.h"

namespace drainsim::model {

FaultSchedule::FaultSchedule(const std::vector<config::Fault>& faults,
                             std::vector<int64_t> kind_by_fault, uint64_t seed)
    : faults_(faults), kind_by_fault_(std::move(kind_by_fault)), active_(faults.size(), false) {
  DRAINSIM_CHECK(kind_by_fault_.size() == faults_.size());
  count_left_.assign(faults_.size(), 0);
  for (size_t f = 0; f < faults_.size(); ++f) {
    streams_.emplace_back(seed, kStreamFates + f);
    if (const auto* poison = std::get_if<config::PoisonFault>(&faults_[f])) {
      count_left_[f] = poison->count.value_or(0);
    } else if (const auto* synthetic = std::get_if<config::SyntheticFailuresFault>(&faults_[f])) {
      count_left_[f] = synthetic->count;
    }
  }
}

void FaultSchedule::AssignPublishFates(Message& m, engine::Instant now) {
  const auto kind = static_cast<int64_t>(m.kind_index);
  for (size_t f = 0; f < faults_.size(); ++f) {
    // One stream per (fault, message): a message's fate does not depend on other messages.
    if (const auto* poison = std::get_if<config::PoisonFault>(&faults_[f])) {
      if (kind_by_fault_[f] != kind || now < poison->from) continue;
      if (poison->count) {
        if (count_left_[f] > 0) {
          --count_left_[f];
          m.poison = true;
        }
      } else {
        engine::Rng rng = streams_[f].For(m.id);
        if (rng.NextDouble() < *poison->fraction) m.poison = true;
      }
    } else if (const auto* bug = std::get_if<config::BugFault>(&faults_[f])) {
      if (kind_by_fault_[f] != kind) continue;
      engine::Rng rng = streams_[f].For(m.id);
      if (rng.NextDouble() < bug->fraction) m.bug_victim = true;
    }
  }
}

std::optional<FaultSchedule::Injection> FaultSchedule::InjectedFailure(Message& m,
                                                                       engine::Instant now) {
  const auto kind = static_cast<int64_t>(m.kind_index);
  const auto injection = [](const auto& fault, size_t f) {
    // Faults are at most 1000 (config::FaultLimits::kFaultsMax): the index fits 16 bits.
    return Injection{fault.error, fault.fail_after.value_or(engine::Duration::Zero()),
                     static_cast<uint16_t>(f)};
  };
  for (size_t f = 0; f < faults_.size(); ++f) {
    const config::Fault& fault = faults_[f];
    if (const auto* poison = std::get_if<config::PoisonFault>(&fault)) {
      if (m.poison) return injection(*poison, f);
    } else if (const auto* synthetic = std::get_if<config::SyntheticFailuresFault>(&fault)) {
      if (kind_by_fault_[f] != kind || now < synthetic->from) continue;
      if (!m.synthetic_checked) {
        m.synthetic_checked = true;
        if (count_left_[f] > 0) {
          --count_left_[f];
          m.synthetic = true;
        }
      }
      if (m.synthetic) return injection(*synthetic, f);
    } else if (const auto* bug = std::get_if<config::BugFault>(&fault)) {
      const bool fixed = bug->fixed_at && now >= *bug->fixed_at;
      if (m.bug_victim && kind_by_fault_[f] == kind && now >= bug->from && !fixed) {
        return injection(*bug, f);
      }
    } else if (const auto* errors = std::get_if<config::ErrorsFault>(&fault)) {
      if (!active_[f] || (kind_by_fault_[f] != kAnyKind && kind_by_fault_[f] != kind)) continue;
      engine::Rng rng = streams_[f].For((m.id << 20) ^ static_cast<uint64_t>(m.executions));
      if (rng.NextDouble() < errors->probability) return injection(*errors, f);
    }
  }
  return std::nullopt;
}

bool FaultSchedule::AckLost(const Message& m) const {
  for (size_t f = 0; f < faults_.size(); ++f) {
    const auto* loss = std::get_if<config::AckLossFault>(&faults_[f]);
    if (loss == nullptr || !active_[f]) continue;
    engine::Rng rng = streams_[f].For((m.id << 20) ^ static_cast<uint64_t>(m.executions));
    if (rng.NextDouble() < loss->probability) return true;
  }
  return false;
}

void FaultSchedule::SetActive(uint32_t fault, bool open) {
  DRAINSIM_CHECK(fault < faults_.size());
  if (active_[fault] != open) active_count_ += open ? 1 : -1;
  active_[fault] = open;
  // Counted per edge, as each outage window opens once and closes at most once.
  if (std::holds_alternative<config::DownstreamOutageFault>(faults_[fault])) {
    downstream_outages_ += open ? 1 : -1;
  }
}

FaultSchedule::DatabaseSettings FaultSchedule::Database(int64_t connections) const {
  DatabaseSettings settings;
  settings.connections = connections;
  for (size_t f = 0; f < faults_.size(); ++f) {
    if (!active_[f]) continue;
    if (const auto* s = std::get_if<config::DbSlowdownFault>(&faults_[f])) {
      settings.slowdown *= s->factor;
    } else if (std::holds_alternative<config::DbOutageFault>(faults_[f])) {
      settings.outage = true;
    } else if (const auto* c = std::get_if<config::DbConnectionsFault>(&faults_[f])) {
      settings.connections = c->connections;
    }
  }
  return settings;
}

}  // namespace drainsim::model
