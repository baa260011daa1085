#include "sim/model/observer.h"

#include <algorithm>
#include <utility>

#include "sim/engine/check.h"

namespace drainsim::model {

std::string_view AttemptOutcomeName(AttemptOutcome outcome) {
  switch (outcome) {
    case AttemptOutcome::kSucceeded:
      return "succeeded";
    case AttemptOutcome::kSuppressed:
      return "suppressed";
    case AttemptOutcome::kFailed:
      return "failed";
    case AttemptOutcome::kCrashed:
      return "crashed";
  }
  DRAINSIM_CHECK(false);
  return "";
}

std::string_view AckFateName(AckFate fate) {
  switch (fate) {
    case AckFate::kNone:
      return "none";
    case AckFate::kAcked:
      return "acked";
    case AckFate::kLost:
      return "lost";
    case AckFate::kBrokerDown:
      return "broker_down";
    case AckFate::kIgnored:
      return "ignored";
  }
  DRAINSIM_CHECK(false);
  return "";
}

std::string_view FailureCauseName(FailureCause cause) {
  switch (cause) {
    case FailureCause::kNone:
      return "none";
    case FailureCause::kInjected:
      return "injected";
    case FailureCause::kDbTimeout:
      return "db_timeout";
    case FailureCause::kDbRefused:
      return "db_refused";
    case FailureCause::kDownstreamOutage:
      return "downstream_503";
    case FailureCause::kRateLimited:
      return "downstream_429";
  }
  DRAINSIM_CHECK(false);
  return "";
}

std::string_view TransitionCauseName(TransitionCause cause) {
  switch (cause) {
    case TransitionCause::kDelivered:
      return "delivered";
    case TransitionCause::kRetryDue:
      return "retry_due";
    case TransitionCause::kVisibilityTimeout:
      return "visibility_timeout";
    case TransitionCause::kCrashRequeue:
      return "crash_requeue";
    case TransitionCause::kBrokerRestart:
      return "broker_restart";
    case TransitionCause::kRetryScheduled:
      return "retry_scheduled";
    case TransitionCause::kDeadLettered:
      return "dead_lettered";
    case TransitionCause::kReplayed:
      return "replayed";
    case TransitionCause::kParkedByPolicy:
      return "parked_by_policy";
    case TransitionCause::kParkedByDrain:
      return "parked_by_drain";
    case TransitionCause::kAcked:
      return "acked";
    case TransitionCause::kExpired:
      return "expired";
    case TransitionCause::kRejected:
      return "rejected";
    case TransitionCause::kReturned:
      return "returned";
    case TransitionCause::kRetentionExpired:
      return "retention_expired";
    case TransitionCause::kFailed:
      return "failed";
  }
  DRAINSIM_CHECK(false);
  return "";
}

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
