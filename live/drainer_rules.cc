// The drainer's pure rules (declared in live/drainer.h): what a DLQ message is to a drain's
// selection, a replay's life base, the wall-clock pacer, and the DLQ backlog put in before the
// run. The drainer's thread itself is live/drainer.cc.
#include <algorithm>
#include <vector>

#include "live/drainer.h"
#include "live/producer.h"
#include "live/stop_signal.h"
#include "sim/config/enum_names.h"

namespace drainsim::live {

namespace {

using config::DlqReason;
using config::ErrorClass;

template <typename T>
bool Contains(const std::optional<std::vector<T>>& list, const T& value) {
  return !list || std::find(list->begin(), list->end(), value) != list->end();
}

}  // namespace

DlqView ViewOf(const AmqpMessage& message, const config::Scenario& s) {
  DlqView view;
  view.kind = HeaderString(message.headers, "x-drainsim-kind");
  const std::string fail = HeaderString(message.headers, "x-drainsim-fail");
  if (message.death_reason.empty()) {  // put there before the run: the backlog's own figures
    view.reason =
        config::FromName<DlqReason>(HeaderString(message.headers, "x-drainsim-dlq-reason"))
            .value_or(DlqReason::kMaxAttempts);
    view.error = config::FromName<ErrorClass>(HeaderString(message.headers, "x-drainsim-error"))
                     .value_or(ErrorClass::kTransient);
    return view;
  }
  view.error = fail.empty() ? ErrorClass::kTransient
                            : config::FromName<ErrorClass>(fail).value_or(ErrorClass::kUnknown);
  if (message.death_reason == "delivery_limit") {
    view.reason = DlqReason::kDeliveryLimit;
  } else if (s.retry.classes.For(view.error).action == config::ClassAction::kDeadLetter) {
    view.reason = DlqReason::kNotRetryable;
  } else {
    view.reason = DlqReason::kMaxAttempts;
  }
  return view;
}

int64_t ReplayLifeBase(int64_t deliveries, int64_t base, config::RedriveAttempts attempts) {
  // As the simulation's Replay: keep sets the count to max(0, attempts - 1).
  const int64_t last_life = deliveries - base;
  const int64_t kept =
      attempts == config::RedriveAttempts::kKeep ? std::max<int64_t>(0, last_life - 1) : 0;
  return deliveries - kept;
}

bool Selected(const config::DrainSelect& select, const DlqView& view) {
  return Contains(select.reasons, view.reason) && Contains(select.errors, view.error) &&
         Contains(select.kinds, view.kind);
}

WallPacer::WallPacer(std::optional<double> rate_per_s, int64_t burst) {
  if (rate_per_s) bucket_.emplace(*rate_per_s, burst);
}

WallPacer WallPacer::For(const config::Drain& drain) {
  if (const auto* drip = std::get_if<config::DripDrain>(&drain.strategy)) {
    return WallPacer(drip->rate_per_s, drip->burst);
  }
  if (const auto* bounded = std::get_if<config::BoundedDrain>(&drain.strategy)) {
    return WallPacer(bounded->rate_per_s, 1);
  }
  return WallPacer(std::nullopt, 1);
}

int64_t WallPacer::Take(int64_t now_us) {
  last_us_ = std::max(last_us_, now_us);
  if (!bucket_) return last_us_;
  const engine::Instant now = engine::Instant::Zero() + engine::Duration::Micros(last_us_);
  const engine::Instant at = bucket_->NextAvailable(now);
  bucket_->TryTake(at);
  last_us_ = (at - engine::Instant::Zero()).micros();
  return last_us_;
}

int64_t SeedDlq(RunState& state) {
  base::Expected<std::unique_ptr<AmqpConnection>> opened =
      AmqpConnection::Open(state.amqp_url, "drainsim live: DLQ backlog");
  if (!opened) {
    state.Fail("DLQ backlog: " + opened.error());
    return 0;
  }
  const std::unique_ptr<AmqpConnection>& conn = *opened;
  if (!conn->ConfirmSelect()) {
    state.Fail("DLQ backlog: " + conn->error());
    return 0;
  }
  for (const PlannedMessage& m : state.plan.messages) {
    if (!m.dlq) continue;
    AmqpHeaders headers = PublishHeaders(m);
    headers["x-drainsim-dlq-reason"] = std::string(config::NameOf(m.dlq->reason));
    headers["x-drainsim-error"] = std::string(config::NameOf(m.dlq->error));
    headers["x-drainsim-life-base"] = -static_cast<int64_t>(m.dlq->attempts);
    if (!conn->Publish(state.topology.dlq, std::to_string(m.id), headers,
                       "{\"id\":" + std::to_string(m.id) + "}")) {
      break;
    }
    while (conn->Ok() && conn->published() - conn->confirmed() >= kUnconfirmedMax) {
      if (!conn->WaitConfirms(std::chrono::milliseconds(100)) || StopRequested()) break;
    }
    if (StopRequested()) break;
  }
  if (conn->Ok()) conn->WaitConfirms(std::chrono::seconds(30));
  if (!conn->Ok() || conn->confirmed() != conn->published()) {
    state.Fail("DLQ backlog: " + (conn->Ok() ? "not every publish confirmed" : conn->error()));
  }
  state.log->Write("dlq_seeded", conn->confirmed());
  return static_cast<int64_t>(conn->confirmed());
}

}  // namespace drainsim::live
