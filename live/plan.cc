#include "live/plan.h"

#include <algorithm>
#include <map>

#include "live/attempt_fates.h"
#include "live/db_faults.h"
#include "live/downstream_api.h"
#include "live/fault_plan.h"
#include "live/live_traffic.h"
#include "live/retry_plan.h"
#include "sim/config/enum_names.h"
#include "sim/model/simulation.h"

namespace drainsim::live {

namespace {

using scenario::Problem;

std::string NotYet(std::string_view what) {
  return std::string(what) + " is not supported by drainsim live yet";
}

void CheckBroker(const config::Broker& b, std::vector<Problem>* out) {
  if (b.preset && *b.preset != config::BrokerPreset::kRabbitmqQuorum) {
    out->push_back(
        {"/broker/preset", "preset " + std::string(config::NameOf(*b.preset)) +
                               ": drainsim live runs RabbitMQ; use no preset or rabbitmq-quorum"});
  }
  auto refuse = [&](bool bad, const char* pointer, const char* what) {
    if (bad) out->push_back({pointer, NotYet(what)});
  };
  refuse(b.receive_count_max.has_value(), "/broker/receive_count_max", "receive_count_max");
  refuse(b.max_length.has_value(), "/broker/max_length", "max_length");
  refuse(b.retention.has_value(), "/broker/retention_s", "main-queue retention");
  refuse(b.redelivery_backoff.has_value(), "/broker/redelivery_backoff", "redelivery_backoff");
  refuse(!b.dead_letter_queue, "/broker/dead_letter_queue", "a broker without a DLQ");
  refuse(b.dlq_max_length.has_value(), "/broker/dlq_max_length", "dlq_max_length");
  refuse(b.dead_letter_duplicate_probability > 0, "/broker/dead_letter_duplicate_probability",
         "best-effort dead-lettering");
  refuse(b.lock_renewal, "/broker/lock_renewal", "lock renewal");
  refuse(b.stalled_count_max.has_value(), "/broker/stalled_count_max", "stalled_count_max");
  refuse(b.requeue_on_crash != config::RequeueOnCrash::kImmediate, "/broker/requeue_on_crash",
         "requeue_on_crash other than immediate (AMQP requeues at once)");
  refuse(b.redrive_rate_max_per_s.has_value(), "/broker/redrive_rate_max_per_s",
         "redrive_rate_max_per_s");
  // NATS JetStream's rules: RabbitMQ has neither.
  refuse(b.ack_pending_max.has_value(), "/broker/ack_pending_max",
         "ack_pending_max (NATS MaxAckPending)");
  refuse(b.requeue_position == config::RequeuePosition::kRedeliveriesFirst,
         "/broker/requeue_position", "requeue_position redeliveries_first (NATS JetStream)");
  // Celery/kombu on Redis: RabbitMQ puts a timed-out delivery nowhere near the head.
  refuse(b.requeue_position == config::RequeuePosition::kRestoredToHead,
         "/broker/requeue_position", "requeue_position restored_to_head (kombu on Redis)");
}

// live/drainer.h runs one drain plan of strategy bulk, drip or bounded; the DLQ keeps its
// messages for the whole run (no x-message-ttl), so a retention that could expire one is refused.
void CheckDrains(const config::Scenario& s, std::vector<Problem>* out) {
  for (size_t i = 0; i < s.drains.size(); ++i) {
    const std::string at = "/drains/" + std::to_string(i);
    const config::Drain& d = s.drains[i];
    if (i > 0) out->push_back({at, NotYet("more than one drain plan")});
    if (d.kind() == config::DrainStrategy::kAdaptive) {
      out->push_back({at + "/strategy", NotYet("an adaptive drain")});
    }
  }
  const auto& retention = s.broker.dlq_retention;
  if (retention && (!s.drains.empty() || !s.backlog.empty())) {
    engine::Duration oldest = engine::Duration::Zero();
    for (const config::BacklogEntry& b : s.backlog) oldest = std::max(oldest, b.age);
    if (*retention <= s.run.until - engine::Instant::Zero() + oldest) {
      out->push_back({"/broker/dlq_retention_s",
                      NotYet("a DLQ retention shorter than the run (plus the backlog's age)")});
    }
  }
}

void CheckWork(const config::Scenario& s, std::vector<Problem>* out) {
  for (size_t i = 0; i < s.backlog.size(); ++i) {
    if (s.backlog[i].where == config::BacklogWhere::kDelayed) {
      out->push_back(
          {"/backlog/" + std::to_string(i) + "/where", NotYet("a backlog in the delay queue")});
    }
  }
  if (s.database && s.database->live_traffic &&
      s.database->live_traffic->rate_per_s > kLiveRateMaxPerS) {
    out->push_back({"/database/live_traffic/rate_per_s",
                    "live traffic above " + std::to_string(static_cast<int>(kLiveRateMaxPerS)) +
                        " queries/s is not supported by drainsim live (live/live_traffic.h)"});
  }
  std::vector<bool> handled;  // worker crashes and lost acks: live/fault_plan.h
  for (scenario::Problem& p : CheckFaultSupport(s, &handled)) out->push_back(std::move(p));
  // The downstream API and its faults: live/downstream_api.h
  for (scenario::Problem& p : CheckDownstreamSupport(s, &handled)) out->push_back(std::move(p));
  std::vector<bool> db_handled;  // db_slowdown and db_connections: live/db_faults.h
  for (scenario::Problem& p : CheckDbFaultSupport(s, &db_handled)) out->push_back(std::move(p));
  for (size_t i = 0; i < s.faults.size(); ++i) {
    const config::FaultType type = config::TypeOf(s.faults[i]);
    // errors and bug: live/attempt_fates.h
    if (type != config::kTypeOf<config::PoisonFault> &&
        type != config::kTypeOf<config::SyntheticFailuresFault> &&
        type != config::kTypeOf<config::ErrorsFault> && type != config::kTypeOf<config::BugFault> &&
        !handled[i] && !db_handled[i]) {
      out->push_back(
          {"/faults/" + std::to_string(i) + "/type", NotYet(std::string(config::NameOf(type)))});
    }
  }
  CheckDrains(s, out);
}

void CheckRetry(const config::RetryPolicy& r, std::vector<Problem>* out) {
  CheckRetrySupport(r, out);  // requeue, republish, sleep_in_consumer: live/retry_plan.h
  if (r.budget) out->push_back({"/retry/budget", NotYet("a retry budget")});
  if (r.circuit_breaker) out->push_back({"/retry/circuit_breaker", NotYet("a circuit breaker")});
}

// Poison and synthetic_failures fail every attempt of their messages.
bool MessageFate(const config::Fault& fault) {
  return std::holds_alternative<config::PoisonFault>(fault) ||
         std::holds_alternative<config::SyntheticFailuresFault>(fault);
}

Fate FateOf(const config::Fault& fault, int index) {
  Fate fate;
  fate.fault_index = index;
  std::optional<engine::Duration> after;
  if (const auto* p = std::get_if<config::PoisonFault>(&fault)) {
    fate.error = p->error;
    after = p->fail_after;
  } else if (const auto* f = std::get_if<config::SyntheticFailuresFault>(&fault)) {
    fate.error = f->error;
    after = f->fail_after;
  }
  if (after) fate.fail_after_ms = static_cast<double>(after->micros()) / 1000.0;
  return fate;
}

// Records publishes (with keys) and the failures injected by poison and synthetic_failures (the
// errors and bug faults fail particular attempts: live/attempt_fates.h).
class PlanRecorder : public model::RunObserver {
 public:
  PlanRecorder(Plan* plan, const config::Scenario& s) : plan_(plan), scenario_(s) {}
  bool WantsKeys() const override { return true; }
  void OnPublish(const model::PublishInfo& info) override {
    if (info.message_id != plan_->messages.size()) return;  // a republish: not a new message
    PlannedMessage m;
    m.id = info.message_id;
    m.kind_index = info.kind_index;
    m.kind = plan_->kind_names.at(info.kind_index);
    m.key = std::string(info.key);
    m.publish_at_s = static_cast<double>(info.at.micros()) / 1e6;
    if (info.state == model::MessageState::kDeadLettered) {
      const config::BacklogEntry& entry = scenario_.backlog.at(info.source_index);
      m.dlq = DlqStart{entry.reason.value_or(config::DlqReason::kMaxAttempts),
                       entry.error.value_or(config::ErrorClass::kTransient),
                       static_cast<int32_t>(entry.attempts)};
    }
    plan_->messages.push_back(std::move(m));
  }
  void OnAttemptEnd(const model::AttemptEndInfo& info) override {
    if (info.outcome == model::AttemptOutcome::kFailed &&
        info.failure == model::FailureCause::kInjected && info.fault >= 0 &&
        MessageFate(scenario_.faults.at(static_cast<size_t>(info.fault)))) {
      injected_.emplace(info.message_id, info.fault);
    }
  }
  // The backoffs the simulation waited (live/retry_plan.h): a republish's delay and a
  // sleep_in_consumer's sleep, by the attempt that failed.
  void OnAttemptStart(const model::AttemptInfo& info) override {
    if (slot_attempt_.size() <= info.slot) slot_attempt_.resize(info.slot + 1, 0);
    slot_attempt_[info.slot] = info.attempt;
  }
  void OnTransition(const model::TransitionInfo& info) override {
    if (info.cause == model::TransitionCause::kRetryScheduled) {
      Backoff(info.message_id, info.attempts, (info.until - info.at).micros());
    }
  }
  void OnSleep(const model::SleepInfo& info) override {
    const int32_t attempt = info.slot < slot_attempt_.size() ? slot_attempt_[info.slot] : 0;
    Backoff(info.message_id, attempt, (info.until - info.at).micros());
  }
  const std::map<uint64_t, int>& injected() const { return injected_; }

