// An AWS Lambda event-source mapping for SQS (workers.lambda_esm; docs/PRESETS.md,
// "lambda_esm"): pollers receive messages and invoke the function, whose execution environments
// are the workers. A poller waits for its invocation; one whose invocation finds every
// environment busy is throttled: the message was received (receive count up by one, visibility
// timeout running) but not processed, and the poller receives again at once. The number of
// pollers grows while messages wait (EsmPollers).
//
// Invariants (checked as they are used):
//  (1) Invocations in flight (busy attempt slots) never exceed the pollers: a receive needs a
//      poller that waits for no invocation.
//  (2) With maximum_concurrency the pollers, and so the invocations, never exceed it.
#include "sim/model/world.h"

namespace drainsim::model {

void World::DispatchEsm() {
  DRAINSIM_CHECK(pool_.busy_slots() <= esm_->pollers());  // (1), (2)
  while (broker_.deliverable()) {
    if (!retry_.breaker().AllowsDelivery()) return;
    // Receives take no time: a free poller receives until a message finds an environment, or
    // nothing is visible. Each throttled receive hides a message for its visibility timeout,
    // so the loop ends within the ready messages.
    if (pool_.busy_slots() >= esm_->pollers()) break;
    bool environment_free = false;
    uint32_t w = 0;
    while (!pool_.ring_empty()) {
      w = pool_.PopRing();
      if (pool_.CanTake(w)) {
        environment_free = true;
        break;
      }
    }
    const MessageRef ref = broker_.PopOldestReady();
    if (environment_free) {
      HandOut(w, ref);
      pool_.AddToRing(w);
    } else {
      Message& m = messages_.Get(ref);
      if (!RefusedAtReceive(ref, m)) ThrottledReceive(ref, m);
    }
  }
  MaybeScheduleEsmScale();
}

void World::ThrottledReceive(MessageRef ref, Message& m) {
  Transition(m, MessageState::kInFlight, TransitionNote{.cause = TransitionCause::kThrottled});
  m.redelivered = m.receive_count > 0;
  ++m.receive_count;
  if (!m.redelivered) ++ack_pending_;  // as Deliver: the receive count went from 0 to 1
  ++m.delivery_generation;
  // Nobody holds a copy, nothing will delete it: it is visible again when its timeout ends, as
  // a failed attempt's message under retry.delivery visibility_timeout.
  m.cause = RedeliveryCause::kNotDeleted;
  m.holder = -1;
  ++metrics_.results().throttles;
  // The loader refuses restore_sweep_s beside lambda_esm: the timeout runs out on time.
  const engine::Instant expires_at = now_ + scenario_.broker.visibility_timeout;
  if (broker_.visibility_timers().Add(
          VisibilityTimer{expires_at, Delivery{ref, m.delivery_generation}})) {
    At(expires_at, Event{EventType::kVisibilityExpired});
  }
  broker_.visibility_timers().CompactIfSparse(
      static_cast<size_t>(ledger_.count(MessageState::kInFlight)),
      [this](const VisibilityTimer& t) { return !IsCurrent(t.delivery); });
}

// A scale-up comes a second after a dispatch left messages waiting, and each second after that
// while they still wait.
void World::MaybeScheduleEsmScale() {
  if (broker_.ready_count() == 0 || !esm_->WantsTick()) return;
  esm_->TickScheduled();
  At(now_ + engine::Duration::Seconds(1), Event{EventType::kEsmScale});
}

void World::EsmScale() {
  esm_->Tick(broker_.ready_count() > 0);
  metrics_.results().esm_pollers_end = esm_->pollers();
  Dispatch();  // more pollers may receive; schedules the next tick if messages still wait
}

}  // namespace drainsim::model
