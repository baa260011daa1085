#include "sim/model/observer.h"

#include <algorithm>
#include <utility>

#include "sim/base/check.h"

namespace drainsim::model {

std::string_view FaultEdgeName(FaultEdge edge) {
  switch (edge) {
    case FaultEdge::kOpen:
      return "opens";
    case FaultEdge::kClose:
      return "closes";
    case FaultEdge::kStrike:
      return "strikes";
  }
  DRAINSIM_CHECK(false);
  return "";
}

ObserverTee::ObserverTee(std::vector<RunObserver*> observers) : all_(std::move(observers)) {
  for (RunObserver* o : all_) {
    DRAINSIM_CHECK(o != nullptr);
    if (o->WantsMessages()) messages_.push_back(o);
  }
}

bool ObserverTee::WantsMessages() const { return !messages_.empty(); }

bool ObserverTee::WantsKeys() const {
  return std::any_of(messages_.begin(), messages_.end(),
                     [](const RunObserver* o) { return o->WantsKeys(); });
}

void ObserverTee::OnPublish(const PublishInfo& info) {
  for (RunObserver* o : messages_) o->OnPublish(info);
}
void ObserverTee::OnTransition(const TransitionInfo& info) {
  for (RunObserver* o : messages_) o->OnTransition(info);
}
void ObserverTee::OnAttemptStart(const AttemptInfo& info) {
  for (RunObserver* o : messages_) o->OnAttemptStart(info);
}
void ObserverTee::OnAttemptEnd(const AttemptEndInfo& info) {
  for (RunObserver* o : messages_) o->OnAttemptEnd(info);
}
void ObserverTee::OnCommit(const CommitInfo& info) {
  for (RunObserver* o : messages_) o->OnCommit(info);
}
void ObserverTee::OnStatement(const StatementInfo& info) {
  for (RunObserver* o : messages_) o->OnStatement(info);
}
void ObserverTee::OnSleep(const SleepInfo& info) {
  for (RunObserver* o : messages_) o->OnSleep(info);
}
void ObserverTee::OnReleased(uint64_t message_id, engine::Instant at) {
  for (RunObserver* o : messages_) o->OnReleased(message_id, at);
}
void ObserverTee::OnFaultEdge(uint32_t fault, FaultEdge edge, engine::Instant at) {
  for (RunObserver* o : all_) o->OnFaultEdge(fault, edge, at);
}
void ObserverTee::OnWorkerCrash(uint32_t worker, bool after_commit, engine::Instant at) {
  for (RunObserver* o : all_) o->OnWorkerCrash(worker, after_commit, at);
}
void ObserverTee::OnWorkerRestart(uint32_t worker, engine::Instant at) {
  for (RunObserver* o : all_) o->OnWorkerRestart(worker, at);
}
void ObserverTee::OnDrainStart(uint32_t drain, engine::Instant at) {
  for (RunObserver* o : all_) o->OnDrainStart(drain, at);
}
void ObserverTee::OnDrainEnd(uint32_t drain, engine::Instant at) {
  for (RunObserver* o : all_) o->OnDrainEnd(drain, at);
}
void ObserverTee::OnProgress(engine::Instant now, engine::Instant until, int64_t events) {
  for (RunObserver* o : all_) o->OnProgress(now, until, events);
}

}  // namespace drainsim::model