 private:
  Plan* plan_;
  const config::Scenario& scenario_;
  std::map<uint64_t, int> injected_;
  std::vector<int32_t> slot_attempt_;  // the attempt running in each slot

  void Backoff(uint64_t id, int32_t attempt, int64_t delay_us) {
    if (id >= plan_->messages.size() || attempt < 1) return;
    std::vector<int64_t>& b = plan_->messages[id].backoff_us;
    if (b.size() < static_cast<size_t>(attempt)) b.resize(static_cast<size_t>(attempt), -1);
    b[static_cast<size_t>(attempt - 1)] = delay_us;
  }
};

}  // namespace

std::vector<Problem> CheckLiveSupport(const config::Scenario& s) {
  std::vector<Problem> out;
  CheckBroker(s.broker, &out);
  CheckWork(s, &out);
  CheckRetry(s.retry, &out);
  return out;
}

Plan MakePlan(const config::Scenario& s, uint64_t seed) {
  Plan plan;
  plan.seed = seed;
  for (const auto& entry : s.kinds) plan.kind_names.push_back(entry.first);
  PlanRecorder recorder(&plan, s);
  FaultRecorder faults(s);
  AttemptFateRecorder attempt_fates(s);
  model::ObserverTee tee({&recorder, &faults, &attempt_fates});
  model::RunOptions options;
  options.observer = &tee;
  plan.simulated = model::RunSimulation(s, seed, options);
  faults.Finish(&plan);
  attempt_fates.Finish(&plan);
  for (const auto& [id, fault] : recorder.injected()) {
    if (id < plan.messages.size()) plan.messages[id].fate = FateOf(s.faults.at(fault), fault);
  }
  for (size_t f = 0; f < s.faults.size(); ++f) {
    const auto* poison = std::get_if<config::PoisonFault>(&s.faults[f]);
    if (poison == nullptr || !poison->count) continue;
    int64_t left = *poison->count;
    const double from_s = static_cast<double>(poison->from.micros()) / 1e6;
    for (PlannedMessage& m : plan.messages) {
      if (left == 0) break;
      if (m.kind != poison->kind || m.publish_at_s < from_s) continue;
      if (!m.fate) m.fate = FateOf(s.faults[f], static_cast<int>(f));
      --left;
    }
  }
  return plan;
}

}  // namespace drainsim::live
